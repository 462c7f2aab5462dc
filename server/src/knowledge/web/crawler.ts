import crypto from 'node:crypto';
import { FetchError, type FetchResult, type Fetcher } from './fetcher.js';
import { IngestError, describeType, startPageError, statusError } from './ingest-error.js';
import { acceptsMime, readBody, resolveBase, type FetchedPage } from './page-reader.js';
import { crawlPacer, siteRobots } from './crawl-politeness.js';
import { readSitemaps, type RobotsRules } from './robots.js';
import { looksNonHtml, normalizeUrl } from './urls.js';

export interface CrawlProgress {
  [key: string]: number | string | null;
  pagesFetched: number;
  pagesQueued: number;
  pagesIndexed: number;
  pagesSkipped: number;
  pagesFailed: number;
  maxPages: number;
  maxDepth: number;
  skippedByRobots: number;
  skippedDuplicates: number;
  skippedNoindex: number;
  skippedNonHtml: number;
  skippedOffSite: number;
  sitemapUrls: number;
  crawlDelayMs: number;
  note: string | null;
}

export interface CrawlParams {
  startUrl: string;
  maxPages: number;
  maxDepth: number;
  fetcher: Fetcher;
  signal: AbortSignal;
  /** Parallel page fetches (1 when robots.txt sets a Crawl-delay). */
  concurrency?: number;
  /** Longest Crawl-delay honoured (ms); a longer one is cut to this. */
  maxCrawlDelayMs?: number;
  onProgress?: (progress: CrawlProgress) => void;
}

export interface CrawlResult {
  pages: FetchedPage[];
  /** The start page's title (the site's name, usually). */
  startTitle: string | null;
  bytes: number;
  progress: CrawlProgress;
}

interface Item {
  url: string;
  depth: number;
}

/**
 * Breadth-first crawl of one origin (scheme, host and port) from `startUrl`: robots.txt
 * (RFC 9309) and its Crawl-delay, sitemaps as seeds, `noindex`/`nofollow` (meta and
 * X-Robots-Tag), canonical links, duplicates by normalised URL and by content. Stops at
 * `maxPages` indexed pages. The start page failing fails the crawl; any other page only counts.
 */
