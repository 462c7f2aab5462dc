import http from 'node:http';
import https from 'node:https';
import { BlockedAddressError, type ConnectLookup } from '../../webhooks/ssrf.js';
import { modelGuardMessage, type ModelUrlGuard } from './model-url-guard.js';

/**
 * HTTP plumbing shared by the model providers: one attempt with an idle timeout, typed
 * provider errors, and retries with backoff for the failures worth retrying (429, 5xx,
 * timeouts, dropped connections) as long as nothing has been streamed yet.
 */

export type ProviderErrorCode =
  | 'timeout' // nothing arrived for timeoutMs
  | 'rate_limited' // 429
  | 'upstream' // 5xx, 529, an error event in the stream
  | 'auth' // 401/403: the key is wrong
  | 'bad_request' // 400/404/422…: model name, base URL or request wrong
  | 'network' // connection refused/reset, stream cut short
  | 'protocol' // the answer does not follow the protocol
  | 'aborted'; // our caller (the chat client) went away

export class ProviderError extends Error {
  readonly status: number | null;
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;
  constructor(readonly code: ProviderErrorCode, message: string, opts: { status?: number | null; retryable?: boolean; retryAfterMs?: number | null; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ProviderError';
    this.status = opts.status ?? null;
    this.retryable = opts.retryable ?? false;
    this.retryAfterMs = opts.retryAfterMs ?? null;
  }
}

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  /** Longest wait between attempts; a Retry-After above it gives up at once instead. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 500, maxDelayMs: 8_000 };
export const DEFAULT_TIMEOUT_MS = 30_000;

/** `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(headers: Headers, nowMs = Date.now()): number | null {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** The error for a non-2xx answer; `detail` is the provider's own message when it gave one. */
export function statusError(status: number, headers: Headers, detail: string | null): ProviderError {
  const text = `HTTP ${status}${detail ? `: ${detail.slice(0, 300)}` : ''}`;
  const shouldRetry = headers.get('x-should-retry'); // OpenAI's explicit hint wins
  const retryAfter = retryAfterMs(headers);
  const make = (code: ProviderErrorCode, retryable: boolean) =>
    new ProviderError(code, text, { status, retryable: shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : retryable, retryAfterMs: retryAfter });
  if (status === 429) return make('rate_limited', true);
  if (status === 408) return make('timeout', true);
  if (status === 409) return make('upstream', true); // lock/conflict on the provider side: transient
  if (status === 401 || status === 403) return make('auth', false);
  if (status >= 500) return make('upstream', true); // includes Anthropic's 529 overloaded
  return make('bad_request', false);
}

/** Full-jitter exponential backoff; Retry-After when the provider named a time. */
export function backoffMs(attempt: number, policy: RetryPolicy, retryAfter: number | null, random: () => number = Math.random): number {
  if (retryAfter !== null) return retryAfter;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ProviderError('aborted', 'The request was cancelled'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ProviderError('aborted', 'The request was cancelled'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `attempt` again after retryable failures, as long as it has not produced anything
 * `isProgress` counts (a streamed text delta cannot be taken back, so after one the error
 * stands). Items before the failure are passed through as they come.
 */
export async function* withRetries<T>(
  attempt: (n: number) => AsyncIterable<T>,
  opts: { policy: RetryPolicy; signal?: AbortSignal | undefined; isProgress: (item: T) => boolean; onRetry?: (err: ProviderError, waitMs: number) => void },
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
      const e = err instanceof ProviderError ? err : new ProviderError('network', err instanceof Error ? err.message : String(err), { retryable: true, cause: err });
      if (progressed || !e.retryable || n >= opts.policy.retries || opts.signal?.aborted) throw e;
      const wait = backoffMs(n, opts.policy, e.retryAfterMs);
      if (wait > opts.policy.maxDelayMs) throw e; // "come back in a minute" is a failure for a live chat
      opts.onRetry?.(e, wait);
      await sleep(wait, opts.signal);
    }
  }
}

export interface HttpAttempt {
  status: number;
  headers: Headers;
  /** The body as it arrives; every chunk resets the idle timer. Stopping early cancels the request. */
  chunks(): AsyncIterable<Uint8Array>;
  /** The whole body as text, under the same idle timeout. */
  text(): Promise<string>;
  /**
   * The protocol's end was seen ([DONE], message_stop): stopping now is not a cancellation.
   * The last bytes are read in the background so the keep-alive socket can be reused.
   */
  complete(): void;
  /** Cancels the request unless it finished or is complete (idempotent). */
  close(): void;
}

/** How long the rest of a complete response may take to arrive before its socket is dropped. */
const DRAIN_GRACE_MS = 2_000;

/**
 * Keep-alive connections to providers: a chat's request reuses a warm socket (and TLS session)
 * instead of paying a handshake before its first token. Idle sockets do not hold the process.
 */
const agents = { 'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }), 'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }) };
/**
 * A separate pool for connections made through the private-address guard (tenant-chosen
 * `model.baseUrl`s): a guarded request never reuses a socket an unguarded one opened.
 */
const guardedAgents = { 'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }), 'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }) };

