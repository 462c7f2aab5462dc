import type { RateDecision, RateLimits } from './port.js';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** A key's windows right after one check-and-count, as both stores report them. */
export interface WindowState {
  now: number;
  allowed: boolean;
  /** Admissions inside the last minute (this one included when allowed). */
  minuteCount: number;
  /** The oldest of those admissions (any value when minuteCount is 0). */
  oldestMs: number;
  /** Admissions this UTC day (this one included when allowed). */
  dayCount: number;
}

/**
 * The decision and its headers from the windows' state: one function for the memory and the
 * Redis store, so both report the policy closest to exhaustion the same way (docs/api-spec.md §5).
 */
export function rateDecision(limits: RateLimits, s: WindowState): RateDecision {
  const { now } = s;
  // A refusal counted nothing, so the day was already full before it when it is full now.
  const dayFull = !s.allowed && s.dayCount >= limits.perDay;
  const minuteRemaining = Math.max(0, limits.perMinute - s.minuteCount);
  const dayRemaining = Math.max(0, limits.perDay - s.dayCount);
  const nextDayMs = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
  // When the minute policy frees a slot: the oldest admission leaving the window.
  const minuteResetMs = s.minuteCount ? s.oldestMs + MINUTE_MS : now;
  const dayLimits = dayRemaining < minuteRemaining || (dayRemaining === minuteRemaining && dayFull);
  const resetMs = dayLimits ? nextDayMs : minuteResetMs;
  const blockedUntil = dayFull ? nextDayMs : minuteResetMs;
  return {
    allowed: s.allowed,
    limit: dayLimits ? limits.perDay : limits.perMinute,
    remaining: dayLimits ? dayRemaining : minuteRemaining,
    resetEpochSeconds: Math.ceil(resetMs / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil((blockedUntil - now) / 1000)),
  };
}
