import type { DocumentFormat } from '../chunking.js';
import { decodeBody, type FetchResult } from './fetcher.js';
import { extractHtmlPage, type PageLink } from './main-content.js';
import { normalizeUrl } from './urls.js';

/** A fetched body read as text by its type, with what it says about indexing and following. */

/** One page worth indexing. */
export interface FetchedPage {
  /** The page's own URL: its canonical URL when it names one on the same site, else where it was fetched from. */
  url: string;
  title: string | null;
  text: string;
  format: DocumentFormat;
  /** What the server sent: an HTML page, plain text or markdown. */
  sourceFormat: 'html' | 'text' | 'markdown';
  bytes: number;
}

const HTML_MIMES = new Set(['text/html', 'application/xhtml+xml']);
const MARKDOWN_MIMES = new Set(['text/markdown', 'text/x-markdown']);
/** What we index: web pages, plain text, markdown ('' = the server did not say: sniffed). */
export const acceptsMime = (mime: string): boolean =>
  HTML_MIMES.has(mime) || MARKDOWN_MIMES.has(mime) || mime === 'text/plain' || mime === '';

export interface ReadPage {
  title: string | null;
  text: string;
  format: DocumentFormat;
  sourceFormat: FetchedPage['sourceFormat'];
  links: PageLink[];
  baseHref: string | null;
  canonical: string | null;
  noindex: boolean;
  nofollow: boolean;
}

/** `X-Robots-Tag: noindex, nofollow` (or scoped, `parleybot: noindex`) applies like the meta tag. */
function headerRobots(res: FetchResult): { noindex: boolean; nofollow: boolean } {
  const raw = res.headers['x-robots-tag'];
  let noindex = false;
  let nofollow = false;
  for (let value of Array.isArray(raw) ? raw : raw ? [raw] : []) {
    const scoped = /^\s*([a-z][\w-]*)\s*:\s*(.*)$/i.exec(value);
    // "googlebot: noindex" is for another crawler; "max-snippet: 20" is a directive, not a scope.
    if (scoped && !/^(?:max-|unavailable_after)/i.test(scoped[1] as string)) {
      if ((scoped[1] as string).toLowerCase() !== 'parleybot') continue;
      value = scoped[2] as string;
    }
    const words = value.toLowerCase().split(/[\s,]+/);
    if (words.includes('none') || words.includes('noindex')) noindex = true;
    if (words.includes('none') || words.includes('nofollow')) nofollow = true;
  }
  return { noindex, nofollow };
}

/** A fetched body as text, by its type: HTML through main-content extraction. */
export function readBody(res: FetchResult & { body: Buffer }): ReadPage {
  const text = decodeBody(res.body, res.mime, res.charset);
  const header = headerRobots(res);
  const sniffedHtml = res.mime === '' && /^\s*(?:<!doctype html|<html|<head|<body|<!--|<meta|<title)/i.test(text);
  if (HTML_MIMES.has(res.mime) || sniffedHtml) {
    const page = extractHtmlPage(text);
    // The extracted text is markdown already: chunked as such, not parsed as HTML again.
    return {
      ...page,
      format: 'markdown',
      sourceFormat: 'html',
      noindex: page.noindex || header.noindex,
      nofollow: page.nofollow || header.nofollow,
    };
  }
  const markdown = MARKDOWN_MIMES.has(res.mime);
  const title = markdown ? (/^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? null) : null;
  const format = markdown ? 'markdown' : 'text';
  return {
    title,
    text: text.trim(),
    format,
    sourceFormat: format,
    links: [],
    baseHref: null,
    canonical: null,
    noindex: header.noindex,
    nofollow: header.nofollow,
  };
}

/** Where a page's relative links resolve from: its `<base href>` when it names one. */
export const resolveBase = (baseHref: string | null, pageUrl: string): string =>
  baseHref ? (normalizeUrl(baseHref, pageUrl) ?? pageUrl) : pageUrl;
