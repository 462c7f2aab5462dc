import { afterEach, describe, expect, it } from 'vitest';
import { client, registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { createFakeClock } from '../lib/clock.js';
import { createCredentialResolver, DASHBOARD_SESSION_LIMITS } from './credentials.js';
import { PLAN_LIMITS } from './permissions.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

/** A dashboard login (cookie) and a bearer session token of the same user, free plan. */
async function twoSessions(url: string) {
  const account = await registerAccount(url);
  const login = await client(url).post(
    '/v1/auth/login',
    { email: account.email, password: 'correct horse battery' },
    { headers: { 'x-parley-csrf': '1', origin: url } },
  );
  const pair = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('parley_session='))
    ?.split(';')[0];
  if (!pair) throw new Error('no session cookie');
  const dashboard = { 'x-parley-csrf': '1', origin: url, cookie: pair };
  return { ...account, cookie: pair, viaCookie: (path: string) => client(url).get(path, { headers: dashboard }) };
}

describe('rate limits of dashboard (cookie) sessions', () => {
  it('a cookie session makes 100 requests in a minute on the free plan while a bearer session token gets 429 after 60', async () => {
    const clock = createFakeClock(Date.parse('2026-03-01T10:00:00Z'));
    server = await startServer({ clock });
    const s = await twoSessions(server.url);
    const cookieStatuses: number[] = [];
    let last: Awaited<ReturnType<typeof s.viaCookie>> | undefined;
    for (let i = 0; i < 100; i++) {
      last = await s.viaCookie('/v1/assistants');
      cookieStatuses.push(last.status);
      clock.advance(500); // 100 requests in 50 s
    }
    expect(cookieStatuses.every((st) => st === 200)).toBe(true);
    expect(last?.headers.get('x-ratelimit-limit')).toBe('600');
    expect(last?.headers.get('x-ratelimit-remaining')).toBe('500');

    clock.set(Date.parse('2026-03-01T11:00:00Z'));
    const bearer: number[] = [];
    for (let i = 0; i < 61; i++) bearer.push((await s.api.get('/v1/assistants')).status);
    expect(bearer.slice(0, 60).every((st) => st === 200)).toBe(true);
    expect(bearer[60]).toBe(429);
    // Each session counts on its own: the bearer token's 429 does not touch the cookie's budget.
    expect((await s.viaCookie('/v1/assistants')).status).toBe(200);
  });

  it('the cookie session is still limited, exactly, at 600 a minute (601st → 429 with Retry-After)', async () => {
    const clock = createFakeClock(Date.parse('2026-03-01T10:00:00Z'));
    server = await startServer({ clock });
    const s = await twoSessions(server.url);
    const statuses: number[] = [];
    for (let batch = 0; batch < 6; batch++) {
      statuses.push(...(await Promise.all(Array.from({ length: 100 }, () => s.viaCookie('/v1/auth/me')))).map((r) => r.status));
    }
    expect(statuses.filter((st) => st === 200)).toHaveLength(600);
    const over = await s.viaCookie('/v1/auth/me');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('60');
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it("GET /v1/auth/me reports the limits of the credential (interactive for the cookie, the plan for a bearer token) beside the plan's", async () => {
    server = await startServer();
    const s = await twoSessions(server.url);
    const viaCookie = (await s.viaCookie('/v1/auth/me')).body.data;
    expect(viaCookie.limits).toEqual({ perMinute: 600, perDay: 20_000 });
    expect(viaCookie.organization.limits).toEqual(PLAN_LIMITS.free);
    expect((await s.api.get('/v1/auth/me')).body.data.limits).toEqual(PLAN_LIMITS.free);
  });

  it('interactive limits are max(plan, 600/min) and max(plan, 20,000/day): a larger plan keeps its own', async () => {
    const clock = createFakeClock(Date.parse('2026-03-01T10:00:00Z'));
    {
      server = await startServer({ clock });
      const s = await twoSessions(server.url);
      const token = s.cookie.slice('parley_session='.length);
      const resolver = createCredentialResolver(server.ctx.storage);
      const expected = {
        free: { perMinute: 600, perDay: 20_000 },
        pro: { perMinute: 600, perDay: 20_000 },
        enterprise: { perMinute: 1_000, perDay: 100_000 },
      };
      for (const plan of ['free', 'pro', 'enterprise'] as const) {
        await server.ctx.storage.run('UPDATE organizations SET plan = ? WHERE id = ?', [plan, s.organization.id]);
        const viaCookie = (await resolver.resolve(token, clock.now(), { dashboardCookie: true }))?.principal.limits;
        expect(viaCookie).toEqual(expected[plan]);
        expect(viaCookie).toEqual({
          perMinute: Math.max(PLAN_LIMITS[plan].perMinute, DASHBOARD_SESSION_LIMITS.perMinute),
          perDay: Math.max(PLAN_LIMITS[plan].perDay, DASHBOARD_SESSION_LIMITS.perDay),
        });
        expect((await resolver.resolve(token, clock.now()))?.principal.limits).toEqual(PLAN_LIMITS[plan]);
      }
    }
  });
});
