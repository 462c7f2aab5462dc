/**
 * Every failure of a Parley call, normalised. `status` 0 means no HTTP answer at all (refused
 * connection, DNS, our own timeout); `code` is the server's error code when it sent one, so the
 * friendly text can depend on what really happened.
 */
export class ParleyError extends Error {
  override readonly name = 'ParleyError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** Seconds the server asked us to wait (429 `Retry-After`), when it said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  get isRateLimited(): boolean {
    return this.status === 429 || this.code === 'RATE_LIMITED' || this.code === 'rate_limit_exceeded';
  }

  get isUnreachable(): boolean {
    return this.status === 0;
  }
}
