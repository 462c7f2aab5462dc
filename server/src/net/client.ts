import net from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { BlockedAddressError, assertLiteralHostAllowed, guardedLookup, type ConnectLookup, type LookupAll } from './address-guard.js';

/**
 * The server's one outbound HTTP client (model providers, embeddings, webhook delivery, the page
 * fetcher), on undici: pooled keep-alive connections, the private-address guard at connect
 * time, timeouts for each phase, a body size cap, redirects only when asked, streamed bodies.
 *
 * Not fetch: fetch follows redirects and decompresses on its own, hides the socket's errors
 * behind "fetch failed", and costs ~0.5 ms before the first byte on loopback (WHATWG streams),
 * a tenth of the time-to-first-token budget. undici's own request API is the engine beneath it.
 *
 * A client is one connection pool with one address policy: a request through a guarded client
 * never reuses a socket an unguarded one opened.
 */

/** Response headers: lower-case names, a list for a header sent more than once. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

export type NetErrorKind =
  | 'timeout' // a phase took longer than its budget
  | 'network' // refused, reset, closed early, name not found, TLS
  | 'blocked' // the address guard refused the connection
  | 'too_large' // the body is over the cap
  | 'redirect' // too many redirects, or one to a URL that cannot be followed
  | 'invalid' // an answer that cannot be read (unknown content encoding, corrupt compression)
  | 'aborted'; // the caller's signal

export type TimeoutPhase = 'connect' | 'headers' | 'body' | 'total';

export class NetError extends Error {
  /** The system or undici error code (ECONNREFUSED, UND_ERR_SOCKET…), when there was one. */
  readonly code: string | null;
  /** Which budget ran out, for `timeout`. */
  readonly phase: TimeoutPhase | null;
  constructor(readonly kind: NetErrorKind, message: string, readonly url: string, opts: { code?: string | null; phase?: TimeoutPhase | null; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'NetError';
    this.code = opts.code ?? null;
    this.phase = opts.phase ?? null;
  }

  /** The guard's refusal, when that is what this is. */
  get blocked(): BlockedAddressError | null {
    return this.cause instanceof BlockedAddressError ? this.cause : null;
  }
}

export interface HttpClientOptions {
  /**
   * The private-address guard, applied when each connection is made (so a name that resolves to
   * a private address only now, DNS rebinding, is refused too): resolved names through
   * `guardedLookup`, IP literals (which skip name resolution) checked directly. `lookup` replaces
   * the guarded lookup (tests); literals are still checked. Absent: no guard (URLs the operator chose).
   */
  guard?: { allowPrivate: boolean; resolve?: LookupAll | undefined; lookup?: ConnectLookup | undefined } | undefined;
  /** Longest wait for a connection (TCP and TLS). Default 10 s. */
  connectTimeoutMs?: number | undefined;
  /** Connections per origin at most. Default: unbounded. */
  connectionsPerOrigin?: number | undefined;
}

export interface RedirectPolicy {
  /** Redirects followed at most; one more fails with `redirect`. */
  max: number;
  /** Called before following each hop (http(s) only, fragment removed); throws to refuse it. */
  check?: ((next: URL, from: string) => void) | undefined;
}

export interface HttpRequest {
  method?: Dispatcher.HttpMethod | undefined;
  headers?: Record<string, string> | undefined;
  body?: string | Uint8Array | undefined;
  signal?: AbortSignal | undefined;
  /** Longest wait for the response head, connecting included. Default: the total, else 300 s (after sending). */
  headersTimeoutMs?: number | undefined;
  /** Longest silence between two body chunks (a slow steady stream is never cut). Default: the total, else 300 s. */
  bodyTimeoutMs?: number | undefined;
  /** The whole exchange: connect, send, head, body (and every redirect hop). Default: none. */
  totalTimeoutMs?: number | undefined;
  /** Followed only when given (3xx with a Location); otherwise a 3xx is the response. */
  redirects?: RedirectPolicy | undefined;
}

