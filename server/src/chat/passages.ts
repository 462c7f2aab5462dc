import type { Passage } from '../answer/extractive.js';
import { chunkUrl, type RetrievedChunk } from '../knowledge/retrieval.js';

/**
 * Retrieved chunks as the answerers read them: scores relative to the best (not the first:
 * hybrid retrieval lists in fused order, knowledge/embeddings/hybrid.ts), a PDF page in the
 * title, and the document id (confidence compares the best page with the best other page).
 */
export function toPassages(chunks: readonly RetrievedChunk[]): Passage[] {
  const top = chunks.reduce((m, c) => Math.max(m, c.score), 0);
  return chunks.map((c) => ({
    id: String(c.chunkId),
    documentId: c.documentId,
    title: c.page ? `${c.title}, p. ${c.page}` : c.title,
    url: chunkUrl(c),
    text: c.text,
    headingPath: c.headingPath,
    score: top > 0 ? c.score / top : 0,
    language: c.language,
  }));
}
