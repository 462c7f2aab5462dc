import type { Request } from 'express';

/**
 * The page origin a widget request comes from. Browsers send Origin on cross-origin requests
 * and on POSTs; a same-origin GET (the demo page) sends only Referer, so it stands in.
 */
export function requestOrigin(req: Request): string | null {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') return origin;
  const referer = req.headers.referer;
  if (typeof referer === 'string') {
    try {
      return new URL(referer).origin;
    } catch {
      return null;
    }
  }
  return null;
}

export function originAllowed(origin: string | null, allowed: readonly string[], publicOrigin: string): boolean {
  if (!origin) return false;
  return origin === publicOrigin || allowed.includes(origin);
}
