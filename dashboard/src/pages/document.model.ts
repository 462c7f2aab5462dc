import { signal } from '@preact/signals';
import type { ApiClient } from '../lib/api.js';
import { loadable } from '../lib/model.js';
import type { KnowledgeBase } from './knowledge-bases.model.js';
import type { KbDocument } from './knowledge-base.model.js';
import type { ApiItem } from '../api/types.js';

// One document: its record and its chunks, oldest first (the contract's chunks route).

export type Chunk = ApiItem<'getKnowledgeBasesIdDocumentsDocIdChunks'>;

export const CHUNKS_PAGE_SIZE = 20;

export function createDocumentModel(api: ApiClient, kbId: string, docId: string) {
  const base = `/knowledge-bases/${encodeURIComponent(kbId)}`;
  const page = signal(1);
  const kb = loadable(() => api.get<KnowledgeBase>(base));
  const doc = loadable(() => api.get<KbDocument>(`${base}/documents/${encodeURIComponent(docId)}`));
  const chunks = loadable(() => api.page<Chunk>(`${base}/documents/${encodeURIComponent(docId)}/chunks`, { page: page.value, limit: CHUNKS_PAGE_SIZE }));
  return {
    kbId, docId, page, kb, doc, chunks,
    load: () => Promise.all([kb.load(), doc.load(), chunks.load()]),
    async goTo(p: number) {
      page.value = p;
      await chunks.load();
    },
  };
}

export type DocumentModel = ReturnType<typeof createDocumentModel>;

/** "Setup › Install › Linux": the server stores a chunk's heading trail joined by " › " (or gives the list). */
export const headingPath = (heading: string | string[] | null | undefined): string[] =>
  Array.isArray(heading) ? heading.filter(Boolean) : heading ? heading.split(' › ').map((h) => h.trim()).filter(Boolean) : [];
