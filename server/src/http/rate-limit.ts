import type { RequestHandler, Response } from 'express';
import type { LimitStore, RateDecision } from '../limits/port.js';
import { AppError } from './errors.js';

// The limiter lives in limits/ (memory and Redis stores); these names stay importable from here.
export { createRateLimiter } from '../limits/memory.js';
export type { RateDecision, RateLimits } from '../limits/port.js';

export function setRateHeaders(res: Response, d: RateDecision): void {
  res.setHeader('X-RateLimit-Limit', String(d.limit));
  res.setHeader('X-RateLimit-Remaining', String(d.remaining));
  res.setHeader('X-RateLimit-Reset', String(d.resetEpochSeconds));
}

export function rateLimitError(d: RateDecision, message = 'Rate limit exceeded, try again later'): AppError {
  return new AppError('rate_limit_exceeded', message, { 'Retry-After': String(d.retryAfterSeconds) });
}

/**
 * Counts every authenticated request against its credential (docs/api-spec.md §5). A store that cannot
 * answer (Redis down) rejects with 503 `unavailable`: the request is refused, never let through.
 */
export function rateLimit(limiter: LimitStore): RequestHandler {
  return async function enforceRateLimit(_req, res, next) {
    const principal = res.locals.principal;
    if (!principal) return next();
    const decision = await limiter.take(principal.credentialId, principal.limits);
    setRateHeaders(res, decision);
    if (!decision.allowed) throw rateLimitError(decision);
    next();
  };
}
