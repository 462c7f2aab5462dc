/**
 * How long to wait before retrying a request: the one backoff of Parley, used by every retry in
 * the server (model providers, embeddings, the Redis reconnect) and in the connectors.
 *
 * Exponential backoff with FULL jitter ("Exponential Backoff And Jitter", AWS Architecture
 * Blog, 2015): the wait before retry `n` (0 for the first retry) is drawn uniformly from
 * [0, min(maxMs, baseMs · 2^n)]. Spreading the whole interval, not only its upper half ("equal
 * jitter"), de-synchronises many clients that failed together the most for the least total
 * wait. A caller that wants a floor between attempts has it from Retry-After or its own pause.
 *
 * This file imports nothing: the connectors (a workspace whose build may not reach into
 * server/src) keep a byte-identical copy at connectors/src/core/backoff.ts, and a connectors
 * test fails when the two differ.
 */

export interface Backoff {
  /** The ceiling of the first retry's wait; doubled for every further retry. */
  baseMs: number;
  /** No ceiling grows past this. */
  maxMs: number;
}

/** Exponents past this change nothing (any base times 2^30 is past any sensible maxMs) and keep the arithmetic finite. */
const MAX_DOUBLINGS = 30;

/**
 * The wait before retry `retry` (0-based), in whole milliseconds, in [0, min(maxMs, baseMs · 2^retry)].
 * `random` returns [0, 1) like Math.random; tests inject their own.
 */
export function backoffDelay(retry: number, backoff: Backoff, random: () => number = Math.random): number {
  return Math.round(random() * backoffCeiling(retry, backoff));
}

/** The longest wait `backoffDelay` can return for retry `retry` (0-based). */
export function backoffCeiling(retry: number, backoff: Backoff): number {
  const doublings = Math.min(Math.max(0, Math.floor(retry)), MAX_DOUBLINGS);
  return Math.max(0, Math.min(backoff.maxMs, backoff.baseMs * 2 ** doublings));
}

/**
 * A Retry-After value (RFC 9110 §10.2.3: delta-seconds, or an HTTP date) as milliseconds from
 * `nowMs`, or null when absent or unreadable (the caller then backs off on its own). Fractional
 * seconds are accepted (some gateways send them); a date must name its weekday or month, since
 * Date.parse is lenient ("-3" would parse as a year).
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  if (!/[a-z]{3}/i.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
