import { parseRetryAfter } from './backoff.js';
import { NetError, type HttpClient, type HttpResponse } from './client.js';
import type { RetryPolicy } from './retry.js';

/**
 * Calling a model provider's HTTP API (chat completions, messages, embeddings): typed provider
 * errors, what a non-2xx answer means, and one request whose every wait (connecting, the
 * response head, each body chunk) is bounded by `timeoutMs` of silence. Shared by the chat
 * providers (answer/providers) and the embeddings client (knowledge/embeddings).
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
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    opts: { status?: number | null; retryable?: boolean; retryAfterMs?: number | null; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ProviderError';
    this.status = opts.status ?? null;
    this.retryable = opts.retryable ?? false;
    this.retryAfterMs = opts.retryAfterMs ?? null;
  }
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 500, maxDelayMs: 8_000 };
export const DEFAULT_TIMEOUT_MS = 30_000;

/** What the retry loop makes of any failure: a ProviderError as is, anything else a retryable network error. */
export const asProviderError = (err: unknown): ProviderError =>
  err instanceof ProviderError
    ? err
    : new ProviderError('network', err instanceof Error ? err.message : String(err), { retryable: true, cause: err });

export const cancelledError = (): ProviderError => new ProviderError('aborted', 'The request was cancelled');

/** `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(header: (name: string) => string | null, nowMs = Date.now()): number | null {
  const msText = header('retry-after-ms');
  const ms = Number(msText);
  if (msText !== null && msText.trim() !== '' && Number.isFinite(ms) && ms >= 0) return ms;
  return parseRetryAfter(header('retry-after'), nowMs);
}

/** The error for a non-2xx answer; `detail` is the provider's own message when it gave one. */
export function statusError(status: number, header: (name: string) => string | null, detail: string | null): ProviderError {
  const text = `HTTP ${status}${detail ? `: ${detail.slice(0, 300)}` : ''}`;
  const shouldRetry = header('x-should-retry'); // OpenAI's explicit hint wins
  const retryAfter = retryAfterMs(header);
  const make = (code: ProviderErrorCode, retryable: boolean) =>
    new ProviderError(code, text, {
      status,
      retryable: shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : retryable,
      retryAfterMs: retryAfter,
    });
  if (status === 429) return make('rate_limited', true);
  if (status === 408) return make('timeout', true);
  if (status === 409) return make('upstream', true); // lock/conflict on the provider side: transient
  if (status === 401 || status === 403) return make('auth', false);
  if (status >= 500) return make('upstream', true); // includes Anthropic's 529 overloaded
  return make('bad_request', false);
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

export interface ProviderResponse {
  status: number;
  header(name: string): string | null;
  /** The body as it arrives; every chunk must come within timeoutMs of the last. Stopping early cancels the request. */
  chunks(): AsyncIterable<Uint8Array>;
  /** The whole body as text, under the same silence bound. */
  text(): Promise<string>;
  /** The protocol's end was seen ([DONE], message_stop): the rest is read in the background, the connection reused. */
  complete(): void;
  /** Cancels the request unless it finished or is complete (idempotent). */
  close(): void;
}

/**
 * One POST to a provider: every wait bounded by `timeoutMs` of silence (the client's connect
 * timeout is the same bound), so a slow but steady stream is never cut and a stalled one is.
 * The caller's `signal` (the chat client went away) cancels it at once. Transport failures come
 * back as ProviderErrors; a refusal of the address guard is a non-retryable `bad_request`
 * whose message ends with `blockedHint`.
 */
export async function providerRequest(
  client: HttpClient,
  url: string,
  init: { headers: Record<string, string>; body: string },
  opts: { timeoutMs: number; signal?: AbortSignal | undefined; blockedHint?: string | undefined },
): Promise<ProviderResponse> {
  const failure = (err: unknown): ProviderError => {
    if (!(err instanceof NetError)) return asProviderError(err);
    const blocked = err.blocked;
    if (blocked)
      return new ProviderError('bad_request', opts.blockedHint ? blocked.withHint(opts.blockedHint) : blocked.message, { cause: err });
    if (err.kind === 'aborted') return new ProviderError('aborted', 'The request was cancelled', { cause: err });
    if (err.kind === 'timeout')
      return new ProviderError('timeout', `No answer from the provider within ${opts.timeoutMs} ms`, { retryable: true, cause: err });
    return new ProviderError('network', `Connection to the provider failed: ${err.code ?? err.message}`, { retryable: true, cause: err });
  };
  let res: HttpResponse;
  try {
    res = await client.request(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal: opts.signal,
      headersTimeoutMs: opts.timeoutMs,
      bodyTimeoutMs: opts.timeoutMs,
    });
  } catch (err) {
    throw failure(err);
  }
  async function* chunks(): AsyncIterable<Uint8Array> {
    try {
      yield* res.chunks();
    } catch (err) {
      throw failure(err);
    }
  }
  return {
    status: res.status,
    header: res.header,
    chunks,
    async text() {
      const decoder = new TextDecoder();
      let out = '';
      for await (const c of chunks()) out += decoder.decode(c, { stream: true });
      return out + decoder.decode();
    },
    complete: () => res.release(),
    close: () => res.cancel(),
  };
}

/** Joins a base URL and a path, keeping the base's own path and query (`…/openai/v1?api-version=…`). */
export function joinUrl(base: string, path: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  return url.toString();
}
