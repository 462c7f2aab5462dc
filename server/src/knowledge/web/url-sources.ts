import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { DocumentRecord, KnowledgeStore } from '../store.js';

/** Documents fetched from the web: one page or a crawl, run as background jobs. Placeholder. */
export function createUrlSources(_ctx: AppContext, _store: KnowledgeStore) {
  return {
    /** `{url, crawl?}` from POST /documents. */
    async add(_knowledgeBaseId: string, _body: unknown): Promise<DocumentRecord> {
      throw new AppError('validation_error', 'Fetching documents from a URL is not available on this server yet: send {title, content, format?, url?}');
    },
    /** Fetches a url/crawl document again; its old chunks serve until the new ones are ready. */
    resync(_knowledgeBaseId: string, _documentId: string): DocumentRecord {
      throw new AppError('validation_error', 'Only documents fetched from a URL can be re-synced');
    },
    start(): void {},
    async stop(): Promise<void> {},
  };
}

export type UrlSources = ReturnType<typeof createUrlSources>;
