import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../lib/clock.js';
import { createMemoryLimitStore } from './memory.js';

// The sliding-window semantics themselves are tested through createRateLimiter in
// http/rate-limit.test.ts (unchanged); this is the async port around it.
describe('memory limit store', () => {
  it('answers take() with the limiter decision, exact under parallel calls', async () => {
    const store = createMemoryLimitStore(createFakeClock(Date.parse('2026-03-01T10:00:00Z')));
    const limits = { perMinute: 60, perDay: 1000 };
    for (let i = 0; i < 45; i++) await store.take('k', limits);
    const decisions = await Promise.all(Array.from({ length: 40 }, () => store.take('k', limits)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(15);
    expect(decisions.at(-1)).toMatchObject({ allowed: false, limit: 60, remaining: 0, retryAfterSeconds: 60 });
  });

  it('without a minute limit the day decides, and reports like before', async () => {
    const clock = createFakeClock(Date.parse('2026-03-01T23:59:30Z'));
    const store = createMemoryLimitStore(clock);
    const limits = { perMinute: Infinity, perDay: 2 };
    const midnight = Date.parse('2026-03-02T00:00:00Z') / 1000;
    expect(await store.take('assistant', limits)).toMatchObject({ allowed: true, limit: 2, remaining: 1, resetEpochSeconds: midnight });
    await store.take('assistant', limits);
    expect(await store.take('assistant', limits)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      resetEpochSeconds: midnight,
      retryAfterSeconds: 30,
    });
    clock.advance(30_000);
    expect((await store.take('assistant', limits)).allowed).toBe(true);
    // Without a day limit the minute decides.
    const ip = { perMinute: 2, perDay: Infinity };
    await store.take('ip', ip);
    await store.take('ip', ip);
    expect(await store.take('ip', ip)).toMatchObject({ allowed: false, limit: 2, remaining: 0, retryAfterSeconds: 60 });
  });

  it('failure trackers: attempt is blocked-or-record in one step, one tracker per name, swept when idle', async () => {
    const clock = createFakeClock();
    const store = createMemoryLimitStore(clock);
    const t = store.failureTracker('auth', 3, 60_000);
    expect(store.failureTracker('auth', 3, 60_000)).toBe(t);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => t.attempt('1.2.3.4')));
    expect(outcomes.filter((o) => o === 'recorded')).toHaveLength(3);
    expect(await t.blocked('1.2.3.4')).toBe(true);
    expect(await store.failureTracker('login-ip', 3, 60_000).blocked('1.2.3.4')).toBe(false);
    clock.advance(60_000);
    expect(await t.blocked('1.2.3.4')).toBe(false);
    await t.record('5.6.7.8');
    clock.advance(60_001);
    store.sweep(); // nothing to assert from outside but that it runs; the entries are gone
    expect(await t.blocked('5.6.7.8')).toBe(false);
    await store.close();
  });
});
