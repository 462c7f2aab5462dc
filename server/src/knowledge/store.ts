import type { Storage, Tx } from '../storage/port.js';
import { chunkChangeFeed } from './change-feed.js';
import { createFullTextIndex } from './full-text.js';
import {
  chunkParts,
  DOC_SELECT,
  KB_SELECT,
  parsedOf,
  placeholders,
  readDocument,
  readKb,
  toDoc,
  toKb,
  type DocRow,
  type DocumentPart,
  type DocumentProgress,
  type DocumentRecord,
  type DocumentStatus,
  type KbPatch,
  type KbRow,
  type KnowledgeBase,
  type NewDocument,
  type ParsedDocument,
  type PendingDocument,
} from './records.js';
import { knowledgeWriter, noEffects, type ChangeListener, type Effects, type KnowledgeWriter } from './writer.js';

// What callers import from the store: the records (records.ts) and the writer's interface (writer.ts).
export {
  chunkParts,
  type ChunkRow,
  type DocumentPart,
  type DocumentProgress,
  type DocumentRecord,
  type DocumentSource,
  type DocumentStatus,
  type KbPatch,
  type KnowledgeBase,
  type KnowledgeBaseChange,
  type NewDocument,
  type ParsedDocument,
  type PendingDocument,
} from './records.js';
export type { KnowledgeWriter } from './writer.js';

export interface KnowledgeStoreHooks {
  /** After a commit that added or removed chunks (the embeddings backlog wakes). */
  onIndexChange?: (removedChunkIds: readonly number[]) => void;
  /** Inside the transaction of each change (webhook events commit with it). */
  onChange?: ChangeListener;
}

/** Knowledge bases, their documents and chunks (see createKnowledgeStore). */
export interface KnowledgeStore {
  /**
   * Runs `fn` in one transaction with the store's writes bound to it (`w.tx` for other modules'
   * writes that must commit with them), then tells the index what changed. A rolled-back
   * transaction tells nothing.
   */
  write<T>(fn: (w: KnowledgeWriter) => Promise<T>): Promise<T>;
  /** Resolves once the full-text entries of every chunk committed so far are written (full-text.ts `settled`). */
  fullTextSettled(): Promise<void>;
  /** A new knowledge base (language 'auto' unless given). */
  createKb(
    organizationId: string,
    input: { name: string; description: string | null; language?: string | undefined },
    at: string,
  ): Promise<KnowledgeBase>;
  /** One knowledge base of the organization, with its document and chunk counts. */
  getKb(organizationId: string, id: string): Promise<KnowledgeBase | null>;
  /** A page of the organization's bases, newest first; `onlyIds` narrows it for keys bound to one assistant (its connected bases). */
  listKbs(
    organizationId: string,
    onlyIds: string[] | null,
    page: { limit: number; offset: number },
  ): Promise<{ items: KnowledgeBase[]; total: number }>;
  /** Applies a patch (a new language re-analyses every document); null when there is no such base. */
  updateKb(organizationId: string, id: string, patch: KbPatch, at: string): Promise<KnowledgeBase | null>;
  /** Deletes a base with its documents and chunks; false when there was none. */
  deleteKb(organizationId: string, id: string): Promise<boolean>;
  /** Chunks and stores a JSON document; a document with the same url in the base is replaced. */
  addDocument(knowledgeBaseId: string, input: NewDocument, at: string): Promise<DocumentRecord>;
  /** Stores an extracted document, ready at once; a document with the same url is replaced. */
  addParsedDocument(knowledgeBaseId: string, input: ParsedDocument, at: string): Promise<DocumentRecord>;
  /**
   * A document whose content a background job will fetch: status `queued`, no chunks yet.
   * Re-adding a url replaces the earlier document with that url at once.
   */
  createPendingDocument(knowledgeBaseId: string, input: PendingDocument, at: string): Promise<DocumentRecord>;
  /** The stored fetch/crawl options of a document (what a re-sync repeats). */
  sourceOptions(documentId: string): Promise<Record<string, unknown> | null>;
  /** Status/progress of a background fetch; `error` only with `failed`. */
  setDocumentState(
    documentId: string,
    state: { status: DocumentStatus; error?: string | null; progress?: DocumentProgress | null },
    at: string,
  ): Promise<void>;
  /**
   * Swaps a document's chunks for freshly fetched content in one transaction (readers see
   * the old chunks or the new, never none) and marks it ready. False when the document was
   * deleted meanwhile.
   */
  replaceDocumentContent(
    documentId: string,
    input: { title?: string | undefined; parts: readonly DocumentPart[]; bytes: number; progress?: DocumentProgress | null | undefined },
    at: string,
  ): Promise<boolean>;
  /** One document of the base, or null. */
  getDocument(knowledgeBaseId: string, id: string): Promise<DocumentRecord | null>;
  /** A page of the base's documents, newest first. */
  listDocuments(knowledgeBaseId: string, page: { limit: number; offset: number }): Promise<{ items: DocumentRecord[]; total: number }>;
  /** Deletes a document and its chunks; false when the base had none with this id. */
  deleteDocument(knowledgeBaseId: string, id: string, at: string): Promise<boolean>;
}

