import type dns from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { BlockedAddressError, assertLiteralHostAllowed, bareHost, guardedLookup, webhookUrlProblem, type ConnectLookup } from '../../webhooks/ssrf.js';

/**
 * Fetching web pages for knowledge bases over node:http(s). Every connection goes through the
 * address guard of `webhooks/ssrf.ts` (the `lookup` refuses private answers at connect time,
 * literal addresses are checked before connecting), and so does every redirect hop, robots.txt
 * and sitemap: all of them come through here.
 */

export type FetchErrorKind = 'network' | 'timeout' | 'blocked' | 'too_large' | 'redirect' | 'off_origin' | 'aborted' | 'invalid';

export class FetchError extends Error {
  constructor(message: string, readonly kind: FetchErrorKind, readonly url: string) {
    super(message);
  }

  /** Worth trying again later: the network or the site may recover. */
  get transient(): boolean {
    return this.kind === 'network' || this.kind === 'timeout';
  }
}

export interface FetchResult {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** `text/html`, lower case, without parameters; '' when the server sent none. */
  mime: string;
  /** The `charset` parameter of Content-Type, if any. */
  charset: string | null;
  /** Decoded (gunzipped…) body; null when not read (not 2xx, or a type the caller does not accept). */
  body: Buffer | null;
  redirects: number;
}

