import { signal, type Signal } from '@preact/signals';
import type { ApiClient, Page } from '../lib/api.js';
import { loadable, type Loadable } from '../lib/model.js';
import type { KnowledgeBase } from './knowledge-bases.model.js';
import type { KbDocument } from './knowledge-base.model.js';
import type { ApiItem } from '../api/types.js';

// One document: its record and its chunks, oldest first (the contract's chunks route).

export type Chunk = ApiItem<'getKnowledgeBasesIdDocumentsDocIdChunks'>;

export const CHUNKS_PAGE_SIZE = 20;

/** One document of a knowledge base and its chunks. */
export interface DocumentModel {
  kbId: string;
  docId: string;
  /** The chunks' page. */
  page: Signal<number>;
  /** The knowledge base, for the breadcrumb. */
  kb: Loadable<KnowledgeBase>;
  doc: Loadable<KbDocument>;
  /** One page of the document's chunks. */
  chunks: Loadable<Page<Chunk>>;
  /** Loads the base, the document and the chunks. */
  load(): Promise<void>;
  /** Shows page `p` of the chunks. */
  goTo(p: number): Promise<void>;
}

export function createDocumentModel(api: ApiClient, kbId: string, docId: string): DocumentModel {
  const base = `/knowledge-bases/${encodeURIComponent(kbId)}`;
  const page = signal(1);
  const kb = loadable(() => api.get<KnowledgeBase>(base));
  const doc = loadable(() => api.get<KbDocument>(`${base}/documents/${encodeURIComponent(docId)}`));
  const chunks = loadable(() =>
    api.page<Chunk>(`${base}/documents/${encodeURIComponent(docId)}/chunks`, { page: page.value, limit: CHUNKS_PAGE_SIZE }),
  );
  return {
    kbId,
    docId,
    page,
    kb,
    doc,
    chunks,
    async load() {
      await Promise.all([kb.load(), doc.load(), chunks.load()]);
    },
    async goTo(p: number) {
      page.value = p;
      await chunks.load();
    },
  };
}

/** "Setup › Install › Linux": the server stores a chunk's heading trail joined by " › " (or gives the list). */
export const headingPath = (heading: string | string[] | null | undefined): string[] =>
  Array.isArray(heading)
    ? heading.filter(Boolean)
    : heading
      ? heading
          .split(' › ')
          .map((h) => h.trim())
          .filter(Boolean)
      : [];
