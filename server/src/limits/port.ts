/**
 * The limit store port: rate limits, widget abuse limits and failed-attempt throttles, kept in
 * process memory (one instance, the SQLite default) or in Redis (several instances).
 *
 * Every call is one atomic check-and-count, so N concurrent requests against R remaining admit
 * exactly R whichever instance they reach. A store that cannot answer (Redis down) rejects with
 * a 503 `unavailable` AppError: limits fail closed (docs/architecture.md, scale-out: "Limits across instances").
 */

/** Per-key limits; `Infinity` = no limit for that window. */
export interface RateLimits {
  perMinute: number;
  perDay: number;
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
 * Failures per key (client IP, email) in a sliding window; past the limit callers answer 429
 * instead of trying again.
 */
export interface FailureTracker {
  /** Whether `limit` failures fall inside the window. */
  blocked(key: string): Promise<boolean>;
  /** Counts one failure now (even past the limit: a caller checked `blocked` first). */
  record(key: string): Promise<void>;
  /**
   * `blocked` and `record` in one atomic step: 'blocked' (nothing counted) or 'recorded'. For
   * callers that decide at once, so parallel failures across instances stop at exactly `limit`.
   */
  attempt(key: string): Promise<'blocked' | 'recorded'>;
}

export interface LimitStore {
  /** Checks and counts one request against `key`'s sliding minute and UTC calendar day. */
  take(key: string, limits: RateLimits): Promise<RateDecision>;
  /**
   * A failure tracker for one purpose (`name` keeps purposes apart: "auth", "login-email"…).
   * Trackers with one name must be created with one limit and window.
   */
  failureTracker(name: string, limit: number, windowMs: number): FailureTracker;
  /** Frees memory of idle keys (memory store; Redis keys expire by themselves). */
  sweep(): void;
  /** Closes the connection, if any. */
  close(): Promise<void>;
}
