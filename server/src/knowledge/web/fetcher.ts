import { describeUrlProblem, outboundUrlProblem, type ConnectLookup, type LookupAll } from '../../net/address-guard.js';
import { NetError, createHttpClient, type HttpResponse, type ResponseHeaders } from '../../net/client.js';

/**
 * Fetching web pages for knowledge bases, through the outbound client of net/: every connection
 * goes through its address guard (names resolved and judged at connect time, literals checked
 * before connecting), and every redirect hop is checked here before it is followed; robots.txt
 * and sitemaps come through here too.
 */

export type FetchErrorKind = 'network' | 'timeout' | 'blocked' | 'too_large' | 'redirect' | 'off_origin' | 'aborted' | 'invalid';

export class FetchError extends Error {
  constructor(
    message: string,
    readonly kind: FetchErrorKind,
    readonly url: string,
  ) {
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
  headers: ResponseHeaders;
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
  resolve?: LookupAll | undefined;
  /** Replaces the guarded lookup entirely (tests only); IP literals are still checked. */
  lookup?: ConnectLookup | undefined;
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

/** What the guard's refusals tell the operator of a fetch. */
export const FETCH_PRIVATE_HINT = 'set FETCH_ALLOW_PRIVATE=true to allow';

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,text/markdown;q=0.8,*/*;q=0.1';

export function createFetcher(opts: FetcherOptions): Fetcher {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const maxBytes = opts.maxBytes ?? 10 * 1024 * 1024;
  const maxRedirects = opts.maxRedirects ?? 5;
  // Keep-alive: a crawl makes many requests to one origin.
  const client = createHttpClient({
    guard: { allowPrivate: opts.allowPrivate, resolve: opts.resolve, lookup: opts.lookup },
    connectTimeoutMs: timeoutMs,
    connectionsPerOrigin: 8,
  });

  const urlProblem = (url: string): string | null => {
    const problem = outboundUrlProblem(url, opts.allowPrivate);
    return problem ? describeUrlProblem(problem, FETCH_PRIVATE_HINT) : null;
  };
  /** The first URL and every redirect hop, before connecting to it. */
  const checkUrl = (url: string): void => {
    const problem = outboundUrlProblem(url, opts.allowPrivate);
    if (problem)
      throw new FetchError(`${url} ${describeUrlProblem(problem, FETCH_PRIVATE_HINT)}`, problem.blocked ? 'blocked' : 'invalid', url);
  };

  async function fetchUrl(start: string, req: FetchRequest = {}): Promise<FetchResult> {
    const origin = new URL(start).origin;
    checkUrl(start);
    let res: HttpResponse;
    try {
      res = await client.request(start, {
        headers: {
          'user-agent': opts.userAgent,
          accept: req.accept ?? ACCEPT,
          'accept-encoding': 'gzip, deflate, br',
          'accept-language': 'en;q=0.9, *;q=0.5',
        },
        signal: req.signal,
        totalTimeoutMs: timeoutMs, // the whole fetch, every hop and the body
        redirects:
          req.followRedirects === false
            ? undefined
            : {
                max: maxRedirects,
                check(next, from) {
                  if (req.sameOrigin && next.origin !== origin)
                    throw new FetchError(`${from} redirects off the site, to ${next.href}`, 'off_origin', next.href);
                  checkUrl(next.href);
                },
              },
      });
    } catch (err) {
      throw fetchError(err, start, timeoutMs);
    }
    const { mime, charset } = parseContentType(res.header('content-type') ?? undefined);
    const head = { url: res.url, status: res.status, headers: res.headers, mime, charset, redirects: res.redirects };
    // Redirects not followed, failures and types the caller does not read come back without a body.
    if (res.status < 200 || res.status > 299 || (req.acceptMime && !req.acceptMime(mime))) {
      res.discard();
      return { ...head, body: null };
    }
    try {
      return { ...head, body: await res.read({ maxBytes: req.maxBytes ?? maxBytes, truncate: req.truncate, decompress: true }) };
    } catch (err) {
      throw fetchError(err, res.url, timeoutMs);
    }
  }

  return {
    fetch: fetchUrl,
    urlProblem,
    close() {
      void client.close();
    },
  };
}

/** A failure of the client as the fetcher's error, with the fetcher's wording. */
function fetchError(err: unknown, url: string, timeoutMs: number): FetchError {
  if (err instanceof FetchError) return err;
  if (!(err instanceof NetError)) return new FetchError(`${url}: ${err instanceof Error ? err.message : String(err)}`, 'network', url);
  const blocked = err.blocked;
  if (blocked) return new FetchError(blocked.withHint(FETCH_PRIVATE_HINT), 'blocked', err.url);
  switch (err.kind) {
    case 'timeout':
      return new FetchError(`${err.url} did not answer within ${timeoutMs / 1000} s`, 'timeout', err.url);
    case 'aborted':
      return new FetchError('fetch cancelled', 'aborted', err.url);
    case 'too_large':
    case 'redirect':
    case 'invalid':
      return new FetchError(err.message, err.kind, err.url);
    default:
      return new FetchError(`${err.url}: ${describeNetworkError(err)}`, 'network', err.url);
  }
}

function describeNetworkError(err: NetError): string {
  switch (err.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    case 'UND_ERR_SOCKET':
      return 'the connection closed before the answer ended';
    default:
      if (err.code?.startsWith('ERR_TLS') || /certificate|SSL|TLS/i.test(err.message)) return `TLS error (${err.message})`;
      return err.message || String(err.code ?? 'network error');
  }
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
  if (mime === 'text/html' || mime === 'application/xhtml+xml' || mime === '')
    labels.push(sniffMetaCharset(body.subarray(0, 4096).toString('latin1')));
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
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
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
