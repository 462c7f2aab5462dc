import type { Clock } from '../lib/clock.js';
import { DAY_MS, MINUTE_MS, rateDecision } from './decision.js';
import type { FailureTracker, LimitStore, RateDecision, RateLimits } from './port.js';

interface Usage {
  /** Admission times inside the last minute, oldest first: an exact sliding window. */
  minute: number[];
  day: number; // UTC day number of `dayCount`
  dayCount: number;
}

/**
 * Exact per-key limits in this process: a sliding 60-second log (no 60 s span ever admits more
 * than the limit, unlike fixed windows or GCRA bursts) and the UTC calendar day. Check-and-count
 * is synchronous, so N concurrent requests against R remaining admit exactly R.
 */
export function createRateLimiter(clock: Clock) {
  const usage = new Map<string, Usage>();

  function take(key: string, limits: RateLimits): RateDecision {
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

    const allowed = u.minute.length < limits.perMinute && u.dayCount < limits.perDay;
    if (allowed) {
      // Without a minute limit the log decides nothing (the day is the limiting policy) and
      // would only grow: a busy assistant's day limit would splice an array of every admission
      // of the last minute on each request.
      if (limits.perMinute !== Infinity) u.minute.push(now);
      u.dayCount++;
    }
    return rateDecision(limits, { now, allowed, minuteCount: u.minute.length, oldestMs: u.minute[0] ?? now, dayCount: u.dayCount });
  }

  /** Forget idle keys so the map does not grow without bound. */
  function sweep(): void {
    const now = clock.now();
    const today = Math.floor(now / DAY_MS);
    for (const [key, u] of usage) if (u.day !== today && (u.minute.at(-1) ?? 0) <= now - MINUTE_MS) usage.delete(key);
  }

  return { take, sweep };
}

/** The synchronous failure log behind the memory FailureTracker. */
function createFailureLog(clock: Clock, limit: number, windowMs: number) {
  const failures = new Map<string, number[]>();
  const recent = (key: string): number[] => {
    const cutoff = clock.now() - windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };
  const blocked = (key: string): boolean => recent(key).length >= limit;
  function record(key: string): void {
    const list = recent(key);
    list.push(clock.now());
    failures.set(key, list);
  }
  return {
    blocked,
    record,
    attempt(key: string): 'blocked' | 'recorded' {
      if (blocked(key)) return 'blocked';
      record(key);
      return 'recorded';
    },
    sweep(): void {
      for (const key of failures.keys()) recent(key);
    },
  };
}

/** A FailureTracker in this process, which must forget expired failures itself. */
export interface MemoryFailureTracker extends FailureTracker {
  /** Drops the failures that fell out of the window (the store's periodic sweep). */
  sweep(): void;
}

/** A FailureTracker in this process (the memory store's). */
export function createMemoryFailureTracker(clock: Clock, limit: number, windowMs: number): MemoryFailureTracker {
  const log = createFailureLog(clock, limit, windowMs);
  return {
    blocked: (key) => Promise.resolve(log.blocked(key)),
    record: (key) => Promise.resolve(log.record(key)),
    attempt: (key) => Promise.resolve(log.attempt(key)),
    sweep: log.sweep,
  };
}

/**
 * Limits of one instance (the SQLite default). The synchronous limiter answers through an
 * already-settled promise: no serialisation, no script, nothing Redis-like on the chat path.
 */
export function createMemoryLimitStore(clock: Clock): LimitStore {
  const limiter = createRateLimiter(clock);
  const trackers = new Map<string, MemoryFailureTracker>();
  return {
    take: (key, limits) => Promise.resolve(limiter.take(key, limits)),
    failureTracker(name, limit, windowMs) {
      let t = trackers.get(name);
      if (!t) {
        t = createMemoryFailureTracker(clock, limit, windowMs);
        trackers.set(name, t);
      }
      return t;
    },
    sweep() {
      limiter.sweep();
      for (const t of trackers.values()) t.sweep();
    },
    close: () => Promise.resolve(),
  };
}
