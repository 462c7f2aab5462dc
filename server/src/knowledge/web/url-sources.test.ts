import type dns from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { registerAccount } from '../../../test/http.js';
import type { TestServer } from '../../../test/test-server.js';
import { until } from '../../../test/wait.js';
import { fakeSite, page, search, settled, startWebServer, waitForDocument, type FakeSite, type Route } from '../../../test/fake-site.js';

let server: TestServer | null = null;
const sites: FakeSite[] = [];
afterEach(async () => {
  await server?.close();
  server = null;
  for (const s of sites.splice(0)) await s.close();
});

async function setup(opts: Parameters<typeof startWebServer>[0] = {}) {
  server = await startWebServer(opts);
  const { api } = await registerAccount(server.url);
  const kbId = (await api.post('/v1/knowledge-bases', { name: 'Web' })).body.data.id as string;
  return { api, kbId, docs: `/v1/knowledge-bases/${kbId}/documents` };
}

async function site(routes: Parameters<typeof fakeSite>[0], opts?: Parameters<typeof fakeSite>[1]) {
  const s = await fakeSite(routes, opts);
  sites.push(s);
  return s;
}

/** The page a search hit comes from (hits link to a section the page gives an id: `#anchor`). */
const pageOf = (url: string): string => url.split('#')[0] as string;

const HELP_PAGE = `<!doctype html><html><head><title>Refund policy – Acme Help</title></head><body>
<div id="cookie-banner"><p>We use cookies to improve your experience. Accept all cookiewords?</p><button>OK</button></div>
<header class="site-header"><a href="/">Acme</a><nav class="main-nav"><a href="/pricing">Pricing</a></nav></header>
<div class="layout"><aside class="sidebar"><h3>Popular</h3><p>Sidebar teaser about sidebarwords.</p></aside>
<main><h1>Refund policy</h1><p>Refunds are issued within 14 days of a cancelled subscription.</p>
<h2 id="annual-plans">Annual plans</h2><p>Annual plans are refunded pro rata for the unused months.</p></main></div>
<div class="newsletter-signup"><p>Subscribe to our newsletterwords.</p></div>
<footer><p>© Acme footerwords · <a href="/privacy">Privacy</a></p></footer></body></html>`;

