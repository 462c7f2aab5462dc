import http from 'node:http';
import https from 'node:https';
import { assertLiteralHostAllowed, type ConnectLookup } from './ssrf.js';

export interface AttemptResult {
  ok: boolean;
  /** The HTTP status, or null when no response came (timeout, refused, blocked). */
  status: number | null;
  latencyMs: number;
  error: string | null;
}

/** What a failed response adds to the log: enough of its body to debug, no more. */
const ERROR_BODY_CHARS = 200;
const READ_BODY_BYTES = 64 * 1024;

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  lookup: ConnectLookup;
  agents?: { http: http.Agent; https: https.Agent };
  signal?: AbortSignal;
}

/**
 * One delivery attempt: POST the body, never follow a redirect, give up after `timeoutMs`
 * (connect, send and the whole response). 2xx is success; everything else is a failure with
 * a reason for the log. Never throws.
 */
export function postWebhook(opts: PostOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  let url: URL;
  try {
    url = new URL(opts.url);
    assertLiteralHostAllowed(url.hostname, opts.allowPrivate);
  } catch (err) {
    return Promise.resolve({ ok: false, status: null, latencyMs: elapsed(), error: (err as Error).message });
  }
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<AttemptResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, latencyMs: elapsed() });
    };
    const secure = url.protocol === 'https:';
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      headers: { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) },
      lookup: opts.lookup as never,
      agent: opts.agents ? (secure ? opts.agents.https : opts.agents.http) : undefined,
      signal: opts.signal,
    });
    const timer = setTimeout(() => {
      finish({ ok: false, status: null, error: `timed out after ${opts.timeoutMs / 1000} s` });
      req.destroy();
    }, opts.timeoutMs);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let text = '';
      let read = 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        read += chunk.length;
        if (text.length < ERROR_BODY_CHARS) text += chunk.slice(0, ERROR_BODY_CHARS - text.length);
        if (read > READ_BODY_BYTES) res.destroy(); // a receiver's long body is not our business
      });
      const done = () => {
        if (status >= 200 && status < 300) return finish({ ok: true, status, error: null });
        const location = status >= 300 && status < 400 && res.headers.location ? ` (redirect to ${res.headers.location} not followed)` : '';
        const snippet = text.trim().replace(/\s+/g, ' ');
        finish({ ok: false, status, error: `HTTP ${status}${location}${snippet ? `: ${snippet}` : ''}` });
      };
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      finish({ ok: false, status: null, error: describeError(err) });
    });
    req.end(opts.body);
  });
}

function describeError(err: NodeJS.ErrnoException): string {
  if (err.name === 'AbortError') return 'aborted: the server was stopping';
  if (err.code === 'ERR_WEBHOOK_BLOCKED_ADDRESS') return err.message;
  if (err.code === 'ECONNREFUSED') return 'connection refused';
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `could not resolve host (${err.code})`;
  if (err.code === 'ECONNRESET') return 'connection reset by the receiver';
  return err.code ? `${err.code}: ${err.message}` : err.message;
}
