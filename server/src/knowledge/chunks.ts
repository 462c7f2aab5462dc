import type { Queryable } from '../storage/port.js';
import { chunkUrl } from './retrieval.js';

/** A document's chunk as the dashboard's document page shows it: the heading path and the text. */
export interface ChunkView {
  id: string;
  ordinal: number;
  heading: string | null;
  text: string;
  page: number | null;
  url: string | null;
}

interface ChunkRow {
  id: number;
  ordinal: number;
  headings: string;
  body: string;
  page: number | null;
  url: string | null;
  anchor: string | null;
}

/** A document's chunks in document order (oldest first: chunk order is reading order), paginated. */
export async function listDocumentChunks(
  q: Queryable,
  documentId: string,
  page: { limit: number; offset: number },
): Promise<{ items: ChunkView[]; total: number }> {
  const total = (await q.get<{ n: number }>('SELECT count(*) AS n FROM chunks WHERE document_id = ?', [documentId]))?.n ?? 0;
  // A crawled page's chunk has its own url; other chunks link to the document's, at their section.
  const rows = await q.all<ChunkRow>(
    `SELECT c.id, c.ordinal, c.headings, c.body, c.page, coalesce(c.url, d.url) AS url, c.anchor
    FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.document_id = ? ORDER BY c.ordinal, c.id LIMIT ? OFFSET ?`,
    [documentId, page.limit, page.offset],
  );
  return {
    total,
    items: rows.map((r) => ({
      id: String(r.id),
      ordinal: r.ordinal,
      heading: r.headings || null,
      text: r.body,
      page: r.page,
      url: chunkUrl(r),
    })),
  };
}
