import { backoffDelay } from './backoff.js';

/** How a caller retries: how often, and the backoff's bounds (net/backoff.ts: full jitter). */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** The ceiling of the first retry's wait, doubled for each further one. */
  baseDelayMs: number;
  /** Longest wait between attempts; a Retry-After above it gives up at once instead. */
  maxDelayMs: number;
}

/** What the retry loop needs to know of a failure. */
export interface RetryableError extends Error {
  readonly retryable: boolean;
  /** The server's own wait (Retry-After), when it named one. */
  readonly retryAfterMs: number | null;
}

export interface RetryOptions<T, E extends RetryableError> {
  policy: RetryPolicy;
  signal?: AbortSignal | undefined;
  /** Whether an item is progress that cannot be taken back (a streamed text delta): after one, the error stands. */
  isProgress: (item: T) => boolean;
  /** Any thrown value as the caller's error type (unknown errors are usually retryable network failures). */
  toError: (err: unknown) => E;
  /** The error to end with when `signal` aborts during a wait. */
  cancelled: () => E;
  onRetry?: ((err: E, waitMs: number) => void) | undefined;
  /** Injected by tests; Math.random otherwise. */
  random?: (() => number) | undefined;
}

/** The wait before retry `retry` (0-based): the server's Retry-After when it named one, else the backoff. */
export function retryWaitMs(retry: number, policy: RetryPolicy, retryAfterMs: number | null, random: () => number = Math.random): number {
  return retryAfterMs ?? backoffDelay(retry, { baseMs: policy.baseDelayMs, maxMs: policy.maxDelayMs }, random);
}

/**
 * Runs `attempt` again after retryable failures, as long as it has not produced anything
 * `isProgress` counts. Items before the failure are passed through as they come. A Retry-After
 * longer than the policy's maxDelayMs ends the loop with the error ("come back in a minute" is
 * a failure for a live chat).
 */
export async function* withRetries<T, E extends RetryableError>(
  attempt: (n: number) => AsyncIterable<T>,
  opts: RetryOptions<T, E>,
): AsyncIterable<T> {
  for (let n = 0; ; n++) {
    let progressed = false;
    try {
      for await (const item of attempt(n)) {
        if (opts.isProgress(item)) progressed = true;
        yield item;
      }
      return;
    } catch (err) {
      const e = opts.toError(err);
      if (progressed || !e.retryable || n >= opts.policy.retries || opts.signal?.aborted) throw e;
      const wait = retryWaitMs(n, opts.policy, e.retryAfterMs, opts.random);
      if (wait > opts.policy.maxDelayMs) throw e;
      opts.onRetry?.(e, wait);
      await sleep(wait, opts.signal, opts.cancelled);
    }
  }
}

/** Waits `ms`; rejects with `cancelled()` as soon as `signal` aborts. */
export function sleep<E extends Error>(ms: number, signal: AbortSignal | undefined, cancelled: () => E): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
