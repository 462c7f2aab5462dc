import type { Fetcher, FetchResult } from './fetcher.js';
import { IngestError, describeType, startPageError, statusError } from './ingest-error.js';
import { acceptsMime, readBody, resolveBase, type FetchedPage } from './page-reader.js';
import { normalizeUrl } from './urls.js';

/** Fetches one page (redirects followed anywhere the address guard allows). */
export async function fetchSinglePage(fetcher: Fetcher, url: string, signal?: AbortSignal): Promise<FetchedPage> {
  let res: FetchResult;
  try {
    res = await fetcher.fetch(url, { signal, acceptMime: acceptsMime });
  } catch (err) {
    throw startPageError(err, url);
  }
  if (res.status < 200 || res.status > 299) throw statusError(res.status, url);
  if (!res.body) throw new IngestError(`${url} is ${describeType(res.mime)}`, false);
  const page = readBody(res as FetchResult & { body: Buffer });
  if (!page.text.trim()) throw new IngestError(`${url} has no indexable text`, false);
  const final = normalizeUrl(res.url) ?? res.url;
  const canonical = page.canonical ? normalizeUrl(page.canonical, resolveBase(page.baseHref, final)) : null;
  const pageUrl = canonical && new URL(canonical).origin === new URL(final).origin ? canonical : final;
  return { url: pageUrl, title: page.title, text: page.text, format: page.format, sourceFormat: page.sourceFormat, bytes: res.body.length };
}
