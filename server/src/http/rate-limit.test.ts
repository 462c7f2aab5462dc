import { afterEach, describe, expect, it } from 'vitest';
import { client, registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { createFakeClock } from '../lib/clock.js';
import { createRateLimiter } from './rate-limit.js';

describe('rate limiter (unit)', () => {
  it('never admits more than the limit in any 60-second span', () => {
    const clock = createFakeClock(Date.parse('2026-03-01T10:00:00Z'));
    const limiter = createRateLimiter(clock);
    const limits = { perMinute: 3, perDay: 100 };
    expect([1, 2, 3, 4].map(() => limiter.take('k', limits).allowed)).toEqual([true, true, true, false]);
    clock.advance(59_999);
    expect(limiter.take('k', limits).allowed).toBe(false);
    clock.advance(1);
    expect(limiter.take('k', limits).allowed).toBe(true); // the first admission left the window
    expect(limiter.take('k', limits).allowed).toBe(true);
    expect(limiter.take('k', limits).allowed).toBe(true);
    expect(limiter.take('k', limits).allowed).toBe(false);
  });

  it('counts the day per UTC calendar day and reports the policy closest to exhaustion', () => {
    const clock = createFakeClock(Date.parse('2026-03-01T23:59:00Z'));
    const limiter = createRateLimiter(clock);
    const limits = { perMinute: 10, perDay: 2 };
    const first = limiter.take('k', limits);
    expect(first).toMatchObject({ allowed: true, limit: 2, remaining: 1, resetEpochSeconds: Date.parse('2026-03-02T00:00:00Z') / 1000 });
    limiter.take('k', limits);
    const blocked = limiter.take('k', limits);
    expect(blocked).toMatchObject({ allowed: false, limit: 2, remaining: 0, retryAfterSeconds: 60 });
    clock.set(Date.parse('2026-03-02T00:00:00Z'));
    expect(limiter.take('k', limits).allowed).toBe(true);
  });

  it('keeps credentials apart', () => {
    const limiter = createRateLimiter(createFakeClock());
    const limits = { perMinute: 1, perDay: 10 };
    expect(limiter.take('a', limits).allowed).toBe(true);
    expect(limiter.take('b', limits).allowed).toBe(true);
    expect(limiter.take('a', limits).allowed).toBe(false);
  });
});

describe('rate limits over HTTP (API.md §5)', () => {
  let server: TestServer;
  afterEach(async () => {
    await server.close();
  });

  it('sends X-RateLimit-* on every authenticated response, Reset in epoch seconds', async () => {
    const clock = createFakeClock(Date.parse('2026-03-01T10:00:00.250Z'));
    server = await startServer({ clock });
    const { api } = await registerAccount(server.url);
    const res = await api.get('/v1/assistants');
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(res.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil((clock.now() + 60_000) / 1000)));
  });

  it('admits exactly R of N parallel requests when R remain', async () => {
    server = await startServer();
    const { api } = await registerAccount(server.url);
    for (let i = 0; i < 45; i++) await api.get('/v1/organizations'); // 15 of 60 remain
    const results = await Promise.all(Array.from({ length: 40 }, () => api.get('/v1/organizations')));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(15);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
  });

  it('answers 429 with Retry-After in the envelope, and in form 1 on the integrations chat', async () => {
    const clock = createFakeClock(Date.parse('2026-03-01T10:00:00Z'));
    server = await startServer({ clock });
    const { api } = await registerAccount(server.url);
    const assistant = await api.post('/v1/assistants', { type: 'api', name: 'A' });
    const key = await api.post('/v1/api-keys', { name: 'slow', permissions: ['chat', 'assistants:read'], rateLimit: { perMinute: 2 } });
    const keyApi = client(server.url, key.body.data.key);
    await keyApi.get('/v1/assistants');
    clock.advance(10_000);
    await keyApi.get('/v1/assistants');
    const general = await keyApi.get('/v1/assistants');
    expect(general.status).toBe(429);
    expect(general.body).toEqual({ status: 'error', error: { code: 'rate_limit_exceeded', message: expect.any(String) } });
    expect(general.headers.get('retry-after')).toBe('50');
    expect(general.headers.get('x-ratelimit-remaining')).toBe('0');
    const chat = await keyApi.post(`/v1/integrations/${assistant.body.data.id}/chat`, { message: 'hello' });
    expect(chat.status).toBe(429);
    expect(chat.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    clock.advance(50_000);
    expect((await keyApi.get('/v1/assistants')).status).toBe(200);
  });

  it('applies a per-key day limit and does not count 401s against keys', async () => {
    server = await startServer();
    const { api } = await registerAccount(server.url);
    const key = await api.post('/v1/api-keys', { name: 'daily', permissions: ['assistants:read'], rateLimit: { perDay: 2 } });
    const keyApi = client(server.url, key.body.data.key);
    expect((await keyApi.get('/v1/assistants')).status).toBe(200);
    expect((await keyApi.get('/v1/assistants')).status).toBe(200);
    const third = await keyApi.get('/v1/assistants');
    expect(third.status).toBe(429);
    expect(third.headers.get('x-ratelimit-limit')).toBe('2');
    // Another credential of the same organization has its own budget.
    expect((await api.get('/v1/assistants')).status).toBe(200);
  });
});
