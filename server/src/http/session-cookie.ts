import type { Request, Response } from 'express';
import { SESSION_TTL_MS } from '../auth/service.js';

/**
 * The dashboard's session cookie (API.md §11). The dashboard never holds a token in
 * JavaScript: login and register from it set this httpOnly cookie instead, and every later
 * request carries it. A cookie is sent by the browser whoever asks, so it only counts as a
 * session together with the CSRF guard below.
 */
export const SESSION_COOKIE = 'parley_session';
/** The header the dashboard sets on every request. A cross-origin page cannot send it without a CORS preflight, which the API never grants. */
export const CSRF_HEADER = 'x-parley-csrf';

/** The session token from the `parley_session` cookie, if the request has one. */
export function sessionCookie(req: Request): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : null;
  }
  return null;
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
  res.cookie(SESSION_COOKIE, token, {
    httpOnly: true, sameSite: 'strict', path: '/', maxAge: SESSION_TTL_MS, secure: publicUrl.startsWith('https:'),
  });
}

export function clearSessionCookie(res: Response, publicUrl: string): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', path: '/', secure: publicUrl.startsWith('https:') });
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
