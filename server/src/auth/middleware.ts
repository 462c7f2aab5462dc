import type { Request, RequestHandler } from 'express';
import type { CredentialResolver } from './credentials.js';
import type { Permission, Principal } from './permissions.js';
import type { Clock } from '../lib/clock.js';
import { ipMatches } from '../lib/ip.js';
import type { FailureTracker } from '../limits/port.js';
import { AppError } from '../http/errors.js';
import { isDashboardRequest, publicOrigin, sessionCookie, sessionCookieName, sessionCookies } from './session-cookie.js';

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
 * Failed authentications per client IP before 429 (requireAuth): the `auth` failure tracker of
 * the limit store (limits/port.ts), counted in this process or in Redis across instances.
 */
export const BAD_TOKEN_LIMIT = { perIp: 30, windowMs: 60_000 } as const;

export type { FailureTracker } from '../limits/port.js';

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

/**
 * The credential of a request: the bearer token, else the dashboard's session cookie when the
 * request passes the CSRF guard (a cookie without it is ignored: 401). Cookies carry user
 * sessions only, never API keys.
 */
export function presentedToken(req: Request, publicUrl: string): string | null {
  const bearer = bearerToken(req);
  if (bearer || req.headers.authorization) return bearer;
  if (sessionCookies(req, publicUrl).length > 1) {
    // Cookie tossing (issue 24): one of them was planted by another site; neither is trusted.
    throw new AppError(
      'authentication_error',
      `The request carries more than one ${sessionCookieName(publicUrl)} cookie, so the session is ` +
        `ambiguous and none is used: clear this site's cookies and sign in again from ${publicUrl}/dashboard/`,
    );
  }
  const cookie = sessionCookie(req, publicUrl);
  if (!cookie || cookie.startsWith('sk_') || !isDashboardRequest(req, publicUrl)) return null;
  return cookie;
}

/** Why there is no credential, in words: a cookie present but not honoured says why (a dashboard opened at another address is the usual cause). */
function missingCredentialMessage(req: Request, publicUrl: string): string {
  if (!req.headers.authorization && sessionCookie(req, publicUrl)) {
    return `The session cookie counts only on requests from ${publicOrigin(publicUrl)} (PUBLIC_URL) carrying the X-Parley-CSRF: 1 header; sign in again from ${publicUrl}/dashboard/`;
  }
  return 'Missing API token: send Authorization: Bearer <API_KEY>';
}

/**
 * Resolves the credential (API key or user session) and enforces the key's IP allowlist.
 * Only failing attempts are throttled: a client IP with 30 failures in a minute gets 429 for
 * its next failing attempt, while a valid credential from the same address still works (its
 * own rate limits apply). Behind a proxy without TRUST_PROXY every client shares one address,
 * and one client guessing tokens must not lock everyone else out.
 */
export function requireAuth(opts: {
  resolver: CredentialResolver;
  clock: Clock;
  failures: FailureTracker;
  config: { publicUrl: string };
}): RequestHandler {
  return async function authenticate(req, res, next) {
    const ip = req.ip ?? '';
    const token = presentedToken(req, opts.config.publicUrl);
    // Without an Authorization header, a presented token is the dashboard's cookie (interactive limits).
    const resolved = token
      ? await opts.resolver.resolve(token, opts.clock.now(), { dashboardCookie: req.headers.authorization === undefined })
      : null;
    if (!resolved) {
      // One atomic check-and-count: parallel bad tokens from one address stop at exactly the
      // limit, across instances too.
      if ((await opts.failures.attempt(ip)) === 'blocked') {
        throw new AppError('rate_limit_exceeded', 'Too many failed authentication attempts, try again later', { 'Retry-After': '60' });
      }
      throw new AppError(
        'authentication_error',
        token ? 'Invalid, expired or revoked API token' : missingCredentialMessage(req, opts.config.publicUrl),
      );
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
