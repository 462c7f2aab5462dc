import zlib from 'node:zlib';
import robotsParserModule from 'robots-parser';
import { decodeEntities } from '../html-to-text.js';
import { FetchError, decodeBody, type Fetcher } from './fetcher.js';
import { normalizeUrl } from './urls.js';

interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}
/**
 * robots-parser is CommonJS (`module.exports = fn`) but its typings declare a default export:
 * under NodeNext the default import is the function at run time, typed as the namespace.
 */
const robotsParser = ((robotsParserModule as { default?: unknown }).default ?? robotsParserModule) as (
  url: string,
  contents: string,
) => Robot;

/** Our product token in robots.txt groups (`User-agent: ParleyBot`); `*` applies otherwise. */
export const BOT_TOKEN = 'ParleyBot';

export interface RobotsRules {
  allows(url: string): boolean;
  /** `Crawl-delay` for our group (or `*`), in ms, uncapped; null when absent. */
  crawlDelayMs: number | null;
  /** `Sitemap:` lines, absolute. */
  sitemaps: string[];
  /** Why everything is allowed/what was read, for the document's progress. */
  note: string;
}

/** robots.txt could not be read because the site failed (5xx, network): RFC 9309 says crawl nothing. */
export class RobotsUnreachableError extends Error {
  constructor(
    message: string,
    readonly transient = true,
  ) {
    super(message);
  }
}

const ALLOW_ALL = (note: string): RobotsRules => ({ allows: () => true, crawlDelayMs: null, sitemaps: [], note });

/**
 * Reads `{origin}/robots.txt` (RFC 9309): 2xx → its rules (the first 500 KiB); 4xx → no
 * rules ("unavailable": crawl everything); 5xx or a network failure → "unreachable": nothing
 * may be crawled, so this throws and the job retries later. Redirects are followed (up to 5).
 */
export async function loadRobots(fetcher: Fetcher, origin: string, signal?: AbortSignal): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`;
  let res;
  try {
    res = await fetcher.fetch(robotsUrl, { signal, accept: 'text/plain,*/*;q=0.5', maxBytes: 500 * 1024, truncate: true });
  } catch (err) {
    if (err instanceof FetchError && (err.kind === 'network' || err.kind === 'timeout')) {
      throw new RobotsUnreachableError(`robots.txt could not be read (${err.message}): the site is not crawled until it can be (RFC 9309)`);
    }
    if (err instanceof FetchError && (err.kind === 'redirect' || err.kind === 'invalid'))
      return ALLOW_ALL(`robots.txt unusable (${err.message}): no rules`);
    throw err;
  }
  if (res.status >= 500 || res.status === 429) {
    throw new RobotsUnreachableError(`robots.txt answered ${res.status}: the site is not crawled until it answers (RFC 9309)`);
  }
  if (res.status >= 400) return ALLOW_ALL(`robots.txt ${res.status}: no rules`);
  if (res.status < 200 || res.status > 299 || !res.body) return ALLOW_ALL(`robots.txt ${res.status}: no rules`);
  const text = decodeBody(res.body, 'text/plain', res.charset);
  // The rules apply to the origin asked about, even when its robots.txt was served after a redirect.
  const robots = robotsParser(robotsUrl, text);
  const delay = robots.getCrawlDelay(BOT_TOKEN);
  return {
    // `undefined`: the URL is on another origin than robots.txt's; we never ask about those.
    allows: (url) => robots.isAllowed(url, BOT_TOKEN) !== false,
    crawlDelayMs: typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? delay * 1000 : null,
    sitemaps: robots
      .getSitemaps()
      .map((s) => normalizeUrl(s, robotsUrl))
      .filter((s): s is string => s !== null),
    note: 'robots.txt read',
  };
}

export interface SitemapLimits {
  maxFiles: number;
  maxUrls: number;
}

/**
 * Page URLs listed by sitemaps (`<urlset>`, following `<sitemapindex>` entries; gzip bodies
 * too), same-origin only, at most `maxUrls` from at most `maxFiles` files. A sitemap that
 * cannot be fetched or parsed is skipped: sitemaps only seed the crawl.
 */
export async function readSitemaps(
  fetcher: Fetcher,
  seeds: string[],
  origin: string,
  limits: SitemapLimits,
  signal?: AbortSignal,
): Promise<{ urls: string[]; files: number }> {
  const queue = [...new Set(seeds)].filter((s) => sameOrigin(s, origin));
  const seenFiles = new Set<string>(queue);
  const urls = new Set<string>();
  let files = 0;
  while (queue.length && files < limits.maxFiles && urls.size < limits.maxUrls) {
    const file = queue.shift() as string;
    files++;
    let xml: string;
    try {
      const res = await fetcher.fetch(file, { signal, accept: 'application/xml,text/xml;q=0.9,*/*;q=0.5', sameOrigin: true });
      if (!res.body) continue;
      let body = res.body;
      if (body[0] === 0x1f && body[1] === 0x8b) body = zlib.gunzipSync(body, { maxOutputLength: 50 * 1024 * 1024 });
      xml = decodeBody(body, 'application/xml', res.charset);
    } catch (err) {
      if (err instanceof FetchError && (err.kind === 'aborted' || err.kind === 'blocked')) throw err;
      continue;
    }
    const isIndex = /<sitemapindex[\s>]/i.test(xml);
    for (const loc of locs(xml, isIndex ? 'sitemap' : 'url')) {
      const url = normalizeUrl(loc);
      if (!url || !sameOrigin(url, origin)) continue;
      if (isIndex) {
        if (!seenFiles.has(url)) {
          seenFiles.add(url);
          queue.push(url);
        }
      } else {
        urls.add(url);
        if (urls.size >= limits.maxUrls) break;
      }
    }
  }
  return { urls: [...urls], files };
}

/** `<loc>` of every `<url>` (or `<sitemap>`) entry; CDATA and entities handled, namespaces prefixes tolerated. */
function locs(xml: string, entry: 'url' | 'sitemap'): string[] {
  const out: string[] = [];
  const entryRe = new RegExp(`<(?:[\\w-]+:)?${entry}[\\s>][\\s\\S]*?</(?:[\\w-]+:)?${entry}\\s*>`, 'gi');
  for (const m of xml.matchAll(entryRe)) {
    const loc = /<(?:[\w-]+:)?loc\s*>\s*(?:<!\[CDATA\[)?([\s\S]*?)(?:\]\]>)?\s*<\/(?:[\w-]+:)?loc\s*>/i.exec(m[0]);
    if (loc?.[1]) out.push(decodeEntities(loc[1].trim()));
  }
  return out;
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
