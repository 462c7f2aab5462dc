import type { DocumentPart, DocumentProgress, KnowledgeStore } from '../store.js';
import { chunkParts } from '../store.js';
import type { JobLease } from './job-types.js';

/** Freshly fetched content of a web document (one page, or a crawl's pages as parts). */
export interface FetchedContent {
  title: string;
  parts: readonly DocumentPart[];
  bytes: number;
  progress: DocumentProgress;
  /** The stored format of a single page (html, markdown, pdf…); a crawl keeps its own. */
  format?: string | undefined;
}

/**
 * Swaps a document's chunks for freshly fetched content, fenced by the job's lease: the lease is
 * checked inside the swap's own transaction (on PostgreSQL `lease.held` locks the job row FOR
 * SHARE, so a takeover's claim waits for this commit), so a stalled instance whose lease was taken
 * over in the meantime writes nothing — a check before the transaction would leave that window
 * open. The chunks are cut before the transaction (CPU work, no database).
 *
 * `lost`: the lease is another instance's now (nothing written); `gone`: the document was deleted.
 */
export async function swapInContent(
  store: KnowledgeStore,
  lease: JobLease,
  documentId: string,
  content: FetchedContent,
  at: string,
): Promise<'swapped' | 'lost' | 'gone'> {
  const rows = chunkParts(content.title, content.parts);
  return store.write(async (w) => {
    if (!(await lease.held(w.tx))) return 'lost';
    if (content.format !== undefined) await w.tx.run('UPDATE documents SET format = ? WHERE id = ?', [content.format, documentId]);
    const replaced = await w.replaceDocumentChunks(
      documentId,
      content.title,
      () => rows,
      { bytes: content.bytes, progress: content.progress },
      at,
    );
    return replaced ? 'swapped' : 'gone';
  });
}
