/** URL helpers for fetching and crawling: one spelling per page, origins, links worth following. */

/** Query parameters that only track a visit: dropped so the same page is not crawled twice. */
const TRACKING_PARAM_RE = /^(?:utm_[a-z_]+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|_ga|_gl|yclid|igshid)$/i;

/**
 * Links to files we cannot index (or would only waste a fetch on). Pages are told apart by
 * their Content-Type when fetched; this only saves requests for the obvious cases.
 */
const NON_HTML_EXT_RE =
  /\.(?:pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|dmg|exe|msi|pkg|deb|rpm|apk|iso|bin|img|png|jpe?g|gif|webp|avif|bmp|ico|svg|tiff?|psd|mp3|mp4|m4a|m4v|wav|ogg|oga|ogv|webm|flac|aac|mov|avi|mkv|wmv|flv|woff2?|ttf|otf|eot|css|js|mjs|map|json|xml|rss|atom|csv|xlsx?|docx?|pptx?|odt|ods|odp|rtf|epub|wasm|jar|swf)$/i;

/**
 * The one spelling of a URL used to recognise a page already seen: absolute, http(s) only, no
 * fragment, no credentials, no tracking parameters. WHATWG parsing already lower-cases the
 * host, drops default ports, resolves dot segments and percent-encodes what it must.
 * Returns null for anything we would not fetch (mailto:, javascript:, unparsable…).
 */
export function normalizeUrl(raw: string, base?: string): string | null {
  let url: URL;
  try {
    url = base === undefined ? new URL(raw.trim()) : new URL(raw.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || !url.hostname) return null;
  url.hash = '';
  if (url.search) {
    const kept = [...url.searchParams].filter(([k]) => !TRACKING_PARAM_RE.test(k));
    if (kept.length !== [...url.searchParams].length) {
      url.search = kept.length ? new URLSearchParams(kept).toString() : '';
    }
  }
  return url.href;
}

/** scheme://host[:port] of an absolute URL (default ports omitted). */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** Whether the path ends in an extension of something that is not a web page. */
export function looksNonHtml(url: string): boolean {
  try {
    return NON_HTML_EXT_RE.test(new URL(url).pathname);
  } catch {
    return true;
  }
}
