import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { NetError } from './errors.js';
import type { Exchange } from './exchange.js';

/** Response headers: lower-case names, a list for a header sent more than once. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

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

/** How long the rest of a released body may take before its connection is dropped. */
const DRAIN_GRACE_MS = 2_000;
/** Bodies up to this size are read to the end when discarded, so the connection is reused. */
const DISCARD_DRAIN_BYTES = 64 * 1024;

/** A response of the client: its head, and its body to stream, read under a cap, release, discard or cancel. */
export function respond(url: string, data: Dispatcher.ResponseData, exchange: Exchange): Omit<HttpResponse, 'redirects'> {
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
    const encoding =
      String(header('content-encoding') ?? 'identity')
        .trim()
        .toLowerCase() || 'identity';
    const declared = Number(header('content-length'));
    if (!opts.truncate && (encoding === 'identity' || !opts.decompress) && Number.isFinite(declared) && declared > opts.maxBytes) {
      cancel();
      throw new NetError('too_large', `${url} is larger than ${formatBytes(opts.maxBytes)}`, url);
    }
    let stream: Readable = body;
    if (opts.decompress && encoding !== 'identity') {
      const decoder =
        encoding === 'gzip' || encoding === 'x-gzip'
          ? zlib.createGunzip()
          : encoding === 'deflate'
            ? zlib.createInflate()
            : encoding === 'br'
              ? zlib.createBrotliDecompress()
              : null;
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
      return (
        await read({ maxBytes: opts.maxBytes ?? Number.MAX_SAFE_INTEGER, truncate: opts.truncate, decompress: opts.decompress })
      ).toString('utf8');
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