export interface ReadOptions {
  /** The body's largest size (after decompression); past it `too_large`, or the cut when `truncate`. */
  maxBytes: number;
  truncate?: boolean | undefined;
  /** Undo Content-Encoding (gzip, deflate, br); the cap applies to the decoded bytes. */
  decompress?: boolean | undefined;
}

export interface HttpResponse {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  /** Lower-case names, as received. */
  headers: ResponseHeaders;
  /** Redirects followed to get here. */
  redirects: number;
  /** The first value of a header, or null. */
  header(name: string): string | null;
  /** The body as it arrives. Leaving the loop early cancels the request, unless `release`d first. */
  chunks(): AsyncIterable<Uint8Array>;
  /** The whole body, under the cap. */
  read(opts: ReadOptions): Promise<Buffer>;
  /** The whole body as UTF-8 text. */
  text(opts?: Partial<ReadOptions>): Promise<string>;
  /**
   * The protocol's end was seen ([DONE], message_stop): stopping now is not a cancellation. The
   * last bytes are read in the background so the keep-alive connection can be reused.
   */
  release(): void;
  /** The body is not wanted: a small one is drained (the connection is reused), a big one drops it. */
  discard(): void;
  /** Stops at once: an unfinished body drops the connection (the server sees the client go). Idempotent. */
  cancel(): void;
}

export interface HttpClient {
  request(url: string, req?: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

const DEFAULT_PHASE_TIMEOUT_MS = 300_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** How long the rest of a released body may take before its connection is dropped. */
const DRAIN_GRACE_MS = 2_000;
/** Bodies up to this size are read to the end when discarded, so the connection is reused. */
const DISCARD_DRAIN_BYTES = 64 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A connector that refuses blocked addresses when it connects: resolved names via the lookup, literals here. */
function guardedConnector(guard: NonNullable<HttpClientOptions['guard']>, timeout: number): buildConnector.connector {
  const lookup = guard.lookup ?? guardedLookup({ allowPrivate: guard.allowPrivate, ...(guard.resolve ? { resolve: guard.resolve } : {}) });
  const connect = buildConnector({ timeout, lookup: lookup as never });
  return (opts, callback) => {
    if (net.isIP(opts.hostname)) {
      try {
        assertLiteralHostAllowed(opts.hostname, guard.allowPrivate);
      } catch (err) {
        callback(err as Error, null);
        return;
      }
    }
    connect(opts, callback);
  };
}

export function createHttpClient(opts: HttpClientOptions = {}): HttpClient {
  const connectTimeoutMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const agent = new Agent({
    connect: opts.guard ? guardedConnector(opts.guard, connectTimeoutMs) : { timeout: connectTimeoutMs },
    ...(opts.connectionsPerOrigin ? { connections: opts.connectionsPerOrigin } : {}),
  });

  async function request(url: string, req: HttpRequest = {}): Promise<HttpResponse> {
    const exchange = startExchange(req);
    try {
      let current = url;
      for (let hop = 0; ; hop++) {
        const res = await once(current, req, exchange);
        const location = res.header('location');
        if (!req.redirects || !REDIRECT_STATUSES.has(res.status) || location === null) return { ...res, redirects: hop };
        res.discard();
        if (hop >= req.redirects.max) throw new NetError('redirect', `more than ${req.redirects.max} redirects from ${url}`, url);
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          throw new NetError('redirect', `${current} redirects to an invalid URL`, current);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new NetError('redirect', `${current} redirects to a ${next.protocol} URL`, current);
        next.hash = '';
        req.redirects.check?.(next, current);
        current = next.href;
      }
    } catch (err) {
      exchange.end();
      throw err;
    }
  }

  async function once(url: string, req: HttpRequest, exchange: Exchange): Promise<Omit<HttpResponse, 'redirects'>> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new NetError('invalid', `${url} is not a URL`, url);
    }
    if (exchange.signal.aborted) throw exchange.failure(exchange.signal.reason, url);
    const phase = req.totalTimeoutMs ?? DEFAULT_PHASE_TIMEOUT_MS;
    // The head's budget starts now, not once a connection is there: connecting counts (undici's
    // own headersTimeout starts when the request is written).
    const headTimer = req.headersTimeoutMs === undefined ? null : exchange.deadline('headers', req.headersTimeoutMs);
    let data: Dispatcher.ResponseData;
    try {
      data = await agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: req.method ?? 'GET',
        headers: req.headers ?? {},
        body: req.body ?? null,
        signal: exchange.signal,
        headersTimeout: req.headersTimeoutMs ?? phase,
        bodyTimeout: req.bodyTimeoutMs ?? phase,
      });
    } catch (err) {
      throw exchange.failure(err, url);
    } finally {
      if (headTimer) clearTimeout(headTimer);
    }
    return respond(url, data, exchange);
  }

  return {
    request,
    async close() {
      await agent.destroy();
    },
  };
}

