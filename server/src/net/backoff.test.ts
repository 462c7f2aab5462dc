import { describe, expect, it } from 'vitest';
import { backoffCeiling, backoffDelay, parseRetryAfter } from './backoff.js';

describe('backoff: exponential with full jitter', () => {
  const backoff = { baseMs: 100, maxMs: 1_000 };

  it('draws the whole interval [0, ceiling]: 0 at random() = 0, the ceiling at random() → 1', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, backoff, () => 0))).toEqual([0, 0, 0, 0, 0, 0]);
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, backoff, () => 0.999_999))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, backoff, () => 0.5))).toEqual([50, 100, 200, 400]);
  });

  it('stays within [0, min(max, base · 2^n)] for any draw, however many retries', () => {
    for (let n = 0; n < 100; n++) {
      const ceiling = backoffCeiling(n, backoff);
      expect(ceiling).toBe(Math.min(1_000, 100 * 2 ** Math.min(n, 30)));
      for (let i = 0; i < 50; i++) {
        const wait = backoffDelay(n, backoff);
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThanOrEqual(ceiling);
        expect(Number.isInteger(wait)).toBe(true);
      }
    }
    expect(backoffCeiling(10_000, { baseMs: 1, maxMs: Number.MAX_SAFE_INTEGER })).toBe(2 ** 30);
    expect(backoffCeiling(-1, backoff)).toBe(100);
    expect(backoffCeiling(3, { baseMs: 0, maxMs: 0 })).toBe(0);
  });

  it('is full jitter, not equal jitter: the mean wait is half the ceiling, and short waits are as likely as long ones', () => {
    const ceiling = backoffCeiling(3, backoff); // 800
    const waits = Array.from({ length: 20_000 }, () => backoffDelay(3, backoff));
    const mean = waits.reduce((a, b) => a + b, 0) / waits.length;
    expect(mean / ceiling).toBeGreaterThan(0.45); // equal jitter would give 0.75
    expect(mean / ceiling).toBeLessThan(0.55);
    expect(waits.filter((w) => w < ceiling / 2).length / waits.length).toBeGreaterThan(0.45); // equal jitter: none
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');

  it('reads delta-seconds (fractions too) and HTTP dates', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1_500);
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0); // in the past: now
  });

  it('ignores what is absent or unreadable', () => {
    for (const value of [null, undefined, '', '  ', 'soon', '-3', '1e3']) expect(parseRetryAfter(value, now), String(value)).toBeNull();
  });
});
