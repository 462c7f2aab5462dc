import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, killGroup, startMain, type Running } from '../../../test/main-process.js';
import { fakeSite, page, type FakeSite } from '../../../test/fake-site.js';

const running: Running[] = [];
let web: FakeSite | null = null;
afterEach(async () => {
  for (const r of running.splice(0)) killGroup(r.child, 'SIGKILL');
  await web?.close();
  web = null;
});

/** The real server (`npm start`) on a database file, with the demo's all-permission key. */
async function boot(env: Record<string, string>) {
  const srv = await startMain(env);
  running.push(srv);
  const key = /Bearer (sk_[A-Za-z0-9_-]+)/.exec(srv.output())?.[1] as string;
  const base = `http://127.0.0.1:${env.PORT}`;
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { srv, call };
}

describe('web document jobs across kill -9', () => {
  it('a crawl interrupted by a crash is picked up again at the next start and finishes', async () => {
    const links = Array.from({ length: 24 }, (_, i) => `/p${i}`);
    const routes: Record<string, string> = { '/': page('Crash site', '<p>Home of the crash test.</p>', { links }) };
    for (const l of links) routes[l] = page(`Page ${l}`, `<p>Page ${l} explains widget${l.slice(2)} in detail.</p>`);
    web = await fakeSite(routes, { delayMs: 120 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-crawl-crash-'));
    const env = { PORT: String(await freePort()), DATABASE_PATH: path.join(dir, 'parley.db'), FETCH_ALLOW_PRIVATE: 'true' };

    const first = await boot(env);
    const kb = await first.call('POST', '/v1/knowledge-bases', { name: 'Crawled' });
    const docs = `/v1/knowledge-bases/${kb.body.data.id}/documents`;
    const created = await first.call('POST', docs, { url: `${web.origin}/`, crawl: { maxPages: 100, maxDepth: 1 } });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    let doc = created.body.data;
    while (!(doc.status === 'processing' && doc.progress?.pagesFetched >= 4)) {
      await new Promise((r) => setTimeout(r, 20));
      doc = (await first.call('GET', `${docs}/${id}`)).body.data;
    }
    killGroup(first.srv.child, 'SIGKILL');
    await first.srv.exited;
    await new Promise((r) => setTimeout(r, 200));
    const fetchedBeforeCrash = web.requests.length;
    expect(fetchedBeforeCrash).toBeLessThan(links.length);

    const second = await boot(env);
    const deadline = Date.now() + 15_000;
    do {
      await new Promise((r) => setTimeout(r, 50));
      doc = (await second.call('GET', `${docs}/${id}`)).body.data;
    } while (doc.status !== 'ready' && doc.status !== 'failed' && Date.now() < deadline);
    expect(doc).toMatchObject({ status: 'ready', title: 'Crash site', error: null });
    expect(doc.progress.pagesIndexed).toBe(25);
    expect(web.requests.filter((r) => r === '/').length).toBe(2); // started over after the crash
    const hit = await second.call('POST', `/v1/knowledge-bases/${kb.body.data.id}/search`, { query: 'widget17' });
    expect(hit.body.data[0].url.split('#')[0]).toBe(`${web.origin}/p17`);
  }, 45_000);
});
