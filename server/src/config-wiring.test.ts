import { afterEach, describe, expect, it } from 'vitest';
import { setupShop } from '../test/fixtures.js';
import { registerAccount } from '../test/http.js';
import { startServer, type TestServer } from '../test/test-server.js';
import { loadConfig } from './config.js';
import { fakeSite, page, type FakeSite } from '../test/fake-site.js';
import { createFakeClock } from './lib/clock.js';
import { until } from '../test/wait.js';

// WEB_JOB_LEASE_MS and UPKEEP_INTERVAL_MS (config.ts) reach what they set, on the project's
// database: values read from an environment through loadConfig, then a real server.

let server: TestServer | null = null;
let site: FakeSite | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  await site?.close();
  site = null;
});

describe('job lease and upkeep interval from the environment', () => {
  it('WEB_JOB_LEASE_MS is the lease a running web job takes', async () => {
    const env = loadConfig({ WEB_JOB_LEASE_MS: '7000' });
    const clock = createFakeClock(Date.parse('2026-05-01T10:00:00Z'));
    // Every page of the site answers after 1.5 s: the crawl job runs meanwhile. It is let finish
    // (not aborted by the shutdown), which is not what this test is about.
    site = await fakeSite({ '/': page('Home', 'Welcome to the shop.') }, { delayMs: 1_500 });
    server = await startServer({
      clock,
      config: { fetchAllowPrivate: true, webJobLeaseMs: env.webJobLeaseMs },
      urlSources: { pollMs: 50 },
    });
    const { api } = await registerAccount(server.url);
    const kbId = (await api.post('/v1/knowledge-bases', { name: 'Web' })).body.data.id as string;
    const created = await api.post(`/v1/knowledge-bases/${kbId}/documents`, {
      url: `${site.origin}/`,
      crawl: { maxPages: 1, maxDepth: 0 },
    });
    expect(created.status).toBe(201);
    const storage = server.ctx.storage;
    const job = await until(
      'the job runs',
      () =>
        storage.get<{ lease_expires_at: number | string }>(
          "SELECT lease_expires_at FROM ingest_jobs WHERE document_id = ? AND status = 'processing'",
          [created.body.data.id as string],
        ),
      10_000,
    );
    // The fake clock stands still: the lease is exactly the configured length.
    expect(Number(job.lease_expires_at) - clock.now()).toBe(7_000);
    await until(
      'the job ends',
      async () => (await storage.get<{ status: string }>('SELECT status FROM ingest_jobs'))?.status === 'done',
      15_000,
    );
  });

  it('UPKEEP_INTERVAL_MS is how often idle conversations are ended', async () => {
    const env = loadConfig({ UPKEEP_INTERVAL_MS: '1000' });
    const clock = createFakeClock(Date.parse('2026-05-01T10:00:00Z'));
    server = await startServer({ clock, config: { upkeepIntervalMs: env.upkeepIntervalMs } });
    const shop = await setupShop(server.url);
    expect((await shop.api.post(shop.chatPath, { message: 'How do I reset my password?', sessionId: 's1' })).status).toBe(200);
    clock.advance(31 * 60_000); // idle past IDLE_END_MS (30 min)
    const storage = server.ctx.storage;
    const started = Date.now();
    await until(
      'the idle conversation ends',
      async () => (await storage.get<{ status: string }>('SELECT status FROM conversations'))?.status === 'ended',
      5_000,
    );
    // The default period (60 s) would not have come round yet.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