describe('one page from a URL', () => {
  it('answers 201 ready when the page is quick; searchable, each hit pointing at the page; chrome is not indexed', async () => {
    const web = await site({ '/help/refunds': HELP_PAGE });
    const { api, kbId, docs } = await setup();
    const res = await api.post(docs, { url: `${web.origin}/help/refunds#top` });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      knowledgeBaseId: kbId,
      title: 'Refund policy – Acme Help',
      url: `${web.origin}/help/refunds`,
      format: 'html',
      source: 'url',
      status: 'ready',
      error: null,
    });
    expect(res.body.data.chunkCount).toBeGreaterThan(0);
    expect(res.body.data.bytes).toBe(Buffer.byteLength(HELP_PAGE));
    expect(web.userAgents[0]).toBe(`ParleyBot/1.0 (+${server?.url})`);

    const hits = await search(api, kbId, 'annual plans refunded');
    expect(hits[0]).toMatchObject({ documentId: res.body.data.id, url: `${web.origin}/help/refunds#annual-plans` });
    expect(hits[0].text).toContain('pro rata');
    for (const word of ['cookiewords', 'sidebarwords', 'newsletterwords', 'footerwords', 'Pricing']) {
      expect(await search(api, kbId, word), word).toEqual([]);
    }
  });

  it('keeps a given title, reads plain text and markdown, and replaces the document when the same url is added again', async () => {
    const web = await site({
      '/notes.txt': { headers: { 'content-type': 'text/plain' }, body: 'Plain text notes about the warehouse in Leeds.' },
      '/guide.md': {
        headers: { 'content-type': 'text/markdown; charset=utf-8' },
        body: '# Setup guide\n\nInstall the gizmo before the widget.\n',
      },
    });
    const { api, kbId, docs } = await setup();
    const txt = await api.post(docs, { url: `${web.origin}/notes.txt`, title: 'Warehouse notes' });
    expect(txt.body.data).toMatchObject({ title: 'Warehouse notes', format: 'text', status: 'ready' });
    const md = await api.post(docs, { url: `${web.origin}/guide.md` });
    expect(md.body.data).toMatchObject({ title: 'Setup guide', format: 'markdown', status: 'ready' });
    expect((await search(api, kbId, 'gizmo'))[0].url).toBe(`${web.origin}/guide.md`); // markdown: no page ids to link to
    const again = await api.post(docs, { url: `${web.origin}/notes.txt` });
    expect(again.status).toBe(201);
    const list = (await api.get(docs)).body;
    expect(list.pagination.total).toBe(2);
    expect(list.data.map((d: any) => d.id)).not.toContain(txt.body.data.id);
  });

  it('a page slower than the POST wait answers 201 processing, then becomes ready', async () => {
    const web = await site({ '/slow': { body: page('Slow page', '<p>Molasses flows slowly in January.</p>'), delayMs: 400 } });
    const { api, kbId, docs } = await setup({ urlSources: { waitMs: 100 } });
    const res = await api.post(docs, { url: `${web.origin}/slow` });
    expect(res.status).toBe(201);
    expect(['queued', 'processing']).toContain(res.body.data.status);
    expect(res.body.data.chunkCount).toBe(0);
    const doc = await waitForDocument(api, kbId, res.body.data.id, settled);
    expect(doc).toMatchObject({ status: 'ready', title: 'Slow page', syncedAt: expect.any(String) });
    expect((await search(api, kbId, 'molasses')).length).toBe(1);
  });

  it('fails with a clear error: 404, not a web page, no text, connection refused', async () => {
    const web = await site({
      '/file.bin': { headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([1, 2, 3]) },
      '/empty': '<html><head><title>Empty</title></head><body><nav><a href="/">Home</a></nav></body></html>',
    });
    const { api, docs } = await setup({ urlSources: { retryDelaysMs: [] } });
    const cases: [string, RegExp][] = [
      [`${web.origin}/missing`, /answered HTTP 404/],
      [`${web.origin}/file.bin`, /is application\/octet-stream, not a web page/],
      [`${web.origin}/empty`, /has no indexable text/],
      ['http://127.0.0.1:1/', /connection refused/],
    ];
    for (const [url, error] of cases) {
      const res = await api.post(docs, { url });
      expect(res.status, url).toBe(201);
      expect(res.body.data.status, url).toBe('failed');
      expect(res.body.data.error, url).toMatch(error);
      expect(res.body.data.chunkCount).toBe(0);
    }
  });

  it('retries a transient failure (503) with backoff and then succeeds', async () => {
    let calls = 0;
    const web = await site({
      '/flaky': (_req, res) => {
        calls++;
        if (calls < 3) res.writeHead(503).end('busy');
        else res.writeHead(200, { 'content-type': 'text/html' }).end(page('Flaky', '<p>Eventually consistent answers.</p>'));
      },
    });
    const { api, kbId, docs } = await setup({ urlSources: { retryDelaysMs: [50, 50], waitMs: 50 } });
    const res = await api.post(docs, { url: `${web.origin}/flaky` });
    const doc = await waitForDocument(api, kbId, res.body.data.id, settled);
    expect(doc.status).toBe('ready');
    expect(calls).toBe(3);
    // Out of retries (1 + 2): failed with the last error.
    let down = 0;
    web.set('/down', (_req, r) => {
      down++;
      r.writeHead(503).end('busy');
    });
    const again = await api.post(docs, { url: `${web.origin}/down` });
    const failed = await waitForDocument(api, kbId, again.body.data.id, settled);
    expect(failed).toMatchObject({ status: 'failed', error: `${web.origin}/down answered HTTP 503` });
    expect(down).toBe(3);
  });
});

