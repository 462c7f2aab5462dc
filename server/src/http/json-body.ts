import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { AppError } from './errors.js';

/**
 * The JSON body parser of every API route (docs/api-spec.md §1). body-parser's own `json()` is not used
 * because it cannot be told to refuse what it silently accepts or chokes on:
 * - invalid UTF-8 (it decodes lossily: bytes become U+FFFD and the request "succeeds");
 * - nesting thousands of levels deep (JSON.parse copes, but every recursive walk after it —
 *   zod, JSON.stringify in a size check — overflows the stack: a 500);
 * - a body labelled `Content-Encoding: gzip|deflate|br` that is not (the zlib error had no
 *   body-parser type and became a 500).
 * So body-parser only reads the raw bytes (size limit, inflation) and this module decides.
 */

/** Deepest nesting of arrays/objects accepted in a JSON body; deeper bodies are refused with 400. */
export const MAX_JSON_DEPTH = 32;

export const JSON_TYPES = ['application/json', 'application/*+json'];

export interface JsonBodyOptions {
  limitBytes: number;
  maxDepth?: number;
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest array/object nesting of a JSON text, found by one linear pass over its bytes (no
 * recursion, no parse): brackets inside strings do not count, escapes inside strings are
 * skipped. Stops as soon as `limit` is passed and returns that depth. Multi-byte UTF-8 never
 * contains bytes below 0x80, so scanning bytes is the same as scanning characters.
 */
export function jsonDepth(bytes: Uint8Array, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
      continue;
    }
    if (b === QUOTE) inString = true;
    else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) depth--;
  }
  return max;
}

const invalid = (message: string): AppError => new AppError('validation_error', message);
const MALFORMED = 'Malformed JSON in request body';

/** The `charset` parameter of a Content-Type, lower case, or null. */
function charsetOf(contentType: string | undefined): string | null {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return m ? (m[1] as string).toLowerCase() : null;
}

/** Turns the raw bytes of a JSON body into its value, or throws the 400 that says why not. */
export function parseJsonBody(raw: Buffer, contentType: string | undefined, maxDepth = MAX_JSON_DEPTH): unknown {
  const charset = charsetOf(contentType);
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8')
    throw invalid(`Unsupported charset "${charset}": JSON request bodies must be UTF-8`);
  if (!isUtf8(raw)) throw invalid('The request body is not valid UTF-8');
  let bytes = raw;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3); // a BOM is not JSON
  const text = bytes.toString('utf8');
  if (text.trim() === '') return {}; // an empty body is a common client mistake, read as {} (body-parser did the same)
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && first !== '[') throw invalid(MALFORMED); // strict: a top-level object or array
  if (jsonDepth(bytes, maxDepth) > maxDepth) throw invalid(`The JSON request body is nested more than ${maxDepth} levels deep`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(MALFORMED);
  }
  // A raw NUL byte is already malformed JSON; an escaped one can only appear as \u0000.
  if (text.includes('\\u0000')) {
    const at = nulPath(value, '');
    if (at !== null) throw invalid(`"${at}" contains a NUL character (U+0000), which text fields cannot hold`);
  }
  return value;
}

/**
 * Where a parsed JSON value holds U+0000 in a string or a key, as a field path (`a.b[2]`), or
 * null. Refused on every route and both databases alike because PostgreSQL text cannot store
 * it (the statement failed: a 500) while SQLite could. Recursion is safe: depth is checked first.
 */
export function nulPath(value: unknown, at: string): string | null {
  if (typeof value === 'string') return value.includes('\0') ? at : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${at}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const path = at === '' ? key : `${at}.${key}`;
    if (key.includes('\0')) return path;
    const found = nulPath(item, path);
    if (found !== null) return found;
  }
  return null;
}

/** body-parser's typed errors pass on (413, aborted…); anything else while reading was the decompression. */
function readError(err: unknown, contentEncoding: string | undefined): unknown {
  const type = (err as { type?: unknown } | null)?.type;
  if (typeof type === 'string') return err;
  const encoding = (contentEncoding ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return invalid(`The request body is not valid ${encoding} data (Content-Encoding: ${encoding})`);
  return err;
}

const PLAIN_JSON_TYPE = /^application\/json\s*(?:;|$)/i;
const DIGITS = /^\d+$/;

/**
 * The whole body of a request that has already arrived, when nothing about it needs
 * body-parser: a plain `application/json` body, not encoded, its Content-Length within the
 * limit, every byte already buffered by Node's parser (a chat message usually comes in the
 * packet of its headers, and authentication has awaited since: every chat of the benchmark).
 * Read at once, with no stream listeners or callbacks: body-parser's reading was about 3 % of a
 * chat request's CPU.
 * Anything else returns undefined and takes body-parser's way, with its errors unchanged.
 */
export function bufferedJsonBody(req: IncomingMessage, limitBytes: number): Buffer | undefined {
  const { headers } = req;
  const length = headers['content-length'];
  if (length === undefined || !DIGITS.test(length) || Number(length) > limitBytes) return undefined;
  if (headers['content-encoding'] !== undefined && headers['content-encoding'].toLowerCase() !== 'identity') return undefined;
  if (headers['transfer-encoding'] !== undefined || !PLAIN_JSON_TYPE.test(headers['content-type'] ?? '')) return undefined;
  // Still readable (nobody consumed it), not flowing, and all of its Content-Length in the buffer.
  // `req.complete` is not waited for: Node runs the microtasks queued by the body's callback
  // (authentication's awaits) before it marks the message complete, but with Content-Length
  // framing no further byte of this body can come.
  if (!req.readable || req.readableFlowing === true || req.readableLength !== Number(length)) return undefined;
  return Number(length) === 0 ? Buffer.alloc(0) : (req.read() as Buffer);
}

/** Parses JSON bodies (application/json, application/*+json) into `req.body`. */
export function jsonBody(opts: JsonBodyOptions): RequestHandler {
  const maxDepth = opts.maxDepth ?? MAX_JSON_DEPTH;
  const readRaw = express.raw({ type: JSON_TYPES, limit: opts.limitBytes, inflate: true });
  return function parseJson(req, res, next) {
    const buffered = bufferedJsonBody(req, opts.limitBytes);
    if (buffered !== undefined) {
      req.body = parseJsonBody(buffered, req.headers['content-type'], maxDepth);
      return next();
    }
    readRaw(req, res, (err?: unknown) => {
      if (err) return next(readError(err, req.headers['content-encoding']));
      if (!Buffer.isBuffer(req.body)) return next(); // no body, or not JSON: left to the route
      try {
        req.body = parseJsonBody(req.body, req.headers['content-type'], maxDepth);
      } catch (e) {
        return next(e);
      }
      next();
    });
  };
}
