/** Test helpers for web documents: fake websites on 127.0.0.1 and a Parley with tuned fetch jobs. */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../src/db/open.js';
import type { Config } from '../src/config.js';
import { startServer, type TestServer } from './test-server.js';
import type { Client } from './http.js';
import type { UrlSourceTuning } from '../src/knowledge/web/url-sources.js';

export type Route =
  | string
  | { status?: number; headers?: Record<string, string>; body?: string | Buffer; delayMs?: number }
  | ((req: IncomingMessage, res: ServerResponse) => void | Promise<void>);

export interface FakeSite {
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  /** Paths requested (with query), in order. */
  requests: string[];
  userAgents: string[];
  routes: Map<string, Route>;
  set(path: string, route: Route): void;
  close(): Promise<void>;
}

/** A small website: exact path (with query) → an HTML string, a response spec or a handler; else 404. */
export async function fakeSite(routes: Record<string, Route> = {}, opts: { delayMs?: number } = {}): Promise<FakeSite> {
  const table = new Map(Object.entries(routes));
  const requests: string[] = [];
  const userAgents: string[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const path = req.url ?? '/';
      requests.push(path);
      userAgents.push(String(req.headers['user-agent'] ?? ''));
      const route = table.get(path);
      const delay = typeof route === 'object' && route && !Buffer.isBuffer(route) && 'delayMs' in route ? route.delayMs : opts.delayMs;
      if (delay) await new Promise((r) => setTimeout(r, delay));
      if (route === undefined) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      } else if (typeof route === 'string') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(route);
      } else if (typeof route === 'function') {
        await route(req, res);
      } else {
        res.writeHead(route.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...route.headers }).end(route.body ?? '');
      }
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    userAgents,
    routes: table,
    set: (path, route) => {
      table.set(path, route);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An HTML page with a title, an optional head extra, links and body text, wrapped in typical chrome. */
export function page(title: string, body: string, opts: { links?: string[]; head?: string } = {}): string {
  const nav = (opts.links ?? []).map((l) => `<li><a href="${l}">${l}</a></li>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${opts.head ?? ''}</head>
<body><header><div class="logo">Acme</div><nav><ul>${nav}</ul></nav></header>
<main><h1>${title}</h1>${body}</main>
<footer><p>Copyright Acme Corporation footerword</p></footer></body></html>`;
}

/** A Parley (like `startServer`) whose web fetch jobs take `urlSources` tuning; fast defaults for tests. */
export async function startWebServer(opts: { config?: Partial<Config>; db?: Db; urlSources?: UrlSourceTuning } = {}): Promise<TestServer> {
  return startServer({
    db: opts.db,
    config: { fetchAllowPrivate: true, ...opts.config },
    urlSources: { maxCrawlDelayMs: 0, pollMs: 50, retryDelaysMs: [50, 100], fetchTimeoutMs: 3_000, ...opts.urlSources },
  });
}

/** Polls a document until `done(doc)` holds; returns it. */
export async function waitForDocument(
  api: Client,
  kbId: string,
  docId: string,
  done: (doc: any) => boolean,
  timeoutMs = 10_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any = null;
  for (;;) {
    const res = await api.get(`/v1/knowledge-bases/${kbId}/documents/${docId}`);
    last = res.status === 200 ? res.body.data : { status: res.status };
    if (done(last)) return last;
    if (Date.now() > deadline) throw new Error(`document did not reach the expected state: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const settled = (doc: any): boolean => doc.status === 'ready' || doc.status === 'failed';

/** Search in one knowledge base; returns the hits. */
export async function search(api: Client, kbId: string, query: string, limit = 10): Promise<any[]> {
  const res = await api.post(`/v1/knowledge-bases/${kbId}/search`, { query, limit });
  if (res.status !== 200) throw new Error(`search failed: ${res.status} ${res.text}`);
  return res.body.data;
}
