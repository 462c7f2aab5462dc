import { BlockedAddressError } from './address-guard.js';

/** The outbound client's failures (net/client.ts): what went wrong, in which phase, for which URL. */
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
  constructor(
    readonly kind: NetErrorKind,
    message: string,
    readonly url: string,
    opts: { code?: string | null; phase?: TimeoutPhase | null; cause?: unknown } = {},
  ) {
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

const TIMEOUT_CODES: Record<string, TimeoutPhase> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

/** A transport error as a NetError: the guard's refusal, a timeout of one phase, or a network failure. */
export function netError(err: unknown, url: string): NetError {
  if (err instanceof BlockedAddressError) return new NetError('blocked', err.message, url, { code: err.code, cause: err });
  const code = (err as { code?: unknown } | null)?.code;
  const codeText = typeof code === 'string' ? code : null;
  const message = err instanceof Error ? err.message : String(err);
  const phase = codeText ? TIMEOUT_CODES[codeText] : undefined;
  if (phase)
    return new NetError(
      'timeout',
      `${url}: no ${phase === 'body' ? 'body data' : phase === 'headers' ? 'response' : 'connection'} in time`,
      url,
      { code: codeText, phase, cause: err },
    );
  return new NetError('network', message || codeText || 'network error', url, { code: codeText, cause: err });
}
