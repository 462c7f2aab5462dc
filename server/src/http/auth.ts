import type { Request, RequestHandler } from 'express';
import type { CredentialResolver } from '../auth/credentials.js';
import type { Permission, Principal } from '../auth/permissions.js';
import type { Clock } from '../lib/clock.js';
import { ipMatches } from '../lib/ip.js';
import { AppError } from './errors.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      requestId: string;
      principal?: Principal;
    }
  }
}

/**
 * Counts failures per key (client IP, email) in a sliding window; past the limit callers
 * answer 429 instead of trying again. Used for bad tokens (30/min per IP) and logins.
 */
export function createFailureTracker(clock: Clock, limit = 30, windowMs = 60_000) {
  const failures = new Map<string, number[]>();
  const recent = (ip: string): number[] => {
    const cutoff = clock.now() - windowMs;
    const list = (failures.get(ip) ?? []).filter((t) => t > cutoff);
    if (list.length) failures.set(ip, list);
    else failures.delete(ip);
    return list;
  };
  return {
    blocked: (ip: string): boolean => recent(ip).length >= limit,
    record(ip: string): void {
      const list = recent(ip);
      list.push(clock.now());
      failures.set(ip, list);
    },
  };
}

export type FailureTracker = ReturnType<typeof createFailureTracker>;

export function bearerToken(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

export function principalOf(res: { locals: { principal?: Principal } }): Principal {
  const p = res.locals.principal;
  if (!p) throw new AppError('authentication_error', 'Missing or invalid API token');
  return p;
}

/** Resolves the bearer token (API key or user session) and enforces the key's IP allowlist. */
export function requireAuth(opts: { resolver: CredentialResolver; clock: Clock; failures: FailureTracker }): RequestHandler {
  return function authenticate(req, res, next) {
    const ip = req.ip ?? '';
    if (opts.failures.blocked(ip)) {
      throw new AppError('rate_limit_exceeded', 'Too many failed authentication attempts, try again later', { 'Retry-After': '60' });
    }
    const token = bearerToken(req);
    const resolved = token ? opts.resolver.resolve(token, opts.clock.now()) : null;
    if (!resolved) {
      opts.failures.record(ip);
      throw new AppError('authentication_error', token ? 'Invalid, expired or revoked API token' : 'Missing API token: send Authorization: Bearer <API_KEY>');
    }
    if (resolved.allowedIps.length && !ipMatches(ip, resolved.allowedIps)) {
      throw new AppError('permission_denied', 'This API key may not be used from this IP address');
    }
    res.locals.principal = resolved.principal;
    next();
  };
}

export function requirePermission(permission: Permission | Permission[]): RequestHandler {
  const anyOf = Array.isArray(permission) ? permission : [permission];
  return function checkPermission(_req, res, next) {
    const p = principalOf(res);
    if (!anyOf.some((perm) => p.permissions.has(perm))) {
      throw new AppError('permission_denied', `This API key lacks the ${anyOf.join(' or ')} permission`);
    }
    next();
  };
}