export async function crawlSite(p: CrawlParams): Promise<CrawlResult> {
  const { fetcher, signal, maxPages, maxDepth } = p;
  const progress: CrawlProgress = {
    pagesFetched: 0,
    pagesQueued: 0,
    pagesIndexed: 0,
    pagesSkipped: 0,
    pagesFailed: 0,
    maxPages,
    maxDepth,
    skippedByRobots: 0,
    skippedDuplicates: 0,
    skippedNoindex: 0,
    skippedNonHtml: 0,
    skippedOffSite: 0,
    sitemapUrls: 0,
    crawlDelayMs: 0,
    note: null,
  };
  const report = (): void => {
    progress.pagesQueued = queue.length;
    p.onProgress?.({ ...progress });
  };
  const skip = (what: 'skippedByRobots' | 'skippedDuplicates' | 'skippedNoindex' | 'skippedNonHtml' | 'skippedOffSite' | null): void => {
    progress.pagesSkipped++;
    if (what) progress[what]++;
  };
  const queue: Item[] = [];
  const seen = new Set<string>(); // every URL queued, fetched, or indexed under (canonicals)
  const indexed = new Set<string>();
  const hashes = new Set<string>();
  const pages: FetchedPage[] = [];
  let bytes = 0;
  let startTitle: string | null = null;
  const frontierCap = Math.max(1000, maxPages * 40);
  const fetchBudget = maxPages * 4 + 20;

  let start = normalizeUrl(p.startUrl);
  if (!start) throw new IngestError(`${p.startUrl} is not an http(s) URL`, false);
  let origin = new URL(start).origin;

  const robotsFor = (o: string): Promise<RobotsRules> => siteRobots(fetcher, o, signal);
  let robots = await robotsFor(origin);
  if (!robots.allows(start)) throw new IngestError(`robots.txt of ${origin} does not allow ParleyBot to fetch ${start}`, false);

  // The start page alone first: it may redirect (http → https, to www.), and its failure is the crawl's.
  let res: FetchResult;
  try {
    res = await fetcher.fetch(start, { signal, acceptMime: acceptsMime });
  } catch (err) {
    throw startPageError(err, start);
  }
  progress.pagesFetched++;
  if (res.status < 200 || res.status > 299) throw statusError(res.status, start);
  if (!res.body) throw new IngestError(`${start} is ${describeType(res.mime)}`, false);
  seen.add(start);
  const landed = normalizeUrl(res.url) ?? res.url;
  if (new URL(landed).origin !== origin) {
    // The site lives elsewhere (https, www.): crawl that origin, under its own robots.txt.
    origin = new URL(landed).origin;
    robots = await robotsFor(origin);
    if (!robots.allows(landed)) throw new IngestError(`robots.txt of ${origin} does not allow ParleyBot to fetch ${landed}`, false);
  }
  start = landed;
  seen.add(start);
  const delayMs = Math.min(robots.crawlDelayMs ?? 0, p.maxCrawlDelayMs ?? 2000);
  progress.crawlDelayMs = delayMs;
  const concurrency = delayMs > 0 ? 1 : Math.max(1, Math.min(p.concurrency ?? 4, 8));

  /** Adds a same-origin URL to the frontier once; robots and file types are judged here. */
  const enqueue = (url: string, depth: number): void => {
    if (seen.has(url) || depth > maxDepth) return;
    if (new URL(url).origin !== origin) return;
    seen.add(url);
    if (looksNonHtml(url)) {
      skip('skippedNonHtml');
      return;
    }
    if (!robots.allows(url)) {
      skip('skippedByRobots');
      return;
    }
    if (seen.size > frontierCap) {
      progress.note = 'frontier full: some links were not followed';
      return;
    }
    queue.push({ url, depth });
  };

  /** Reads a fetched page: follows its links, indexes it unless it is a duplicate or noindex. */
  const take = (item: Item, fetched: FetchResult & { body: Buffer }): void => {
    const page = readBody(fetched);
    const pageUrl = normalizeUrl(fetched.url) ?? item.url;
    if (item.depth === 0) startTitle = page.title;
    if (item.depth < maxDepth && !page.nofollow) {
      const base = resolveBase(page.baseHref, pageUrl);
      for (const link of page.links) {
        if (link.nofollow) continue;
        const url = normalizeUrl(link.href, base);
        if (url) enqueue(url, item.depth + 1);
      }
    }
    if (page.noindex) {
      skip('skippedNoindex');
      return;
    }
    let indexAs = pageUrl;
    const canonical = page.canonical ? normalizeUrl(page.canonical, resolveBase(page.baseHref, pageUrl)) : null;
    if (canonical && canonical !== pageUrl && new URL(canonical).origin === origin) {
      if (indexed.has(canonical)) {
        skip('skippedDuplicates');
        return;
      }
      seen.add(canonical); // the canonical page itself need not be fetched again
      indexAs = canonical;
    }
    if (indexed.has(indexAs)) {
      skip('skippedDuplicates');
      return;
    }
    const normalizedText = page.text.replace(/\s+/g, ' ').trim();
    if (!normalizedText) {
      skip(null);
      return;
    }
    const hash = crypto.createHash('sha256').update(normalizedText.toLowerCase()).digest('base64');
    if (hashes.has(hash)) {
      skip('skippedDuplicates');
      return;
    }
    if (pages.length >= maxPages) return;
    hashes.add(hash);
    indexed.add(indexAs);
    pages.push({
      url: indexAs,
      title: page.title,
      text: page.text,
      format: page.format,
      sourceFormat: page.sourceFormat,
      bytes: fetched.body.length,
    });
    bytes += fetched.body.length;
    progress.pagesIndexed = pages.length;
  };

  take({ url: start, depth: 0 }, res as FetchResult & { body: Buffer });

  if (maxDepth >= 1 && pages.length < maxPages) {
    const seeds = [...robots.sitemaps, `${origin}/sitemap.xml`];
    const { urls } = await readSitemaps(fetcher, seeds, origin, { maxFiles: 10, maxUrls: Math.min(10_000, maxPages * 10) }, signal).catch(
      (err: unknown) => {
        if (err instanceof FetchError && err.kind === 'aborted') throw err;
        return { urls: [] as string[] };
      },
    );
    progress.sitemapUrls = urls.length;
    for (const url of urls) enqueue(url, 1);
  }
  report();

  // Workers share the queue; a worker with nothing to do waits for one in flight to add links.
  let active = 0;
  let fetches = progress.pagesFetched;
  const nextTurn = crawlPacer(delayMs, signal, start);
  let waiters: (() => void)[] = [];
  const wake = (): void => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };

  const visit = async (item: Item): Promise<void> => {
    await nextTurn();
    let fetched: FetchResult;
    try {
      // Redirects are not followed here but queued like links: a target already seen costs nothing.
      fetched = await fetcher.fetch(item.url, { signal, acceptMime: acceptsMime, followRedirects: false });
    } catch (err) {
      if (err instanceof FetchError && err.kind === 'aborted') throw err;
      if (err instanceof FetchError && err.kind === 'too_large') skip(null);
      else progress.pagesFailed++;
      return;
    }
    progress.pagesFetched++;
    const location = fetched.headers.location;
    if (fetched.status >= 300 && fetched.status < 400 && typeof location === 'string') {
      const target = normalizeUrl(location, item.url);
      if (!target || new URL(target).origin !== origin) skip('skippedOffSite');
      else if (seen.has(target)) skip('skippedDuplicates');
      else enqueue(target, item.depth);
      return;
    }
    if (fetched.status < 200 || fetched.status > 299) {
      progress.pagesFailed++;
      return;
    }
    if (!fetched.body) {
      skip('skippedNonHtml');
      return;
    }
    take(item, fetched as FetchResult & { body: Buffer });
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      if (signal.aborted) throw new FetchError('fetch cancelled', 'aborted', start as string);
      if (pages.length >= maxPages) return;
      if (fetches >= fetchBudget) {
        progress.note = `stopped after ${fetches} fetches`;
        return;
      }
      const item = queue.shift();
      if (!item) {
        if (active === 0) return;
        await new Promise<void>((resolve) => waiters.push(resolve));
        continue;
      }
      active++;
      fetches++;
      try {
        await visit(item);
      } finally {
        active--;
        report();
        wake();
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  progress.pagesQueued = queue.length;
  if (pages.length >= maxPages && queue.length) progress.note = `stopped at maxPages (${maxPages})`;
  return { pages, startTitle, bytes, progress: { ...progress } };
}
