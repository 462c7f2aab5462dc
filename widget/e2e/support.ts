import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer } from '../../server/test/test-server.js';

// Shared plumbing for the widget's end-to-end tests: a real Parley (seeded demo assistant,
// serving /js/widget.js from widget/dist and the demo page at /demo/) and a real headless
// Chromium. Playwright's CSS locators pierce open shadow roots, so `[data-parley=…]` reaches
// into the widget the same way a site owner's script would.

export const SHOTS = '/tmp/widget-shots';
mkdirSync(SHOTS, { recursive: true });

export type Server = Awaited<ReturnType<typeof startTestServer>>;
export { startTestServer };

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh context per test: separate storage and HTTP cache (the config is cacheable). */
export async function newPage(
  browser: Browser,
  opts: { width?: number; height?: number; reducedMotion?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    reducedMotion: opts.reducedMotion === false ? 'no-preference' : 'reduce', // stable screenshots
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return { context, page, errors };
}

/** Authenticated call to the server's own API, for arranging state (theme, origins, agent replies). */
export async function api(server: Server, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(server.url + path, {
    method,
    headers: { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export const patchAssistant = (server: Server, patch: unknown) => api(server, 'PATCH', `/v1/assistants/${server.assistantId}`, patch);

export interface HostPageOptions {
  head?: string;
  body?: string;
  appId?: string;
  /** Sets data-api-url on the script tag. */
  apiUrl?: string;
}

/** A customer's page: some content and the snippet, loading widget.js from the Parley server. */
export function hostPage(server: Server, opts: HostPageOptions = {}): string {
  const apiAttr = opts.apiUrl ? ` data-api-url="${opts.apiUrl}"` : '';
  return `<!doctype html><html><head><meta charset="utf-8"><title>Host page</title>${opts.head ?? ''}</head>
<body>${opts.body ?? '<h1>Host page</h1><p>Some content.</p>'}
<script src="${server.url}/js/widget.js" data-app-id="${opts.appId ?? server.assistantId}"${apiAttr} defer></script>
</body></html>`;
}

/**
 * A customer's website on its own loopback origin, serving whatever pages a test registers.
 * A real server rather than request interception: Chromium puts intercepted documents in the
 * public address space and then refuses their requests to loopback (Local Network Access).
 */
export async function startHostSite(): Promise<{
  url: string;
  origin: string;
  serve(path: string, body: string, type?: string): string;
  close(): Promise<void>;
}> {
  const { createServer } = await import('node:http');
  const pages = new Map<string, { body: string; type: string }>();
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    const page = pages.get(path);
    res.writeHead(page ? 200 : 404, { 'Content-Type': page?.type ?? 'text/plain' }).end(page?.body ?? 'not found');
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as import('node:net').AddressInfo).port}`;
  return {
    url,
    origin: url,
    serve(path, body, type = 'text/html; charset=utf-8') {
      pages.set(path, { body, type });
      return url + path;
    },
    close: () => {
      http.closeAllConnections();
      return new Promise((r) => http.close(() => r()));
    },
  };
}

export const sel = (hook: string) => `[data-parley="${hook}"]`;

/**
 * A loopback TCP proxy that passes requests through untouched and dribbles every response back
 * in small pieces, so a stream that the server writes in one go reaches the browser the way a
 * slow mobile connection would deliver it. (Chromium's own throttling delays data but does not
 * split it.)
 */
export async function startSlowProxy(
  targetUrl: string,
  opts: { bytes?: number; everyMs?: number } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer, connect } = await import('node:net');
  const target = new URL(targetUrl);
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    let queue = Promise.resolve();
    upstream.on('data', (buf: Buffer) => {
      for (let i = 0; i < buf.length; i += opts.bytes ?? 48) {
        const piece = buf.subarray(i, i + (opts.bytes ?? 48));
        queue = queue.then(() => new Promise((r) => setTimeout(() => (client.destroyed || client.write(piece), r()), opts.everyMs ?? 8)));
      }
    });
    upstream.on('end', () => void queue.then(() => client.end()));
    const drop = () => (client.destroy(), upstream.destroy());
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
