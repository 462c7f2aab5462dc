import { FetchError } from './fetcher.js';

/** A failure of a whole fetch or crawl; `transient` ones are retried by the job runner. */
export class IngestError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export const isTransientStatus = (status: number): boolean => status >= 500 || status === 429 || status === 408;

export function describeType(mime: string): string {
  return `${mime || 'of no declared type'}, not a web page (text/html, text/plain or text/markdown)`;
}

/** A fetch failure of the page the user named, as the document's error. */
export function startPageError(err: unknown, url: string): IngestError {
  if (err instanceof FetchError) {
    if (err.kind === 'aborted') throw err;
    return new IngestError(
      err.kind === 'timeout' || err.kind === 'network' ? `Could not fetch ${url}: ${err.message}` : err.message,
      err.transient,
    );
  }
  if (err instanceof IngestError) return err;
  return new IngestError(`Could not fetch ${url}: ${(err as Error).message ?? String(err)}`, false);
}

export function statusError(status: number, url: string): IngestError {
  return new IngestError(`${url} answered HTTP ${status}`, isTransientStatus(status));
}
