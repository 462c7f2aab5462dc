/**
 * When and how long to wait before retrying a Parley request. Pure functions so the client's
 * loop stays readable and the arithmetic is tested on its own.
 */

export interface BackoffOptions {
  /** First delay; doubled on every further attempt. */
  baseDelayMs: number;
  /** No single computed backoff grows past this. */
  maxDelayMs: number;
  /** Injected so tests are deterministic; Math.random in production. */
  random: () => number;
}

/** 429 and 5xx are the server telling us "not now"; every other status is final. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). Returns milliseconds
 * to wait, or undefined when absent or unreadable (the caller then falls back to backoff).
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Date.parse is lenient ("-3" parses as a year); an HTTP date always names its weekday and month.
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * Exponential backoff with "equal jitter": half the delay is fixed so retries never fire at
 * once, half is random so many connectors hitting one server do not retry in lockstep.
 * `attempt` is 1 for the first retry.
 */
export function backoffDelay(attempt: number, opts: BackoffOptions): number {
  const exp = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + (exp / 2) * opts.random());
}
