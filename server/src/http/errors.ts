import type { ErrorRequestHandler, Request } from 'express';
import type { Logger } from '../lib/logger.js';

/** The general error codes and their HTTP statuses (docs/api-spec.md §2): the one table. */
export const ERROR_STATUS = {
  validation_error: 400,
  authentication_error: 401,
  permission_denied: 403,
  resource_not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limit_exceeded: 429,
  server_error: 500,
  // A dependency shared by instances (the Redis limit store) cannot answer; Retry-After says when to retry.
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** "Form 1" codes used by the bare integrations chat route, by general code. */
const BARE_CODE: Record<ErrorCode, string> = {
  validation_error: 'INVALID_REQUEST',
  authentication_error: 'UNAUTHORIZED',
  permission_denied: 'FORBIDDEN',
  resource_not_found: 'NOT_FOUND',
  conflict: 'INVALID_REQUEST',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  rate_limit_exceeded: 'RATE_LIMITED',
  server_error: 'INTERNAL_ERROR',
  unavailable: 'UNAVAILABLE',
};

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string): AppError => new AppError('resource_not_found', `${what} not found`);

/** Routes whose errors use the bare "form 1" body instead of the envelope. */
const BARE_ERROR_ROUTE = /^\/(?:api\/)?v1\/integrations\/[^/]+\/chat\/?$/;

export function usesBareErrors(req: Request): boolean {
  return BARE_ERROR_ROUTE.test(req.path);
}

export function errorBody(err: AppError, bare: boolean): unknown {
  return bare
    ? { error: { code: BARE_CODE[err.code], message: err.message } }
    : { status: 'error', error: { code: err.code, message: err.message } };
}

/** Turns what body-parser and others throw into AppErrors; anything unknown becomes a 500. */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number; limit?: number } | null;
  if (e?.type === 'entity.too.large') return new AppError('payload_too_large', `Request body exceeds the ${e.limit ?? 1048576} byte limit`);
  if (e?.type === 'entity.parse.failed') return new AppError('validation_error', 'Malformed JSON in request body');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return new AppError('validation_error', 'Unsupported request body encoding');
  if (e?.type === 'request.aborted') return new AppError('validation_error', 'Request aborted');
  // Express's router throws this (status 400) when a path parameter holds malformed %-encoding (`/x/%ZZ`).
  if (err instanceof URIError && e?.status === 400)
    return new AppError('validation_error', 'Malformed percent-encoding in the request path');
  // A zlib error while inflating a body (Content-Encoding that does not match the bytes).
  if (e?.status === 400 && typeof (err as { code?: unknown }).code === 'string' && (err as { code: string }).code.startsWith('Z_'))
    return new AppError('validation_error', 'The request body does not match its Content-Encoding');
  // Any other client error from the HTTP plumbing (http-errors marks those `expose`): the
  // request was malformed, not the server broken (raw-body's request.size.invalid…).
  if (e?.status === 400 && (err as { expose?: unknown }).expose === true) return new AppError('validation_error', 'Malformed request');
  return null;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return function handleError(err, req, res, _next) {
    const known = toAppError(err);
    const appError = known ?? new AppError('server_error', 'Internal server error');
    if (!known)
      logger.error('unhandled error', {
        requestId: res.locals.requestId,
        method: req.method,
        path: req.path,
        error: err instanceof Error ? err.stack : String(err),
      });
    if (res.headersSent) {
      res.end();
      return;
    }
    res
      .set(appError.headers)
      .status(appError.status)
      .json(errorBody(appError, usesBareErrors(req)));
  };
}
