import { afterEach, describe, expect, it } from 'vitest';
import { signSlackRequest, startFakeSlack } from '../test-support/fake-slack.js';
import { startParleyUnderTest } from '../test-support/parley-under-test.js';
import { portFromLog, spawnConnector, type SpawnedConnector } from '../test-support/spawn-connector.js';

/** `npm run connector:slack` (HTTP receiver) as a process, configured only through its documented env. */
describe('slack main.ts', () => {
  let proc: SpawnedConnector | undefined;
  afterEach(async () => {
    await proc?.stop();
  });

  it('verifies its token against SLACK_API_URL and serves /slack/events', async () => {
    const parley = await startParleyUnderTest();
    const slack = await startFakeSlack();
    try {
      proc = spawnConnector('slack', {
        PARLEY_URL: parley.url,
        PARLEY_API_KEY: parley.apiKey,
        PARLEY_ASSISTANT_ID: parley.assistantId,
        PORT: '0',
        SLACK_BOT_TOKEN: 'xoxb-main',
        SLACK_SIGNING_SECRET: 'main-secret',
        SLACK_API_URL: slack.apiUrl,
      });
      const port = portFromLog(await proc.waitForLog((e) => e.msg === 'slack events endpoint listening'));
      await slack.waitFor((r) => r.path === '/api/auth.test');
      const body = JSON.stringify({ token: 't', challenge: 'ch4ll3nge', type: 'url_verification' });
      const res = await fetch(`http://127.0.0.1:${port}/slack/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signSlackRequest('main-secret', body, Math.floor(Date.now() / 1000)) },
        body,
      });
      expect(await res.text()).toContain('ch4ll3nge');
    } finally {
      await proc?.stop();
      await slack.close();
      await parley.close();
    }
  }, 30_000);

  it('exits with a clear message when the Parley key is refused', async () => {
    const parley = await startParleyUnderTest();
    try {
      proc = spawnConnector('slack', {
        PARLEY_URL: parley.url,
        PARLEY_API_KEY: 'sk_wrong',
        PARLEY_ASSISTANT_ID: parley.assistantId,
        SLACK_BOT_TOKEN: 'x',
        SLACK_SIGNING_SECRET: 'y',
      });
      expect(await proc.exited).toBe(1);
      expect(proc.stderr()).toMatch(/slack connector failed to start: .+/);
    } finally {
      await parley.close();
    }
  }, 30_000);
});
