import type { RequestHandler, Response } from 'express';
import type { Clock } from '../lib/clock.js';
import { AppError } from './errors.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface Usage {
  /** Admission times inside the last minute, oldest first: an exact sliding window. */
  minute: number[];
  day: number; // UTC day number of `dayCount`
  dayCount: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix epoch seconds when the limiting policy next admits a request. */
  resetEpochSeconds: number;
  retryAfterSeconds: number;
}

/**
 * Exact per-credential limits: a sliding 60-second log (no 60 s span ever admits more than
 * the limit, unlike fixed windows or GCRA bursts) and the UTC calendar day. Check-and-count
 * is synchronous, so N concurrent requests against R remaining admit exactly R.
 */
export function createRateLimiter(clock: Clock) {
  const usage = new Map<string, Usage>();

  function take(key: string, limits: { perMinute: number; perDay: number }): RateDecision {
    const now = clock.now();
    const today = Math.floor(now / DAY_MS);
    let u = usage.get(key);
    if (!u) {
      u = { minute: [], day: today, dayCount: 0 };
      usage.set(key, u);
    }
    if (u.day !== today) {
      u.day = today;
      u.dayCount = 0;
    }
    let drop = 0;
    while (drop < u.minute.length && (u.minute[drop] as number) <= now - MINUTE_MS) drop++;
    if (drop) u.minute.splice(0, drop);

    const minuteFull = u.minute.length >= limits.perMinute;
    const dayFull = u.dayCount >= limits.perDay;
    const allowed = !minuteFull && !dayFull;
    if (allowed) {
      u.minute.push(now);
      u.dayCount++;
    }
    const minuteRemaining = Math.max(0, limits.perMinute - u.minute.length);
    const dayRemaining = Math.max(0, limits.perDay - u.dayCount);
    const nextDayMs = (today + 1) * DAY_MS;
    // When the minute policy frees a slot: the oldest admission leaving the window.
    const minuteResetMs = u.minute.length ? (u.minute[0] as number) + MINUTE_MS : now;
    const dayLimits = dayRemaining < minuteRemaining || (dayRemaining === minuteRemaining && dayFull);
    const resetMs = dayLimits ? nextDayMs : minuteResetMs;
    const blockedUntil = dayFull ? nextDayMs : minuteResetMs;
    return {
      allowed,
      limit: dayLimits ? limits.perDay : limits.perMinute,
      remaining: dayLimits ? dayRemaining : minuteRemaining,
      resetEpochSeconds: Math.ceil(resetMs / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil((blockedUntil - now) / 1000)),
    };
  }

  /** Forget idle credentials so the map does not grow without bound. */
  function sweep(): void {
    const now = clock.now();
    const today = Math.floor(now / DAY_MS);
    for (const [key, u] of usage) if (u.day !== today && (u.minute.at(-1) ?? 0) <= now - MINUTE_MS) usage.delete(key);
  }

  return { take, sweep };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

export function setRateHeaders(res: Response, d: RateDecision): void {
  res.setHeader('X-RateLimit-Limit', String(d.limit));
  res.setHeader('X-RateLimit-Remaining', String(d.remaining));
  res.setHeader('X-RateLimit-Reset', String(d.resetEpochSeconds));
}

export function rateLimitError(d: RateDecision, message = 'Rate limit exceeded, try again later'): AppError {
  return new AppError('rate_limit_exceeded', message, { 'Retry-After': String(d.retryAfterSeconds) });
}

/** Counts every authenticated request against its credential (API.md §5). */
export function rateLimit(limiter: RateLimiter): RequestHandler {
  return function enforceRateLimit(_req, res, next) {
    const principal = res.locals.principal;
    if (!principal) return next();
    const decision = limiter.take(principal.credentialId, principal.limits);
    setRateHeaders(res, decision);
    if (!decision.allowed) throw rateLimitError(decision);
    next();
  };
}