function headersOf(raw: http.IncomingHttpHeaders): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(raw)) {
    if (Array.isArray(v)) for (const x of v) h.append(k, x);
    else if (v !== undefined) h.set(k, v);
  }
  return h;
}

/**
 * One HTTP request whose every wait — connecting, the response head, each body chunk — is
 * bounded by `timeoutMs` of silence. A slow but steady stream is never cut; a stalled one is.
 * The caller's `signal` (client disconnect) cancels the request at once.
 *
 * node:http(s) rather than fetch: on loopback fetch adds ~0.5 ms before the first byte (WHATWG
 * streams, its own dispatcher), a tenth of the time-to-first-token budget; the protocols need
 * nothing fetch adds (no redirects, no compression is asked for).
 */
export function openRequest(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  opts: { timeoutMs: number; signal?: AbortSignal | undefined; lookup?: ConnectLookup | null | undefined },
): Promise<HttpAttempt> {
  return new Promise<HttpAttempt>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new ProviderError('aborted', 'The request was cancelled'));
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    let timedOut = false;
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    const failure = (err: unknown): ProviderError => {
      if (err instanceof ProviderError) return err;
      if (opts.signal?.aborted) return new ProviderError('aborted', 'The request was cancelled', { cause: err });
      if (timedOut) return new ProviderError('timeout', `No answer from the provider within ${opts.timeoutMs} ms`, { retryable: true, cause: err });
      const code = (err as { code?: string } | null)?.code;
      if (err instanceof BlockedAddressError) return new ProviderError('bad_request', modelGuardMessage(err.message), { cause: err });
      return new ProviderError('network', `Connection to the provider failed: ${code ?? (err instanceof Error ? err.message : String(err))}`, { retryable: true, cause: err });
    };
    const body = init.body ?? '';
    const req = client.request(target, {
      method: init.method,
      headers: { ...init.headers, 'content-length': String(Buffer.byteLength(body)) },
      // With a guard, the name is resolved (and judged) when the socket connects.
      ...(opts.lookup ? { lookup: opts.lookup, agent: guardedAgents[target.protocol as 'http:' | 'https:'] } : { agent: agents[target.protocol as 'http:' | 'https:'] }),
    });
    const kick = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        req.destroy(new Error('idle timeout'));
      }, opts.timeoutMs);
      timer.unref();
    };
    const onAbort = () => req.destroy(new Error('cancelled'));
    const cleanup = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    // Until a response exists the error rejects; afterwards it surfaces through the body.
    req.on('error', (err) => {
      cleanup();
      reject(failure(err));
    });
    req.on('response', (res) => {
      kick();
      // Pulled by hand: leaving a for-await over `res` early would destroy it, and the socket
      // with it, when the protocol has ended but the body's last bytes are still on the way.
      const body = res[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      let complete = false;
      const stop = () => {
        if (finished) return;
        if (!complete) {
          // Stopped early (enough text, a decline, the client left): cancel the generation.
          req.destroy();
          return;
        }
        const grace = setTimeout(() => req.destroy(), DRAIN_GRACE_MS);
        grace.unref();
        void (async () => {
          try {
            while (!(await body.next()).done);
          } catch {
            /* the socket went away: nothing to reuse */
          }
          clearTimeout(grace);
        })();
      };
      async function* chunks(): AsyncIterable<Uint8Array> {
        try {
          for (;;) {
            const { done, value } = await body.next();
            if (done) break;
            kick();
            yield value;
          }
          if (!res.complete) throw new Error('the connection closed before the response finished');
          finished = true;
        } catch (err) {
          throw failure(err);
        } finally {
          cleanup();
          stop();
        }
      }
      resolve({
        status: res.statusCode ?? 0,
        headers: headersOf(res.headers),
        chunks,
        async text() {
          const decoder = new TextDecoder();
          let out = '';
          for await (const c of chunks()) out += decoder.decode(c, { stream: true });
          return out + decoder.decode();
        },
        complete() {
          complete = true;
        },
        close() {
          cleanup();
          stop();
        },
      });
    });
    kick();
    req.end(body);
  });
}

/** The guarded `lookup` for a request to `base`, or null when exempt; a refused literal address is a non-retryable ProviderError. */
export function guardedLookupFor(guard: ModelUrlGuard, base: string): ConnectLookup | null {
  try {
    return guard.connectLookup(base);
  } catch (err) {
    throw new ProviderError('bad_request', `model.baseUrl ${modelGuardMessage(err instanceof Error ? err.message : String(err))}`, { cause: err });
  }
}

/** The provider's own error message from a JSON error body (OpenAI and Anthropic both use `error.message`). */
export function errorDetail(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown; type?: unknown } | string; message?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
    if (parsed.error && typeof parsed.error.message === 'string') return parsed.error.message;
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    /* not JSON */
  }
  const text = body.trim();
  return text ? text.slice(0, 300) : null;
}

/** Joins a base URL and a path, keeping the base's own path and query (`…/openai/v1?api-version=…`). */
export function joinUrl(base: string, path: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  return url.toString();
}

// Lives on the ground floor (config.ts needs it too); the providers import it from here.
export { sameBaseUrl } from '../../lib/base-url.js';
