import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';

/** Hashed build assets never change under their name: cached for a year. */
export const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** HTML is revalidated on every load, so a new build is picked up at once (ETag keeps it cheap). */
export const HTML_CACHE = 'no-cache';
/** Other files of the build (icons, robots.txt): short-lived. */
const OTHER_CACHE = 'public, max-age=300';

/**
 * The dashboard's Content-Security-Policy: scripts from the server only (no inline script, no
 * eval), API calls to the server only, frames of its own pages (the widget preview), and not
 * framable by other sites. Styles allow inline: the widget preview mounts the real widget,
 * which injects its stylesheet into its shadow root. Images may come from anywhere an
 * assistant's avatar or icon URL points.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Dashboard not built</title>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>The dashboard is not built</h1>
<p>This server has no dashboard build. Run <code>npm run build --workspace dashboard</code>
(or start with <code>npm start</code>, which builds it), then reload this page.</p>
<p>The API works without it: <a href="/v1/openapi.json">/v1/openapi.json</a>.</p></body></html>`;

/**
 * `GET /dashboard/*`: the built single-page app from `dir` (dashboard/dist). Files under
 * `assets/` are served as they are (404 when missing: a stale chunk name must not get HTML);
 * other existing files of the build as files (widget-preview.html, icons); every other path
 * (a deep link such as /dashboard/assistants/asst_x/widget) answers index.html, and the app's
 * router takes it from there. `/dashboard` redirects to `/dashboard/`.
 */
export function serveDashboard(dir: string): RequestHandler {
  const root = path.resolve(dir);
  return function sendDashboard(req, res, next) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/' && !req.originalUrl.split('?')[0]?.endsWith('/')) {
      const query = req.originalUrl.indexOf('?');
      return res.redirect(301, `/dashboard/${query >= 0 ? req.originalUrl.slice(query) : ''}`);
    }
    const index = path.join(root, 'index.html');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    if (!fs.existsSync(index)) {
      res.status(404).type('html').setHeader('Cache-Control', 'no-store');
      return res.send(NOT_BUILT);
    }
    let relative: string;
    try {
      relative = decodeURIComponent(req.path).replace(/^\/+/, '');
    } catch {
      return res.status(400).type('text').send('Bad path');
    }
    const file = path.resolve(root, relative);
    const inside = file.startsWith(root + path.sep);
    const isFile =
      inside && !relative.split('/').some((s) => s.startsWith('.')) && fs.statSync(file, { throwIfNoEntry: false })?.isFile() === true;
    if (relative.startsWith('assets/')) {
      if (!isFile) return res.status(404).type('text').setHeader('Cache-Control', 'no-store').send('Not found');
      return send(res, file, ASSET_CACHE);
    }
    if (isFile) return send(res, file, file.endsWith('.html') ? HTML_CACHE : OTHER_CACHE);
    return send(res, index, HTML_CACHE);
  };
}

function send(res: Parameters<RequestHandler>[1], file: string, cacheControl: string): void {
  if (file.endsWith('.html')) {
    res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
  }
  res.sendFile(file, { cacheControl: false, etag: true, lastModified: true, dotfiles: 'deny', headers: { 'Cache-Control': cacheControl } });
}
