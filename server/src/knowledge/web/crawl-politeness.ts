import { FetchError, type Fetcher } from './fetcher.js';
import { IngestError, startPageError } from './ingest-error.js';
import { RobotsUnreachableError, loadRobots, type RobotsRules } from './robots.js';

/** How a crawl keeps to a site's wishes: its robots.txt, and the Crawl-delay between requests. */

/** An origin's robots.txt; failing to read it fails the crawl (transient when robots.ts says so). */
export async function siteRobots(fetcher: Fetcher, origin: string, signal: AbortSignal): Promise<RobotsRules> {
  try {
    return await loadRobots(fetcher, origin, signal);
  } catch (err) {
    if (err instanceof RobotsUnreachableError) throw new IngestError(err.message, err.transient);
    throw startPageError(err, `${origin}/robots.txt`);
  }
}

/** Waits `ms`; a cancelled crawl rejects at once, as an aborted fetch of `url`. */
const pause = (ms: number, signal: AbortSignal, url: string): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new FetchError('fetch cancelled', 'aborted', url));
      return;
    }
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(new FetchError('fetch cancelled', 'aborted', url));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Spaces a crawl's requests `delayMs` apart (robots.txt's Crawl-delay; 0: no wait): each call
 * waits for the next free slot. Made right after the start page's fetch, the first request.
 */
export function crawlPacer(delayMs: number, signal: AbortSignal, startUrl: string): () => Promise<void> {
  let nextSlot = Date.now() + delayMs; // the start page was the first request
  return async (): Promise<void> => {
    if (delayMs > 0) {
      const wait = nextSlot - Date.now();
      nextSlot = Math.max(nextSlot, Date.now()) + delayMs;
      if (wait > 0) await pause(wait, signal, startUrl);
    }
  };
}