/**
 * Knowledge bases, their documents and chunks; chunks are given to the full-text index in the
 * transaction that writes them (full-text.ts: PostgreSQL's entries commit with them, FTS5's are
 * owed and written after the commit, many uploads at a time), and every retriever hears of the
 * change after the commit (change-feed.ts).
 */
export function createKnowledgeStore(storage: Storage, hooks: KnowledgeStoreHooks = {}): KnowledgeStore {
  const fullText = createFullTextIndex(storage);
  const feed = chunkChangeFeed(storage);

  /**
   * The transaction's full-text entries, written after its last other statement. On SQLite an
   * FTS5 table turns the entries it holds in memory into a new on-disk segment whenever another
   * statement of the transaction opens a statement savepoint, which every chunk INSERT does (its
   * foreign key): entries written chunk by chunk made one segment per chunk, each flushed,
   * indexed and later merged again: a transaction of N documents made N segments. Written last,
   * it makes one: bulk ingestion of the bench's corpus, 500 documents a transaction, ran 1.47×
   * as fast (bench/README.md). On PostgreSQL one statement instead of one per document.
   */
  const flushFullText = async (tx: Tx, fx: Effects): Promise<void> => {
    if (!fx.fullText.length) return;
    const entries = fx.fullText;
    fx.fullText = [];
    await fullText.add(tx, entries);
  };

  /**
   * Runs `fn` in one transaction with the store's writes bound to it (`w.tx` for other modules'
   * writes that must commit with them), then tells the index what changed. A rolled-back
   * transaction tells nothing.
   */
  async function write<T>(fn: (w: KnowledgeWriter) => Promise<T>): Promise<T> {
    let fx: Effects = noEffects();
    const result = await storage.tx(async (tx) => {
      fx = noEffects(); // a retried transaction starts over
      const value = await fn(knowledgeWriter(tx, fx, hooks.onChange));
      await flushFullText(tx, fx);
      // Other instances hear of it from the database, at commit (PostgreSQL; nothing on SQLite).
      if (fx.chunksTouched) await feed.record(tx, fx.removedChunkIds);
      return value;
    });
    if (fx.chunksTouched) {
      feed.publish(fx.removedChunkIds);
      hooks.onIndexChange?.(fx.removedChunkIds);
    }
    return result;
  }

  return {
    write,
    fullTextSettled: (): Promise<void> => fullText.settled(),
    async createKb(
      organizationId: string,
      input: { name: string; description: string | null; language?: string | undefined },
      at: string,
    ): Promise<KnowledgeBase> {
      return write((w) => w.createKb(organizationId, input, at));
    },
    getKb(organizationId: string, id: string): Promise<KnowledgeBase | null> {
      return readKb(storage, organizationId, id);
    },
    async listKbs(
      organizationId: string,
      onlyIds: string[] | null,
      page: { limit: number; offset: number },
    ): Promise<{ items: KnowledgeBase[]; total: number }> {
      if (onlyIds && !onlyIds.length) return { items: [], total: 0 };
      const filter = onlyIds ? `AND kb.id IN (${placeholders(onlyIds.length)})` : '';
      const args = [organizationId, ...(onlyIds ?? [])];
      const total =
        (await storage.get<{ n: number }>(`SELECT count(*) AS n FROM knowledge_bases kb WHERE kb.organization_id = ? ${filter}`, args))
          ?.n ?? 0;
      // Ids sort by creation time: the tie-break for bases created in the same millisecond.
      const rows = await storage.all<KbRow>(
        `${KB_SELECT} WHERE kb.organization_id = ? ${filter} ORDER BY kb.created_at DESC, kb.id DESC LIMIT ? OFFSET ?`,
        [...args, page.limit, page.offset],
      );
      return { items: rows.map(toKb), total };
    },
    async updateKb(organizationId: string, id: string, patch: KbPatch, at: string): Promise<KnowledgeBase | null> {
      const kb = await readKb(storage, organizationId, id);
      if (!kb) return null;
      await write((w) => w.updateKb(kb, patch, at));
      return readKb(storage, organizationId, id);
    },
    deleteKb(organizationId: string, id: string): Promise<boolean> {
      return write((w) => w.deleteKb(organizationId, id));
    },
    addDocument(knowledgeBaseId: string, input: NewDocument, at: string): Promise<DocumentRecord> {
      return this.addParsedDocument(knowledgeBaseId, parsedOf(input), at);
    },
    addParsedDocument(knowledgeBaseId: string, input: ParsedDocument, at: string): Promise<DocumentRecord> {
      // Chunking is pure CPU work: done before the transaction, which holds SQLite while open.
      const rows = chunkParts(input.title, input.parts);
      return write((w) => w.addParsedDocument(knowledgeBaseId, input, at, rows));
    },
    createPendingDocument(knowledgeBaseId: string, input: PendingDocument, at: string): Promise<DocumentRecord> {
      return write((w) => w.createPendingDocument(knowledgeBaseId, input, at));
    },
    async sourceOptions(documentId: string): Promise<Record<string, unknown> | null> {
      const row = await storage.get<{ source_options: string | null }>('SELECT source_options FROM documents WHERE id = ?', [documentId]);
      return row?.source_options ? (JSON.parse(row.source_options) as Record<string, unknown>) : null;
    },
    setDocumentState(
      documentId: string,
      state: { status: DocumentStatus; error?: string | null; progress?: DocumentProgress | null },
      at: string,
    ): Promise<void> {
      return write((w) => w.setDocumentState(documentId, state, at));
    },
    replaceDocumentContent(
      documentId: string,
      input: { title?: string | undefined; parts: readonly DocumentPart[]; bytes: number; progress?: DocumentProgress | null | undefined },
      at: string,
    ): Promise<boolean> {
      // The title may come from the row (read in the transaction); chunking waits for it only
      // when the caller gave none, which the fetch and crawl jobs always give.
      const early = input.title === undefined ? null : chunkParts(input.title, input.parts);
      return write((w) => w.replaceDocumentChunks(documentId, input.title, (title) => early ?? chunkParts(title, input.parts), input, at));
    },
    getDocument(knowledgeBaseId: string, id: string): Promise<DocumentRecord | null> {
      return readDocument(storage, knowledgeBaseId, id);
    },
    async listDocuments(
      knowledgeBaseId: string,
      page: { limit: number; offset: number },
    ): Promise<{ items: DocumentRecord[]; total: number }> {
      const total =
        (await storage.get<{ n: number }>('SELECT count(*) AS n FROM documents WHERE knowledge_base_id = ?', [knowledgeBaseId]))?.n ?? 0;
      // Ids sort by creation time: the tie-break for documents created in the same millisecond.
      const rows = await storage.all<DocRow>(
        `${DOC_SELECT} WHERE knowledge_base_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        [knowledgeBaseId, page.limit, page.offset],
      );
      return { items: rows.map(toDoc), total };
    },
    deleteDocument(knowledgeBaseId: string, id: string, at: string): Promise<boolean> {
      return write((w) => w.deleteDocument(knowledgeBaseId, id, at));
    },
  };
}