export interface FetcherOptions {
  /** Lets fetches reach loopback/private addresses (FETCH_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** `User-Agent` header, e.g. `ParleyBot/1.0 (+https://parley.example)`. */
  userAgent: string;
  /** Whole-request budget: connect, headers and body. */
  timeoutMs?: number;
  /** Largest body (after decompression) read; bigger answers fail with `too_large`. */
  maxBytes?: number;
  maxRedirects?: number;
  /** Name resolution (tests: a fake DNS); the guard still judges its answers. */
  resolve?: (hostname: string, options: dns.LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => void;
  /** Replaces the guarded lookup entirely (tests only). */
  lookup?: ConnectLookup;
}

export interface FetchRequest {
  signal?: AbortSignal | undefined;
  accept?: string | undefined;
  /** Only read bodies of these types (others come back with `body: null`). */
  acceptMime?: ((mime: string) => boolean) | undefined;
  /** Redirects must stay on the requested URL's origin (crawls); else `off_origin`. */
  sameOrigin?: boolean | undefined;
  /** Overrides the fetcher's limit for this request. */
  maxBytes?: number | undefined;
  /** false: a redirect comes back as the result (status 3xx, `headers.location`) instead of being followed. */
  followRedirects?: boolean | undefined;
  /** Cut the body at maxBytes instead of failing (robots.txt: the first 500 KiB count). */
  truncate?: boolean | undefined;
}

export interface Fetcher {
  fetch(url: string, req?: FetchRequest): Promise<FetchResult>;
  /** The problem with a URL given by a user, before any fetch (null when fine). */
  urlProblem(url: string): string | null;
  close(): void;
}

const REDIRECT = new Set([301, 302, 303, 307, 308]);

/** The guard's messages name the webhook setting; fetches have their own. */
export const fetchGuardMessage = (message: string): string => message.replaceAll('WEBHOOK_ALLOW_PRIVATE', 'FETCH_ALLOW_PRIVATE');

export function createFetcher(opts: FetcherOptions): Fetcher {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const maxBytes = opts.maxBytes ?? 10 * 1024 * 1024;
  const maxRedirects = opts.maxRedirects ?? 5;
  const lookup = opts.lookup ?? guardedLookup({ allowPrivate: opts.allowPrivate, ...(opts.resolve ? { resolve: opts.resolve } : {}) });
  // Keep-alive: a crawl makes many requests to one origin.
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 8, maxFreeSockets: 4, timeout: timeoutMs }),
    https: new https.Agent({ keepAlive: true, maxSockets: 8, maxFreeSockets: 4, timeout: timeoutMs }),
  };

  const urlProblem = (url: string): string | null => {
    const problem = webhookUrlProblem(url, opts.allowPrivate);
    return problem ? fetchGuardMessage(problem) : null;
  };

  async function fetchUrl(start: string, req: FetchRequest = {}): Promise<FetchResult> {
    const deadline = Date.now() + timeoutMs;
    const origin = new URL(start).origin;
    let current = start;
    for (let hop = 0; ; hop++) {
      const problem = urlProblem(current);
      if (problem) throw new FetchError(`${current} ${problem}`, problem.includes('ALLOW_PRIVATE') ? 'blocked' : 'invalid', current);
      const res = await requestOnce(current, req, deadline);
      if (REDIRECT.has(res.status) && res.location !== null && req.followRedirects !== false) {
        if (hop >= maxRedirects) throw new FetchError(`more than ${maxRedirects} redirects from ${start}`, 'redirect', start);
        let next: URL;
        try {
          next = new URL(res.location, current);
        } catch {
          throw new FetchError(`${current} redirects to an invalid URL`, 'redirect', current);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new FetchError(`${current} redirects to a ${next.protocol} URL`, 'redirect', current);
        next.hash = '';
        if (req.sameOrigin && next.origin !== origin) throw new FetchError(`${current} redirects off the site, to ${next.href}`, 'off_origin', next.href);
        current = next.href;
        continue;
      }
      return { ...res.result, redirects: hop };
    }
  }

  function requestOnce(url: string, req: FetchRequest, deadline: number): Promise<{ status: number; location: string | null; result: Omit<FetchResult, 'redirects'> }> {
    const u = new URL(url);
    try {
      assertLiteralHostAllowed(u.hostname, opts.allowPrivate);
    } catch (err) {
      throw new FetchError(fetchGuardMessage((err as Error).message), 'blocked', url);
    }
    const limit = req.maxBytes ?? maxBytes;
    const secure = u.protocol === 'https:';
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (err: FetchError): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        reject(err);
      };
      const done = (value: { status: number; location: string | null; result: Omit<FetchResult, 'redirects'> }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      };
      const request = (secure ? https : http).request({
        protocol: u.protocol,
        hostname: bareHost(u.hostname),
        port: u.port || undefined,
        path: `${u.pathname}${u.search}`,
        method: 'GET',
        agent: secure ? agents.https : agents.http,
        lookup: lookup as unknown as http.RequestOptions['lookup'],
        headers: {
          'user-agent': opts.userAgent,
          accept: req.accept ?? 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,text/markdown;q=0.8,*/*;q=0.1',
          'accept-encoding': 'gzip, deflate, br',
          'accept-language': 'en;q=0.9, *;q=0.5',
        },
      });
      const remaining = Math.max(1, deadline - Date.now());
      const timer = setTimeout(() => fail(new FetchError(`${url} did not answer within ${timeoutMs / 1000} s`, 'timeout', url)), remaining);
      // The error listener first: failing destroys the request, and its "socket hang up" would
      // otherwise be an uncaught exception (a signal already aborted fails it at once, below).
      request.on('error', (err: NodeJS.ErrnoException) => {
        if (err instanceof BlockedAddressError || err.code === 'ERR_WEBHOOK_BLOCKED_ADDRESS') fail(new FetchError(fetchGuardMessage(err.message), 'blocked', url));
        else fail(new FetchError(`${url}: ${describeNetworkError(err)}`, 'network', url));
      });
      const onAbort = (): void => fail(new FetchError('fetch cancelled', 'aborted', url));
      if (req.signal?.aborted) { onAbort(); return; }
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = (): void => req.signal?.removeEventListener('abort', onAbort);
      request.on('close', cleanup);
      request.on('response', (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const { mime, charset } = parseContentType(res.headers['content-type']);
        const head = { url, status, headers: res.headers, mime, charset };
        // Bodies we do not read: drained when small (the socket can be reused), else dropped.
        const discard = (): void => {
          res.on('error', () => {});
          if (Number(res.headers['content-length'] ?? Infinity) <= 64 * 1024) res.resume();
          else request.destroy();
        };
        if (REDIRECT.has(status) && typeof res.headers.location === 'string') {
          discard();
          done({ status, location: res.headers.location, result: { ...head, body: null } });
          return;
        }
        if (status < 200 || status > 299 || (req.acceptMime && !req.acceptMime(mime))) {
          discard();
          done({ status, location: null, result: { ...head, body: null } });
          return;
        }
        const declared = Number(res.headers['content-length']);
        const encoding = String(res.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
        if (!req.truncate && encoding === 'identity' && Number.isFinite(declared) && declared > limit) {
          fail(new FetchError(`${url} is larger than ${formatBytes(limit)}`, 'too_large', url));
          return;
        }
        let stream: Readable = res;
        if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
        else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
        else if (encoding === 'br') stream = res.pipe(zlib.createBrotliDecompress());
        else if (encoding !== 'identity' && encoding !== '') {
          fail(new FetchError(`${url} uses an unsupported content encoding (${encoding})`, 'invalid', url));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          if (size > limit) {
            if (req.truncate) {
              chunks.push(chunk.subarray(0, chunk.length - (size - limit)));
              if (stream !== res) stream.destroy();
              done({ status, location: null, result: { ...head, body: Buffer.concat(chunks) } });
              request.destroy();
              return;
            }
            fail(new FetchError(`${url} is larger than ${formatBytes(limit)}`, 'too_large', url));
            if (stream !== res) stream.destroy();
            return;
          }
          chunks.push(chunk);
        });
        stream.on('error', (err: NodeJS.ErrnoException) => {
          const zlibError = typeof err.code === 'string' && err.code.startsWith('Z_');
          fail(new FetchError(`${url}: ${zlibError ? `could not decode the ${encoding} body` : describeNetworkError(err)}`, zlibError ? 'invalid' : 'network', url));
        });
        res.on('close', () => {
          if (!res.complete) fail(new FetchError(`${url}: the connection closed before the body ended`, 'network', url));
        });
        stream.on('end', () => done({ status, location: null, result: { ...head, body: Buffer.concat(chunks) } }));
      });
      request.end();
    });
  }

  return {
    fetch: fetchUrl,
    urlProblem,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

function describeNetworkError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOTFOUND': case 'EAI_AGAIN': return 'the host name does not resolve';
    case 'ECONNREFUSED': return 'connection refused';
    case 'ECONNRESET': return 'connection reset';
    case 'ETIMEDOUT': return 'connection timed out';
    case 'EHOSTUNREACH': case 'ENETUNREACH': return 'host unreachable';
    default:
      if (err.code?.startsWith('ERR_TLS') || /certificate|SSL|TLS/i.test(err.message)) return `TLS error (${err.message})`;
      return err.message || String(err.code ?? 'network error');
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) ? 1 : 0)} MiB` : `${Math.round(n / 1024)} KiB`;
}

export function parseContentType(value: string | undefined): { mime: string; charset: string | null } {
  if (!value) return { mime: '', charset: null };
  const [type = '', ...params] = value.split(';');
  let charset: string | null = null;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p);
    if (m?.[1]) charset = m[1];
  }
  return { mime: type.trim().toLowerCase(), charset };
}

/**
 * Bytes → text: a byte-order mark wins, then the header's charset, then (HTML) a
 * `<meta charset>` in the first 4 KiB, then UTF-8 when the bytes are valid UTF-8, else
 * windows-1252 (what browsers use for undeclared latin-1). Unknown labels fall through.
 */
export function decodeBody(body: Buffer, mime: string, headerCharset: string | null): string {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return new TextDecoder('utf-8').decode(body.subarray(3));
  if (body[0] === 0xff && body[1] === 0xfe) return new TextDecoder('utf-16le').decode(body.subarray(2));
  if (body[0] === 0xfe && body[1] === 0xff) return new TextDecoder('utf-16be').decode(body.subarray(2));
  const labels = [headerCharset];
  if (mime === 'text/html' || mime === 'application/xhtml+xml' || mime === '') labels.push(sniffMetaCharset(body.subarray(0, 4096).toString('latin1')));
  for (const label of labels) {
    if (!label) continue;
    try {
      // A page declaring UTF-16 in a meta is ASCII-compatible by definition: browsers read UTF-8.
      const decoder = new TextDecoder(/^utf-?16/i.test(label) ? 'utf-8' : label.trim());
      return decoder.encoding === 'windows-1252' ? decodeWindows1252(body) : decoder.decode(body);
    } catch {
      /* unknown label: try the next clue */
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return decodeWindows1252(body);
  }
}

/** 0x80-0x9F in windows-1252 (WHATWG index); the other bytes are their own code points. */
const CP1252_C1 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/**
 * windows-1252 (what `latin1`/`iso-8859-1` labels mean on the web). Not TextDecoder: Node
 * 20.18.3+ decodes it as ISO-8859-1, turning € and curly quotes into C1 controls (nodejs/node#60888).
 */
function decodeWindows1252(body: Buffer): string {
  return body.toString('latin1').replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(CP1252_C1[c.charCodeAt(0) - 0x80] as number));
}

function sniffMetaCharset(head: string): string | null {
  const direct = /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return direct?.[1] ?? null;
}
