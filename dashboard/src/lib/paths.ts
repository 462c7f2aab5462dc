// Every dashboard URL lives under /dashboard (the server serves index.html for deep links).
export const BASE = '/dashboard';

export const to = (path = '/'): string => `${BASE}${path === '/' ? '/' : path}`;

/** Sign-in URL that brings the user back to where they were. */
export function loginUrl(next?: string): string {
  const here = next ?? `${location.pathname}${location.search}`;
  // Already on sign-in (a second 401 from a request made in parallel): keep its ?next=.
  if (here.startsWith(`${BASE}/login`)) return here;
  const keep = here.startsWith(BASE) ? `?next=${encodeURIComponent(here)}` : '';
  return `${BASE}/login${keep}`;
}

/** Only same-app paths are followed after sign-in (no open redirect). */
export function safeNext(next: string | undefined): string {
  return next && next.startsWith(`${BASE}/`) && !next.startsWith('//') ? next : to('/');
}
