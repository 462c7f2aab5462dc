import type { Request, Response } from 'express';
import { SESSION_TTL_MS } from './service.js';

/**
 * The dashboard's session cookie (docs/api-spec.md §11). The dashboard never holds a token in
 * JavaScript: login and register from it set this httpOnly cookie instead, and every later
 * request carries it. A cookie is sent by the browser whoever asks, so it only counts as a
 * session together with the CSRF guard below.
 */
export const SESSION_COOKIE = 'parley_session';
/**
 * Under https the cookie is `__Host-parley_session`: browsers accept a `__Host-` cookie only
 * Secure, with Path=/ and no Domain, so a sibling subdomain (or a plain-http page) cannot plant
 * one for this host (cookie tossing, issue 24). Plain http (local use) keeps the plain name.
 */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

export function sessionCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? HOST_SESSION_COOKIE : SESSION_COOKIE;
}
/** The header the dashboard sets on every request. A cross-origin page cannot send it without a CORS preflight, which the API never grants. */
export const CSRF_HEADER = 'x-parley-csrf';

/**
 * Every value of the session cookie in the request (its name for PUBLIC_URL). More than one is
 * refused by the caller: a browser sends the cookie set by this host beside one planted by a
 * sibling subdomain for a longer path, planted first, and picking either would let the planter
 * choose the session.
 */
export function sessionCookies(req: Request, publicUrl: string): string[] {
  const header = req.headers.cookie;
  if (!header) return [];
  const name = sessionCookieName(publicUrl);
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq >= 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/** The session token from the session cookie, if the request has exactly one well-formed one. */
export function sessionCookie(req: Request, publicUrl: string): string | null {
  const values = sessionCookies(req, publicUrl);
  const value = values.length === 1 ? (values[0] as string) : '';
  return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : null;
}

/**
 * The CSRF guard: the custom header AND the request's origin is PUBLIC_URL's (the `Origin`
 * header, or, when a browser sends none, `Sec-Fetch-Site: same-origin`). SameSite=Strict
 * already keeps the cookie off cross-site requests; this also refuses same-site but
 * cross-origin pages (another port or subdomain) and old browsers.
 */
export function isDashboardRequest(req: Request, publicUrl: string): boolean {
  if (req.headers[CSRF_HEADER] !== '1') return false;
  const origin = req.headers.origin;
  if (origin !== undefined) return origin === publicOrigin(publicUrl);
  return req.headers['sec-fetch-site'] === 'same-origin';
}

export function publicOrigin(publicUrl: string): string {
  try {
    return new URL(publicUrl).origin;
  } catch {
    return publicUrl;
  }
}

export function setSessionCookie(res: Response, token: string, publicUrl: string): void {
  res.cookie(sessionCookieName(publicUrl), token, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: SESSION_TTL_MS,
    secure: publicUrl.startsWith('https:'),
  });
}

export function clearSessionCookie(res: Response, publicUrl: string): void {
  res.clearCookie(sessionCookieName(publicUrl), { httpOnly: true, sameSite: 'strict', path: '/', secure: publicUrl.startsWith('https:') });
}

/**
 * A sign-in (login, register, invitation accept, switch) that carries the dashboard's CSRF
 * header from another origin: refused with the reason, instead of a token in the body the
 * dashboard would never use. The usual cause is a dashboard opened at an address other than
 * PUBLIC_URL (127.0.0.1 for localhost, a proxy's name); API clients never send the header.
 */
export function dashboardOriginProblem(req: Request, publicUrl: string): string | null {
  if (req.headers[CSRF_HEADER] === undefined || isDashboardRequest(req, publicUrl)) return null;
  const origin = typeof req.headers.origin === 'string' ? req.headers.origin : 'this page';
  return `Sign in from ${publicOrigin(publicUrl)}/dashboard/ (PUBLIC_URL): the session cookie is only issued to that origin, and ${origin} is not it`;
}