/** One request's shared state across its hops: the combined abort signal and its deadlines. */
interface Exchange {
  signal: AbortSignal;
  /** Aborts the exchange as a `phase` timeout after `ms`; clear the returned timer to call it off. */
  deadline(phase: TimeoutPhase, ms: number): NodeJS.Timeout;
  /** An error of this exchange as a NetError (a timeout when a deadline passed, aborted when the caller left). */
  failure(err: unknown, url: string): NetError;
  /** Clears the total timer and the listener on the caller's signal. */
  end(): void;
}

/** The abort reason of a deadline the client set (not the caller's). */
class Deadline {
  constructor(readonly phase: TimeoutPhase, readonly ms: number) {}
}

function startExchange(req: HttpRequest): Exchange {
  const controller = new AbortController();
  const onAbort = () => controller.abort(req.signal?.reason);
  if (req.signal?.aborted) controller.abort(req.signal.reason);
  else req.signal?.addEventListener('abort', onAbort, { once: true });
  const deadline = (phase: TimeoutPhase, ms: number): NodeJS.Timeout => {
    const timer = setTimeout(() => controller.abort(new Deadline(phase, ms)), ms);
    timer.unref();
    return timer;
  };
  const total = req.totalTimeoutMs === undefined ? undefined : deadline('total', req.totalTimeoutMs);
  return {
    signal: controller.signal,
    deadline,
    failure(err, url) {
      if (err instanceof NetError) return err;
      if (controller.signal.aborted) {
        const reason: unknown = controller.signal.reason;
        if (reason instanceof Deadline) return new NetError('timeout', `${url} did not answer within ${reason.ms} ms`, url, { phase: reason.phase, cause: err });
        return new NetError('aborted', 'the request was cancelled', url, { cause: err });
      }
      return netError(err, url);
    },
    end() {
      clearTimeout(total);
      req.signal?.removeEventListener('abort', onAbort);
    },
  };
}

const TIMEOUT_CODES: Record<string, TimeoutPhase> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

/** A transport error as a NetError: the guard's refusal, a timeout of one phase, or a network failure. */
function netError(err: unknown, url: string): NetError {
  if (err instanceof BlockedAddressError) return new NetError('blocked', err.message, url, { code: err.code, cause: err });
  const code = (err as { code?: unknown } | null)?.code;
  const codeText = typeof code === 'string' ? code : null;
  const message = err instanceof Error ? err.message : String(err);
  const phase = codeText ? TIMEOUT_CODES[codeText] : undefined;
  if (phase) return new NetError('timeout', `${url}: no ${phase === 'body' ? 'body data' : phase === 'headers' ? 'response' : 'connection'} in time`, url, { code: codeText, phase, cause: err });
  return new NetError('network', message || codeText || 'network error', url, { code: codeText, cause: err });
}