describe('validation and the address guard', () => {
  it('rejects bad bodies with 400', async () => {
    const { api, docs } = await setup();
    const bad = [
      { url: 'ftp://example.com/x' },
      { url: 'not a url' },
      { url: `https://example.com/${'a'.repeat(2050)}` },
      { url: 'https://example.com', crawl: { maxPages: 501 } },
      { url: 'https://example.com', crawl: { maxPages: 0 } },
      { url: 'https://example.com', crawl: { maxDepth: 6 } },
      { url: 'https://example.com', crawl: { maxDepth: -1 } },
      { url: 'https://example.com', crawl: { maxPages: 2.5 } },
      { url: 'https://example.com', crawl: { depth: 1 } },
      { url: 'https://example.com', extra: true },
      { url: 'https://user:pw@example.com/' },
      { url: 42 },
    ];
    for (const body of bad) {
      const res = await api.post(docs, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
    expect((await api.get(docs)).body.pagination.total).toBe(0);
  });

  it('with the guard on: a private literal or localhost is refused at POST; a name resolving to 127.0.0.1 fails the job', async () => {
    const web = await site({ '/': page('Internal', '<p>Secret admin console.</p>') });
    const resolve = (_h: string, _o: dns.LookupAllOptions, cb: (e: NodeJS.ErrnoException | null, a: dns.LookupAddress[]) => void) =>
      cb(null, [{ address: '127.0.0.1', family: 4 }]);
    const { api, kbId, docs } = await setup({ config: { fetchAllowPrivate: false }, urlSources: { resolve } });
    for (const url of [
      `${web.origin}/`,
      'http://localhost:8080/',
      'http://10.1.2.3/',
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://2130706433/',
    ]) {
      const res = await api.post(docs, { url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message, url).toMatch(/^url: must not point at (a (loopback|private|link-local) address|localhost)/);
      expect(res.body.error.message).toContain('FETCH_ALLOW_PRIVATE');
    }
    const single = await api.post(docs, { url: `http://intranet.example:${web.port}/` });
    expect(single.status).toBe(201);
    expect(single.body.data).toMatchObject({
      status: 'failed',
      error: `intranet.example resolves to 127.0.0.1, a loopback address: refused (set FETCH_ALLOW_PRIVATE=true to allow)`,
    });
    const crawl = await api.post(docs, { url: `http://intranet.example:${web.port}/`, crawl: { maxPages: 5 } });
    expect(crawl.body.data.status).toBe('queued');
    const failed = await waitForDocument(api, kbId, crawl.body.data.id, settled);
    expect(failed.error).toContain('intranet.example resolves to 127.0.0.1, a loopback address: refused');
    expect(web.requests).toEqual([]);
  });
});

describe('re-sync', () => {
  it('re-fetches with the stored options; old chunks answer until the new ones replace them; no duplicate job', async () => {
    let version = 1;
    let hold: (() => void) | null = null;
    const web = await site({
      '/': async (_req, res) => {
        if (version === 2)
          await new Promise<void>((r) => {
            hold = r;
          });
        const body =
          version === 1 ? "<p>The office opens at nine o'clock.</p>" : '<p>The office now opens at ten, after the renovation.</p>';
        res.writeHead(200, { 'content-type': 'text/html' }).end(page('Hours', body, { links: ['/more'] }));
      },
      '/more': page('More', '<p>Parking is behind the building.</p>'),
    });
    const { api, kbId, docs } = await setup();
    const created = await api.post(docs, { url: `${web.origin}/`, crawl: { maxPages: 10, maxDepth: 1 }, title: 'Our site' });
    expect(created.body.data).toMatchObject({ status: 'queued', format: 'crawl', source: 'crawl', title: 'Our site' });
    const id = created.body.data.id;
    const ready = await waitForDocument(api, kbId, id, settled);
    expect(ready).toMatchObject({ status: 'ready', title: 'Our site' });
    expect(pageOf((await search(api, kbId, 'nine'))[0].url)).toBe(`${web.origin}/`);

    version = 2;
    const sync = await api.post(`${docs}/${id}/sync`);
    expect(sync.status).toBe(202);
    expect(sync.body.data).toMatchObject({ id, status: 'queued', chunkCount: ready.chunkCount });
    await waitForDocument(api, kbId, id, (d) => d.status === 'processing');
    // While the site is slow to answer, the old content still serves…
    expect((await search(api, kbId, 'nine'))[0].documentId).toBe(id);
    // …and a second sync does not queue another job.
    const again = await api.post(`${docs}/${id}/sync`);
    expect(again.status).toBe(202);
    expect(again.body.data.status).toBe('processing');
    expect(await (server as TestServer).ctx.storage.get('SELECT count(*) AS n FROM ingest_jobs WHERE document_id = ?', [id])).toEqual({
      n: 2,
    });
    while (!hold) await new Promise((r) => setTimeout(r, 10));
    (hold as () => void)();
    const resynced = await waitForDocument(api, kbId, id, (d) => d.status === 'ready' && d.syncedAt !== ready.syncedAt);
    expect(resynced.title).toBe('Our site');
    expect(await search(api, kbId, 'nine')).toEqual([]);
    const rows = await (server as TestServer).ctx.storage.all('SELECT url, body FROM chunks WHERE document_id = ? ORDER BY ordinal', [id]);
    expect(rows).toEqual([
      { url: `${web.origin}/`, body: 'The office now opens at ten, after the renovation.' },
      { url: `${web.origin}/more`, body: 'Parking is behind the building.' },
    ]);
    expect(pageOf((await search(api, kbId, 'renovation'))[0].url)).toBe(`${web.origin}/`);
    expect(pageOf((await search(api, kbId, 'parking'))[0].url)).toBe(`${web.origin}/more`);
  });

  it('a re-synced page is searchable at once (reused chunk rowids included)', async () => {
    let version = 1;
    const web = await site({
      '/': (_req, res) => {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(page('Hours', version === 1 ? '<p>Open at nine.</p>' : '<p>Open at ten after the renovation.</p>'));
      },
    });
    const { api, kbId, docs } = await setup();
    const created = await api.post(docs, { url: `${web.origin}/` });
    expect((await search(api, kbId, 'nine')).length).toBe(1);
    version = 2;
    await api.post(`${docs}/${created.body.data.id}/sync`);
    await waitForDocument(api, kbId, created.body.data.id, (d) => d.status === 'ready' && d.syncedAt !== created.body.data.syncedAt);
    expect(pageOf((await search(api, kbId, 'renovation'))[0]?.url ?? '')).toBe(`${web.origin}/`);
  });

  it('404 for an unknown document, 400 for a document that was not fetched from a URL', async () => {
    const { api, docs } = await setup();
    expect((await api.post(`${docs}/doc_nope/sync`)).status).toBe(404);
    const inline = await api.post(docs, { title: 'Inline', content: 'Typed in by hand.' });
    const res = await api.post(`${docs}/${inline.body.data.id}/sync`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/Only documents fetched from a URL/);
  });
});

describe('crawl jobs while they run', () => {
  it('shows status and progress while processing; deleting the document stops the crawl and nothing comes back', async () => {
    const links = Array.from({ length: 30 }, (_, i) => `/p${i}`);
    const routes: Record<string, Route> = { '/': page('Home', '<p>Welcome home.</p>', { links }) };
    // The first pages come at once; the rest take 300 ms each, two at a time: the whole crawl
    // would run for over 3 s after the first few pages, so the deletion lands in the middle of it
    // even on a loaded machine, and a crawl that kept going would ask for a page every ~150 ms.
    links.forEach((l, i) => {
      routes[l] = { body: page(`Page ${l}`, `<p>Content of page ${l} about topic${l.slice(2)}.</p>`), delayMs: i < 6 ? 20 : 300 };
    });
    const web = await site(routes);
    const { api, kbId, docs } = await setup({ urlSources: { crawlConcurrency: 2, progressIntervalMs: 50 } });
    const res = await api.post(docs, { url: `${web.origin}/`, crawl: { maxPages: 100, maxDepth: 1 } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'queued', format: 'crawl', source: 'crawl', chunkCount: 0 });
    const id = res.body.data.id;
    const midway = await waitForDocument(api, kbId, id, (d) => d.status === 'processing' && d.progress?.pagesFetched >= 4);
    expect(midway.progress).toMatchObject({
      maxPages: 100,
      maxDepth: 1,
      pagesQueued: expect.any(Number),
      pagesIndexed: expect.any(Number),
    });
    expect(midway.progress.pagesIndexed).toBeGreaterThan(0);

    expect((await api.del(`${docs}/${id}`)).status).toBe(200);
    // The runner notices within a poll (50 ms here; longer on a loaded machine): wait until no
    // request has come for 1 s (over three page times), then nothing more may come, and the
    // crawl stopped short of its pages.
    let seen = web.requests.length;
    let quietSince = Date.now();
    await until(
      'the crawl to stop fetching',
      async () => {
        if (web.requests.length !== seen) {
          seen = web.requests.length;
          quietSince = Date.now();
        }
        return Date.now() - quietSince >= 1_000;
      },
      15_000,
    );
    const fetchedAtStop = web.requests.length;
    await new Promise((r) => setTimeout(r, 1_000));
    expect(web.requests.length).toBe(fetchedAtStop);
    expect(fetchedAtStop).toBeLessThan(links.length);
    expect((await api.get(`${docs}/${id}`)).status).toBe(404);
    const { storage } = (server as TestServer).ctx;
    expect(await storage.get('SELECT count(*) AS n FROM documents WHERE id = ?', [id])).toEqual({ n: 0 });
    expect(await storage.get('SELECT count(*) AS n FROM chunks WHERE document_id = ?', [id])).toEqual({ n: 0 });
    expect(await storage.get('SELECT count(*) AS n FROM ingest_jobs')).toEqual({ n: 0 });
  });

  it('a shutdown in the middle of a crawl leaves the job queued; the next start finishes it', async () => {
    const links = Array.from({ length: 12 }, (_, i) => `/p${i}`);
    const routes: Record<string, string> = { '/': page('Home', '<p>Welcome home.</p>', { links }) };
    for (const l of links) routes[l] = page(`Page ${l}`, `<p>Details of section ${l} number${l.slice(2)}.</p>`);
    const web = await site(routes, { delayMs: 40 });
    const { openDb } = await import('../../db/open.js');
    const db = openDb(':memory:');
    const first = await startWebServer({ db, urlSources: { crawlConcurrency: 1 } });
    server = first;
    const { api } = await registerAccount(first.url);
    const kbId = (await api.post('/v1/knowledge-bases', { name: 'Web' })).body.data.id;
    const res = await api.post(`/v1/knowledge-bases/${kbId}/documents`, { url: `${web.origin}/`, crawl: { maxPages: 50, maxDepth: 1 } });
    await waitForDocument(api, kbId, res.body.data.id, (d) => d.progress?.pagesFetched >= 3);
    await first.close();
    server = null;
    expect(db.prepare('SELECT status, attempts FROM ingest_jobs').get()).toEqual({ status: 'queued', attempts: 0 });
    expect(db.prepare('SELECT status FROM documents').get()).toEqual({ status: 'queued' });

    server = await startWebServer({ db });
    const row = await (async () => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const r = db.prepare('SELECT status, chunk_count FROM documents').get() as { status: string; chunk_count: number };
        if (r.status === 'ready' || Date.now() > deadline) return r;
        await new Promise((x) => setTimeout(x, 25));
      }
    })();
    expect(row.status).toBe('ready');
    expect(db.prepare('SELECT count(DISTINCT url) AS n FROM chunks').get()).toEqual({ n: 13 });
    await server.close();
    server = null;
    db.close();
  });
});
