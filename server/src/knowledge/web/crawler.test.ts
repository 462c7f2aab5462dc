import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { registerAccount } from '../../../test/http.js';
import type { TestServer } from '../../../test/test-server.js';
import { fakeSite, page, search, settled, startWebServer, waitForDocument, type FakeSite } from '../../../test/fake-site.js';
import type { UrlSourceTuning } from './url-sources.js';

let server: TestServer | null = null;
const sites: FakeSite[] = [];
afterEach(async () => {
  await server?.close();
  server = null;
  for (const s of sites.splice(0)) await s.close();
});

async function setup(urlSources: UrlSourceTuning = {}) {
  server = await startWebServer({ urlSources });
  const { api } = await registerAccount(server.url);
  const kbId = (await api.post('/v1/knowledge-bases', { name: 'Site' })).body.data.id as string;
  return { api, kbId, docs: `/v1/knowledge-bases/${kbId}/documents` };
}

async function site(routes: Parameters<typeof fakeSite>[0] = {}) {
  const s = await fakeSite(routes);
  sites.push(s);
  return s;
}

/** Crawls and waits for the document to settle; returns it with the pages its chunks came from. */
async function crawl(ctx: Awaited<ReturnType<typeof setup>>, url: string, opts: { maxPages?: number; maxDepth?: number } = {}) {
  const res = await ctx.api.post(ctx.docs, { url, crawl: opts });
  expect(res.status).toBe(201);
  expect(res.body.data).toMatchObject({ status: 'queued', format: 'crawl', source: 'crawl' });
  const doc = await waitForDocument(ctx.api, ctx.kbId, res.body.data.id, settled);
  const rows = await (server as TestServer).ctx.storage.all<{ url: string }>(
    'SELECT DISTINCT url FROM chunks WHERE document_id = ? ORDER BY url',
    [doc.id],
  );
  return { doc, pages: rows.map((r) => r.url) };
}

