import { NetError, type HttpClient } from '../net/client.js';
import { WEBHOOK_PRIVATE_HINT } from './ssrf.js';

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
  /** The delivery worker's client: its address guard (WEBHOOK_ALLOW_PRIVATE) judges every connection. */
  client: HttpClient;
  signal?: AbortSignal;
}

/**
 * One delivery attempt: POST the body, never follow a redirect, give up after `timeoutMs`
 * (connect, send and the whole response). 2xx is success; everything else is a failure with
 * a reason for the log. Never throws.
 */
export async function postWebhook(opts: PostOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const result = (r: Omit<AttemptResult, 'latencyMs'>): AttemptResult => ({ ...r, latencyMs: elapsed() });
  try {
    const res = await opts.client.request(opts.url, {
      method: 'POST',
      headers: opts.headers,
      body: opts.body,
      signal: opts.signal,
      totalTimeoutMs: opts.timeoutMs,
    });
    // A receiver's long body is not our business: the first 64 KiB are read, the rest dropped.
    const text = (await res.read({ maxBytes: READ_BODY_BYTES, truncate: true }).catch(() => Buffer.alloc(0)))
      .toString('utf8')
      .slice(0, ERROR_BODY_CHARS);
    const status = res.status;
    if (status >= 200 && status < 300) return result({ ok: true, status, error: null });
    const location = res.header('location');
    const redirect = status >= 300 && status < 400 && location ? ` (redirect to ${location} not followed)` : '';
    const snippet = text.trim().replace(/\s+/g, ' ');
    return result({ ok: false, status, error: `HTTP ${status}${redirect}${snippet ? `: ${snippet}` : ''}` });
  } catch (err) {
    return result({ ok: false, status: null, error: describeError(err, opts.timeoutMs) });
  }
}

function describeError(err: unknown, timeoutMs: number): string {
  if (!(err instanceof NetError)) return err instanceof Error ? err.message : String(err);
  const blocked = err.blocked;
  if (blocked) return blocked.withHint(WEBHOOK_PRIVATE_HINT);
  if (err.kind === 'aborted') return 'aborted: the server was stopping';
  if (err.kind === 'timeout') return `timed out after ${timeoutMs / 1000} s`;
  if (err.kind === 'invalid') return err.message;
  if (err.code === 'ECONNREFUSED') return 'connection refused';
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `could not resolve host (${err.code})`;
  if (err.code === 'ECONNRESET') return 'connection reset by the receiver';
  return err.code ? `${err.code}: ${err.message}` : err.message;
}