function respond(url: string, data: Dispatcher.ResponseData, exchange: Exchange): Omit<HttpResponse, 'redirects'> {
  const body = data.body as Readable & { dump(opts?: { limit: number }): Promise<void> };
  const headers = data.headers as ResponseHeaders;
  // A body nobody reads can still fail (the deadline, the caller's abort): not an uncaught error.
  // Readers get failures through their iterator all the same.
  body.on('error', () => {});
  let settled = false; // read to the end, released, discarded or cancelled
  const settle = () => {
    settled = true;
    exchange.end();
  };
  const header = (name: string): string | null => {
    const v = headers[name.toLowerCase()];
    return (Array.isArray(v) ? v[0] : v) ?? null;
  };
  const cancel = () => {
    if (settled) return;
    settle();
    body.destroy();
  };

  /** The body's iterator once `chunks` started: a released body is drained through it. */
  let iterator: AsyncIterator<Buffer> | null = null;

  async function* chunks(): AsyncIterable<Uint8Array> {
    // Pulled by hand: leaving a for-await over the body early would destroy it, and its
    // connection, even after `release` (the protocol ended, the last bytes still on the way).
    const it = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    iterator = it;
    let done = false;
    try {
      for (;;) {
        const next = await it.next();
        if (next.done) break;
        yield next.value;
      }
      done = true;
      settle();
    } catch (err) {
      throw exchange.failure(err, url);
    } finally {
      if (!done) cancel();
    }
  }

  async function read(opts: ReadOptions): Promise<Buffer> {
    const encoding = String(header('content-encoding') ?? 'identity').trim().toLowerCase() || 'identity';
    const declared = Number(header('content-length'));
    if (!opts.truncate && (encoding === 'identity' || !opts.decompress) && Number.isFinite(declared) && declared > opts.maxBytes) {
      cancel();
      throw new NetError('too_large', `${url} is larger than ${formatBytes(opts.maxBytes)}`, url);
    }
    let stream: Readable = body;
    if (opts.decompress && encoding !== 'identity') {
      const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip()
        : encoding === 'deflate' ? zlib.createInflate()
          : encoding === 'br' ? zlib.createBrotliDecompress() : null;
      if (!decoder) {
        cancel();
        throw new NetError('invalid', `${url} uses an unsupported content encoding (${encoding})`, url);
      }
      body.on('error', (err) => decoder.destroy(err));
      stream = body.pipe(decoder);
    }
    const parts: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > opts.maxBytes) {
          if (!opts.truncate) throw new NetError('too_large', `${url} is larger than ${formatBytes(opts.maxBytes)}`, url);
          parts.push(chunk.subarray(0, chunk.length - (size - opts.maxBytes)));
          break;
        }
        parts.push(chunk);
      }
    } catch (err) {
      const zlibError = typeof (err as { code?: unknown }).code === 'string' && (err as { code: string }).code.startsWith('Z_');
      cancel();
      if (zlibError) throw new NetError('invalid', `${url}: could not decode the ${encoding} body`, url, { cause: err });
      throw exchange.failure(err, url);
    }
    if (stream !== body) stream.destroy();
    if (body.readableEnded) settle();
    else cancel(); // cut at the cap
    return Buffer.concat(parts);
  }

  return {
    url,
    status: data.statusCode,
    headers,
    header,
    chunks,
    read,
    async text(opts = {}) {
      return (await read({ maxBytes: opts.maxBytes ?? Number.MAX_SAFE_INTEGER, truncate: opts.truncate, decompress: opts.decompress })).toString('utf8');
    },
    release() {
      if (settled) return;
      settle();
      const grace = setTimeout(() => body.destroy(), DRAIN_GRACE_MS);
      grace.unref();
      const it = iterator;
      void (async () => {
        try {
          if (it) while (!(await it.next()).done);
          else await body.dump({ limit: Number.MAX_SAFE_INTEGER });
        } catch {
          /* the connection went away: nothing to reuse */
        }
        clearTimeout(grace);
      })();
    },
    discard() {
      if (settled) return;
      settle();
      body.on('error', () => {});
      void body.dump({ limit: DISCARD_DRAIN_BYTES }).catch(() => undefined);
    },
    cancel,
  };
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) ? 1 : 0)} MiB` : `${Math.round(n / 1024)} KiB`;
}
