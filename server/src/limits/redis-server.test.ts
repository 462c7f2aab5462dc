import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../db/open.js';
import { migrate } from '../db/migrate.js';
import { client, registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { connectTestRedis, REDIS_TEST_URL } from './redis-testing.js';

// Two whole Parley servers on one database, limits in the real Redis (config.limits, as main
// wires it): what one instance counts, the other sees.
describe('limits shared by two servers through Redis', () => {
  let servers: TestServer[] = [];
  let cleanup: () => Promise<void>;
  const db = openDb(':memory:');

  beforeAll(async () => {
    const redis = await connectTestRedis();
    cleanup = redis.cleanup;
    migrate(db);
    const limits = { store: 'redis' as const, url: REDIS_TEST_URL, prefix: redis.prefix };
    servers = [await startServer({ db, config: { limits } }), await startServer({ db, config: { limits } })];
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    db.close();
    await cleanup?.();
  });

  it('admits exactly R of N parallel requests spread over both instances', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const { api, token } = await registerAccount(a.url);
    const onB = client(b.url, token);
    for (let i = 0; i < 45; i++) expect((await (i % 2 ? api : onB).get('/v1/organizations')).status).toBe(200); // 15 of 60 remain
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? api : onB).get('/v1/organizations')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(15);
    const refused = results.find((r) => r.status === 429);
    expect(refused?.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('throttles bad tokens from one address across both instances (30, then 429)', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        client(i % 2 ? a.url : b.url, 'sk_not_a_real_key')
          .get('/v1/assistants')
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });
});
