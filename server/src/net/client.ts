import net from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { assertLiteralHostAllowed, guardedLookup, type ConnectLookup, type LookupAll } from './address-guard.js';
import { NetError } from './errors.js';
import { startExchange, type Exchange } from './exchange.js';
import { respond, type HttpResponse } from './response.js';

export { NetError, type NetErrorKind, type TimeoutPhase } from './errors.js';
export type { HttpResponse, ReadOptions, ResponseHeaders } from './response.js';

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

export interface HttpClient {
  request(url: string, req?: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

const DEFAULT_PHASE_TIMEOUT_MS = 300_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
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
        if (next.protocol !== 'http:' && next.protocol !== 'https:')
          throw new NetError('redirect', `${current} redirects to a ${next.protocol} URL`, current);
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
