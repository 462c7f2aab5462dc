import { afterEach, describe, expect, it } from 'vitest';
import { startFakeBotService, teamsMessageActivity } from '../test-support/fake-bot-service.js';
import { startParleyUnderTest } from '../test-support/parley-under-test.js';
import { portFromLog, spawnConnector, type SpawnedConnector } from '../test-support/spawn-connector.js';

/** `npm run connector:teams` as a process, configured only through its documented env. */
describe('teams main.ts', () => {
  let proc: SpawnedConnector | undefined;
  afterEach(async () => {
    await proc?.stop();
  });

  it('starts from env and answers a message end to end', async () => {
    const parley = await startParleyUnderTest();
    const service = await startFakeBotService();
    try {
      proc = spawnConnector('teams', {
        PARLEY_URL: parley.url,
        PARLEY_API_KEY: parley.apiKey,
        PARLEY_ASSISTANT_ID: parley.assistantId,
        PORT: '0',
        MICROSOFT_APP_ID: '',
      });
      // A cold start imports botbuilder and the Teams AI library: 11-13 s on a loaded 2-core machine.
      const port = portFromLog(await proc.waitForLog((e) => e.msg === 'teams messaging endpoint listening', 45_000));
      expect(proc.logs.some((e) => e.level === 'warn' && String(e.msg).includes('UNAUTHENTICATED'))).toBe(true);
      const res = await fetch(`http://127.0.0.1:${port}/api/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(teamsMessageActivity({ serviceUrl: service.url, text: 'How do I create an API key?' })),
      });
      expect(res.status).toBe(200);
      expect(service.sentActivities().some((a) => a.type === 'message' && Array.isArray(a.attachments))).toBe(true);
    } finally {
      await proc?.stop();
      await service.close();
      await parley.close();
    }
  }, 60_000);

  it('exits with a clear message when PARLEY_URL is missing', async () => {
    proc = spawnConnector('teams', { PARLEY_API_KEY: 'k', PARLEY_ASSISTANT_ID: 'a' });
    expect(await proc.exited).toBe(1);
    expect(proc.stderr()).toContain('PARLEY_URL is required');
  }, 30_000);
});
