import { parseRetryAfter as parseRetryAfterHeader } from './backoff.js';

/**
 * When to retry a Parley request. How long to wait is the shared backoff (./backoff.ts, a copy
 * of the server's net/backoff.ts: full jitter, and Retry-After).
 */

/** 429 and 5xx are the server telling us "not now"; every other status is final. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). Returns milliseconds
 * to wait, or undefined when absent or unreadable (the caller then falls back to backoff).
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  return parseRetryAfterHeader(value, nowMs) ?? undefined;
}