describe('crawling a site', () => {
  it('follows same-site links breadth-first within maxDepth, honouring robots.txt, sitemaps, canonicals, noindex/nofollow and duplicates', async () => {
    const other = await site({
      '/': page('Elsewhere', '<p>Another site entirely, offsiteword.</p>'),
      '/landing': page('Landing', '<p>Offsite landing.</p>'),
    });
    const web = await site();
    const o = web.origin;
    const routes: Record<string, Parameters<FakeSite['set']>[1]> = {
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        // Our own group applies (not "*", which would forbid everything).
        body: `User-agent: *\nDisallow: /\n\nUser-agent: ParleyBot\nDisallow: /private/\nCrawl-delay: 1\nSitemap: ${o}/sitemap-index.xml\n`,
      },
      '/sitemap-index.xml': {
        headers: { 'content-type': 'application/xml' },
        body: `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${o}/sitemap-pages.xml</loc></sitemap><sitemap><loc>${o}/sitemap-more.xml.gz</loc></sitemap></sitemapindex>`,
      },
      '/sitemap-pages.xml': {
        headers: { 'content-type': 'application/xml' },
        body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${o}/only-in-sitemap</loc></url><url><loc>${other.origin}/landing</loc></url><url><loc>${o}/a?utm_source=sitemap&amp;utm_medium=xml</loc></url></urlset>`,
      },
      '/sitemap-more.xml.gz': {
        headers: { 'content-type': 'application/x-gzip' },
        body: zlib.gzipSync(`<urlset><url><loc><![CDATA[${o}/gz-page]]></loc></url></urlset>`),
      },
      '/': page('Acme Docs', '<p>Welcome to the Acme documentation homepage.</p>', {
        links: [
          '/a',
          '/b?utm_source=nav',
          '/b#section',
          '/c',
          `${other.origin}/`,
          '/guide.pdf',
          '/private/secret',
          '/noindex',
          '/nofollow',
          '/dup-1',
          '/dup-2',
          '/variant',
          '/canonical',
          '/redirect-out',
          '/redirect-in',
          '/deep1',
          '/notes.txt',
          'mailto:help@acme.example',
          'javascript:void(0)',
        ],
      }),
      '/a': page('Alpha', '<p>Alpha explains the aardvark feature.</p>'),
      '/b': page('Bravo', '<p>Bravo covers the bandwidth limits.</p>'),
      '/c': page('Charlie', '<p>Charlie describes the calendar sync.</p>', { links: ['/', '/a'] }),
      '/private/secret': page('Secret', '<p>Internal salaries spreadsheet.</p>'),
      '/guide.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' },
      '/noindex': page('Hidden', '<p>Unlisted staging notes hiddenword.</p>', {
        head: '<meta name="robots" content="noindex">',
        links: ['/from-noindex'],
      }),
      '/from-noindex': page('Found via noindex', '<p>Reachable through a noindex page: foxtrot.</p>'),
      '/nofollow': page('No follow', '<p>Index me but not my links: golf.</p>', {
        head: '<meta name="ParleyBot" content="nofollow">',
        links: ['/never'],
      }),
      '/never': page('Never', '<p>Should never be fetched.</p>'),
      '/dup-1': page('Duplicate', '<p>The very same text served at two addresses: hotel.</p>'),
      '/dup-2': page('Duplicate', '<p>The very same text served at two addresses: hotel.</p>'),
      '/variant': page('Canonical page', '<p>Printer-friendly variant of india.</p>', { head: '<link rel="canonical" href="/canonical">' }),
      '/canonical': page('Canonical page', '<p>The canonical page about india, juliet.</p>'),
      '/redirect-out': { status: 302, headers: { location: `${other.origin}/landing` } },
      '/redirect-in': { status: 301, headers: { location: '/a' } },
      '/deep1': page('Deep 1', '<p>Depth one kilo.</p>', { links: ['/deep2'] }),
      '/deep2': page('Deep 2', '<p>Depth two lima.</p>', { links: ['/deep3'] }),
      '/deep3': page('Deep 3', '<p>Depth three mike.</p>'),
      '/only-in-sitemap': page('Sitemap only', '<p>Only the sitemap links here: november.</p>'),
      '/gz-page': page('Gzipped sitemap page', '<p>Listed in a gzipped sitemap: oscar.</p>'),
      '/notes.txt': { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Plain text release notes: papa.' },
    };
    for (const [path, route] of Object.entries(routes)) web.set(path, route);
    const ctx = await setup();
    const { doc, pages } = await crawl(ctx, `${o}/`, { maxPages: 50, maxDepth: 2 });

    expect(doc).toMatchObject({ status: 'ready', title: 'Acme Docs', url: `${o}/`, error: null });
    expect(pages).toEqual(
      [
        `${o}/`,
        `${o}/a`,
        `${o}/b`,
        `${o}/c`,
        `${o}/canonical`,
        `${o}/deep1`,
        `${o}/deep2`,
        `${o}/dup-1`,
        `${o}/from-noindex`,
        `${o}/gz-page`,
        `${o}/nofollow`,
        `${o}/notes.txt`,
        `${o}/only-in-sitemap`,
      ].sort(),
    );
    const fetched = new Set(web.requests);
    for (const never of ['/private/secret', '/guide.pdf', '/never', '/deep3', '/dup-3']) expect(fetched.has(never), never).toBe(false);
    expect(web.requests.filter((r) => r === '/b' || r.startsWith('/b?'))).toEqual(['/b']); // one spelling, fetched once
    expect(web.requests.filter((r) => r === '/a')).toHaveLength(1);
    expect(other.requests).toEqual([]); // off-site links, sitemap entries and redirects are not followed
    expect(doc.progress).toMatchObject({
      pagesIndexed: 13,
      maxPages: 50,
      maxDepth: 2,
      pagesQueued: 0,
      skippedByRobots: 1,
      skippedNonHtml: 1,
      skippedNoindex: 1,
      skippedOffSite: 1,
      crawlDelayMs: 0,
      sitemapUrls: 3,
    });
    expect(doc.progress.skippedDuplicates).toBeGreaterThanOrEqual(2); // dup-2 (same text), redirect-in (→ /a); the variant is indexed as /canonical
    expect(doc.chunkCount).toBeGreaterThanOrEqual(13);

    const hit = async (q: string) => (await search(ctx.api, ctx.kbId, q))[0];
    expect(await hit('aardvark')).toMatchObject({ documentId: doc.id, title: 'Alpha', url: `${o}/a` }); // its <h1> has no id: no anchor
    expect((await hit('papa')).url).toBe(`${o}/notes.txt`);
    expect((await search(ctx.api, ctx.kbId, 'india')).map((h) => h.url.split('#')[0])).toEqual([`${o}/canonical`]);
    expect(await search(ctx.api, ctx.kbId, 'hotel')).toHaveLength(1);
    for (const absent of ['hiddenword', 'salaries', 'offsiteword', 'footerword'])
      expect(await search(ctx.api, ctx.kbId, absent), absent).toEqual([]);
  });

  it('stops at maxPages, and maxDepth 0 is the start page alone', async () => {
    const links = Array.from({ length: 20 }, (_, i) => `/p${i}`);
    const routes: Record<string, string> = { '/': page('Home', '<p>Start here.</p>', { links }) };
    for (const l of links) routes[l] = page(`Page ${l}`, `<p>Page ${l} content number ${l.slice(2)} unique${l.slice(2)}.</p>`);
    const web = await site(routes);
    const ctx = await setup();
    const limited = await crawl(ctx, `${web.origin}/`, { maxPages: 5 });
    expect(limited.pages).toHaveLength(5);
    expect(limited.doc.progress).toMatchObject({ pagesIndexed: 5, maxPages: 5, maxDepth: 2 });
    expect(limited.doc.progress.note).toMatch(/maxPages/);
    expect(web.requests.filter((r) => r.startsWith('/p')).length).toBeLessThanOrEqual(5 + 4); // at most a few in flight when the limit was hit

    const alone = await crawl(ctx, `${web.origin}/p3`, { maxDepth: 0 });
    expect(alone.pages).toEqual([`${web.origin}/p3`]);
  });

  it('honours Crawl-delay (capped) with one request at a time', async () => {
    const web = await site({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nCrawl-delay: 30\n' },
      '/': page('Home', '<p>Slow and steady.</p>', { links: ['/1', '/2', '/3'] }),
      '/1': page('One', '<p>First page quebec.</p>'),
      '/2': page('Two', '<p>Second page romeo.</p>'),
      '/3': page('Three', '<p>Third page sierra.</p>'),
    });
    const stamps: number[] = [];
    for (const p of ['/1', '/2', '/3']) {
      const html = web.routes.get(p) as string;
      web.set(p, (_req, res) => {
        stamps.push(Date.now());
        res.writeHead(200, { 'content-type': 'text/html' }).end(html);
      });
    }
    const ctx = await setup({ maxCrawlDelayMs: 400 });
    const { doc, pages } = await crawl(ctx, `${web.origin}/`);
    expect(pages).toHaveLength(4);
    expect(doc.progress.crawlDelayMs).toBe(400);
    // Spaced by the client; arrival jitter on a busy machine can eat part of one gap (one request
    // reaching the site late shortens the next gap: with a 150 ms delay a 50 ms floor failed in
    // CI), so each gap is checked loosely and the sum nearly exactly: without the delay all three
    // would arrive within a few milliseconds.
    for (let i = 1; i < stamps.length; i++) expect((stamps[i] as number) - (stamps[i - 1] as number)).toBeGreaterThanOrEqual(200);
    expect((stamps[2] as number) - (stamps[0] as number)).toBeGreaterThanOrEqual(760);
  });

  it('a start page redirecting to another origin moves the crawl there (http → https, www.)', async () => {
    const target = await site({
      '/home': page('Moved', '<p>The site moved here: tango.</p>', { links: ['/next'] }),
      '/next': page('Next', '<p>Next page uniform.</p>'),
    });
    const web = await site({ '/': { status: 301, headers: { location: `${target.origin}/home` } } });
    const ctx = await setup();
    const { doc, pages } = await crawl(ctx, `${web.origin}/`);
    expect(doc.status).toBe('ready');
    expect(pages).toEqual([`${target.origin}/home`, `${target.origin}/next`]);
  });
});

describe('a crawl that cannot start', () => {
  it('fails for good: 404 start page, robots.txt disallowing it, nothing indexable', async () => {
    const web = await site({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: ParleyBot\nDisallow: /blocked\n' },
      '/blocked': page('Blocked', '<p>No robots here.</p>'),
      '/all-noindex': page('Nothing', '<p>Do not index.</p>', { head: '<meta name="robots" content="noindex, nofollow">' }),
    });
    const ctx = await setup({ retryDelaysMs: [] });
    const missing = await crawl(ctx, `${web.origin}/missing`);
    expect(missing.doc).toMatchObject({ status: 'failed', error: `${web.origin}/missing answered HTTP 404`, chunkCount: 0 });
    const blocked = await crawl(ctx, `${web.origin}/blocked`);
    expect(blocked.doc.error).toBe(`robots.txt of ${web.origin} does not allow ParleyBot to fetch ${web.origin}/blocked`);
    expect(web.requests).not.toContain('/blocked');
    const empty = await crawl(ctx, `${web.origin}/all-noindex`);
    expect(empty.doc).toMatchObject({ status: 'failed' });
    expect(empty.doc.error).toMatch(/^No indexable page found from .*\/all-noindex \(1 fetched, 1 skipped, 0 failed\)$/);
  });

  it('robots.txt answering 5xx means no crawling (RFC 9309): retried, then failed; 404 robots.txt allows everything', async () => {
    let robotsCalls = 0;
    const web = await site({
      '/robots.txt': (_req, res) => {
        robotsCalls++;
        res.writeHead(503).end();
      },
      '/': page('Home', '<p>Home page victor.</p>'),
    });
    const ctx = await setup({ retryDelaysMs: [30, 30] });
    const { doc } = await crawl(ctx, `${web.origin}/`);
    expect(doc).toMatchObject({ status: 'failed', error: 'robots.txt answered 503: the site is not crawled until it answers (RFC 9309)' });
    expect(robotsCalls).toBe(3);
    expect(web.requests).not.toContain('/');
    web.routes.delete('/robots.txt');
    const ok = await crawl(ctx, `${web.origin}/`);
    expect(ok.doc.status).toBe('ready');
  });
});
