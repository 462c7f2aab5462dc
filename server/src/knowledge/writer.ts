import { newId } from '../lib/ids.js';
import type { Tx } from '../storage/port.js';
import { detectLanguage } from '../text/detect.js';
import type { FullTextChunk } from './full-text.js';
import {
  chunkParts,
  DOC_SELECT,
  parsedOf,
  readDocument,
  readKb,
  sampleOf,
  toDoc,
  type ChunkRow,
  type DocRow,
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

// The knowledge store's writes inside one transaction: what KnowledgeStore.write hands its callback.

/**
 * Called inside the transaction of each change (webhook events commit with it). Receives the
 * transaction handle: a Tx-taking event writer uses it; a legacy synchronous one writes on the
 * same SQLite connection, inside the same open transaction.
 */
export type ChangeListener = (change: KnowledgeBaseChange, tx: Tx) => void | Promise<void>;

/**
 * Where one transaction's writes note what the index must hear after the commit, and the
 * full-text entries of its new chunks, written last (see flushFullText).
 */
export interface Effects {
  removedChunkIds: number[];
  chunksTouched: boolean;
  fullText: FullTextChunk[];
}
export const noEffects = (): Effects => ({ removedChunkIds: [], chunksTouched: false, fullText: [] });

/** A transaction's chunk writes: what a document's rows are made of and analysed in. */
interface ChunkWrites {
  /** A document's chunks go (their full-text entries follow them); their ids are told to the index after the commit. */
  deleteChunksOf(docId: string): Promise<void>;
  /** A document's row and chunks go. */
  deleteDocumentRows(docId: string): Promise<void>;
  /** Writes chunk rows, in document order; their full-text entries are written last (flushFullText). Returns how many. */
  insertChunks(docId: string, kbId: string, rows: readonly ChunkRow[], language: string): Promise<number>;
  /** The language a document's chunks are analysed in: the base's fixed one, or detected from them. */
  languageOf(kbId: string, rows: readonly ChunkRow[]): Promise<string>;
  /** Every document of a base analysed again in the base's language (its chunks rewritten). */
  reanalyzeKb(kbId: string): Promise<void>;
}

function chunkWrites(tx: Tx, fx: Effects): ChunkWrites {
  async function deleteChunksOf(docId: string): Promise<void> {
    const removed = await tx.all<{ id: number }>('SELECT id FROM chunks WHERE document_id = ?', [docId]);
    for (const { id } of removed) fx.removedChunkIds.push(id);
    // Entries not written yet of chunks added earlier in this transaction go with them: a chunk
    // added after this delete may get the same id (SQLite reuses the largest).
    if (fx.fullText.length && removed.length) {
      const gone = new Set(removed.map((r) => r.id));
      fx.fullText = fx.fullText.filter((e) => !gone.has(e.id));
    }
    await tx.run('DELETE FROM chunks WHERE document_id = ?', [docId]);
    fx.chunksTouched = true;
  }

  async function deleteDocumentRows(docId: string): Promise<void> {
    await deleteChunksOf(docId);
    await tx.run('DELETE FROM documents WHERE id = ?', [docId]);
  }

  async function insertChunks(docId: string, kbId: string, rows: readonly ChunkRow[], language: string): Promise<number> {
    for (const [ordinal, r] of rows.entries()) {
      const inserted = await tx.get<{ id: number }>(
        'INSERT INTO chunks (document_id, knowledge_base_id, ordinal, title, headings, body, anchor, url, page, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
        [docId, kbId, ordinal, r.title, r.headings, r.text, r.anchor, r.url, r.page, language],
      );
      const id = (inserted as { id: number }).id;
      fx.fullText.push({ id, title: r.title, headings: r.headings, body: r.text, language });
    }
    fx.chunksTouched = true;
    return rows.length;
  }

  async function languageOf(kbId: string, rows: readonly ChunkRow[]): Promise<string> {
    const fixed = (await tx.get<{ language: string }>('SELECT language FROM knowledge_bases WHERE id = ?', [kbId]))?.language ?? 'auto';
    return fixed === 'auto' ? detectLanguage(sampleOf(rows)) : fixed;
  }

  async function reanalyzeKb(kbId: string): Promise<void> {
    type Stored = ChunkRow & { document_id: string };
    const chunks = await tx.all<Stored>(
      'SELECT document_id, title, headings, body AS text, anchor, url, page FROM chunks WHERE knowledge_base_id = ? ORDER BY document_id, ordinal',
      [kbId],
    );
    const byDoc = new Map<string, Stored[]>();
    for (const c of chunks) {
      let list = byDoc.get(c.document_id);
      if (!list) byDoc.set(c.document_id, (list = []));
      list.push(c);
    }
    for (const [docId, rows] of byDoc) {
      const language = await languageOf(kbId, rows);
      await deleteChunksOf(docId);
      await insertChunks(docId, kbId, rows, language);
      await tx.run('UPDATE documents SET language = ? WHERE id = ?', [language, docId]);
    }
  }

  return { deleteChunksOf, deleteDocumentRows, insertChunks, languageOf, reanalyzeKb };
}

/** The write operations, bound to one transaction. */
export function knowledgeWriter(tx: Tx, fx: Effects, onChange: ChangeListener | undefined): KnowledgeWriter {
  const emit = async (change: KnowledgeBaseChange): Promise<void> => {
    await onChange?.(change, tx);
  };
  const touchKb = (at: string, kbId: string) => tx.run('UPDATE knowledge_bases SET updated_at = ? WHERE id = ?', [at, kbId]);
  const sameUrlDocs = async (kbId: string, url: string | null): Promise<{ id: string }[]> =>
    url ? tx.all<{ id: string }>('SELECT id FROM documents WHERE knowledge_base_id = ? AND url = ?', [kbId, url]) : [];
  const insertDoc = (d: {
    id: string;
    kb: string;
    title: string;
    url: string | null;
    format: string;
    source: DocumentSource;
    options: string | null;
    status: DocumentStatus;
    chunks: number;
    bytes: number;
    at: string;
    syncedAt: string | null;
    language: string | null;
  }) =>
    tx.run(
      `INSERT INTO documents (id, knowledge_base_id, title, url, format, source, source_options, status, chunk_count, bytes, created_at, updated_at, synced_at, language)
      VALUES (@id, @kb, @title, @url, @format, @source, @options, @status, @chunks, @bytes, @at, @at, @syncedAt, @language)`,
      d,
    );

  const { deleteChunksOf, deleteDocumentRows, insertChunks, languageOf, reanalyzeKb } = chunkWrites(tx, fx);

  return {
    tx,
    async createKb(
      organizationId: string,
      input: { name: string; description: string | null; language?: string | undefined },
      at: string,
    ): Promise<KnowledgeBase> {
      const id = newId('kb');
      await tx.run(
        'INSERT INTO knowledge_bases (id, organization_id, name, description, language, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [id, organizationId, input.name, input.description, input.language ?? 'auto', at, at],
      );
      return (await readKb(tx, organizationId, id)) as KnowledgeBase;
    },
    async updateKb(kb: KnowledgeBase, patch: KbPatch, at: string): Promise<void> {
      await tx.run('UPDATE knowledge_bases SET name = ?, description = ?, language = ?, updated_at = ? WHERE id = ?', [
        patch.name ?? kb.name,
        patch.description === undefined ? kb.description : patch.description,
        patch.language ?? kb.language,
        at,
        kb.id,
      ]);
      // A new language re-analyses every document: its chunks are written again (new ids, so
      // every index follows them as it follows any re-import).
      if (patch.language !== undefined && patch.language !== kb.language) await reanalyzeKb(kb.id);
      await emit({ knowledgeBaseId: kb.id, change: 'updated' });
    },
    async deleteKb(organizationId: string, id: string): Promise<boolean> {
      for (const { id: docId } of await tx.all<{ id: string }>('SELECT id FROM documents WHERE knowledge_base_id = ?', [id]))
        await deleteDocumentRows(docId);
      await emit({ knowledgeBaseId: id, change: 'deleted' }); // while its assistant links still exist
      return (await tx.run('DELETE FROM knowledge_bases WHERE id = ? AND organization_id = ?', [id, organizationId])).changes > 0;
    },
    async addParsedDocument(
      knowledgeBaseId: string,
      input: ParsedDocument,
      at: string,
      rows = chunkParts(input.title, input.parts),
    ): Promise<DocumentRecord> {
      const id = newId('doc');
      const options = input.sourceOptions ? JSON.stringify(input.sourceOptions) : null;
      const old = await sameUrlDocs(knowledgeBaseId, input.url);
      for (const o of old) await deleteDocumentRows(o.id);
      const language = await languageOf(knowledgeBaseId, rows);
      await insertDoc({
        id,
        kb: knowledgeBaseId,
        title: input.title,
        url: input.url,
        format: input.format,
        source: input.source,
        options,
        status: 'ready',
        chunks: rows.length,
        bytes: input.bytes,
        at,
        syncedAt: at,
        language,
      });
      await insertChunks(id, knowledgeBaseId, rows, language);
      await touchKb(at, knowledgeBaseId);
      await emit({
        knowledgeBaseId,
        change: 'document.added',
        document: { id, title: input.title, url: input.url, format: input.format, chunkCount: rows.length },
        replacedDocumentIds: old.map((o) => o.id),
      });
      // The row as written: no read-back (bulk imports add thousands of documents).
      return toDoc({
        id,
        knowledge_base_id: knowledgeBaseId,
        title: input.title,
        url: input.url,
        format: input.format,
        source: input.source,
        source_options: options,
        status: 'ready',
        error: null,
        progress: null,
        chunk_count: rows.length,
        bytes: input.bytes,
        created_at: at,
        updated_at: at,
        synced_at: at,
        language,
      });
    },
    addDocument(knowledgeBaseId: string, input: NewDocument, at: string): Promise<DocumentRecord> {
      return this.addParsedDocument(knowledgeBaseId, parsedOf(input), at);
    },
    async createPendingDocument(knowledgeBaseId: string, input: PendingDocument, at: string): Promise<DocumentRecord> {
      const id = newId('doc');
      for (const o of await sameUrlDocs(knowledgeBaseId, input.url)) await deleteDocumentRows(o.id);
      await insertDoc({
        id,
        kb: knowledgeBaseId,
        title: input.title,
        url: input.url,
        format: input.format,
        source: input.source,
        options: input.sourceOptions ? JSON.stringify(input.sourceOptions) : null,
        status: 'queued',
        chunks: 0,
        bytes: 0,
        at,
        syncedAt: null,
        language: null,
      });
      await touchKb(at, knowledgeBaseId);
      return (await readDocument(tx, knowledgeBaseId, id)) as DocumentRecord;
    },
    async setDocumentState(
      documentId: string,
      state: { status: DocumentStatus; error?: string | null; progress?: DocumentProgress | null },
      at: string,
    ): Promise<void> {
      await tx.run('UPDATE documents SET status = ?, error = ?, progress = coalesce(?, progress), updated_at = ? WHERE id = ?', [
        state.status,
        state.error ?? null,
        state.progress === undefined ? null : JSON.stringify(state.progress),
        at,
        documentId,
      ]);
    },
    async replaceDocumentChunks(
      documentId: string,
      title: string | undefined,
      rows: (title: string) => ChunkRow[],
      input: { bytes: number; progress?: DocumentProgress | null | undefined },
      at: string,
    ): Promise<boolean> {
      const row = await tx.get<DocRow>(`${DOC_SELECT} WHERE id = ?`, [documentId]);
      if (!row) return false;
      const docTitle = title ?? row.title;
      await deleteChunksOf(documentId);
      const newRows = rows(docTitle);
      const language = await languageOf(row.knowledge_base_id, newRows);
      const chunkCount = await insertChunks(documentId, row.knowledge_base_id, newRows, language);
      await tx.run(
        "UPDATE documents SET title = ?, status = 'ready', error = NULL, progress = ?, chunk_count = ?, bytes = ?, updated_at = ?, synced_at = ?, language = ? WHERE id = ?",
        [docTitle, input.progress ? JSON.stringify(input.progress) : row.progress, chunkCount, input.bytes, at, at, language, documentId],
      );
      await touchKb(at, row.knowledge_base_id);
      await emit({
        knowledgeBaseId: row.knowledge_base_id,
        change: 'document.added',
        document: { id: documentId, title: docTitle, url: row.url, format: row.format, chunkCount },
        replacedDocumentIds: [],
      });
      return true;
    },
    async deleteDocument(knowledgeBaseId: string, id: string, at: string): Promise<boolean> {
      const doc = await readDocument(tx, knowledgeBaseId, id);
      if (!doc) return false;
      await deleteDocumentRows(id);
      await touchKb(at, knowledgeBaseId);
      await emit({
        knowledgeBaseId,
        change: 'document.removed',
        document: { id, title: doc.title, url: doc.url, format: doc.format, chunkCount: doc.chunkCount },
      });
      return true;
    },
  };
}

/** The store's writes inside one transaction (`KnowledgeStore.write`); `tx` is the transaction. */
export interface KnowledgeWriter {
  /** The transaction, for other modules' writes that must commit with these. */
  readonly tx: Tx;
  /** A new knowledge base (language 'auto' unless given). */
  createKb(
    organizationId: string,
    input: { name: string; description: string | null; language?: string | undefined },
    at: string,
  ): Promise<KnowledgeBase>;
  /** Applies a patch; a new language re-analyses every document (its chunks are written again, with new ids). */
  updateKb(kb: KnowledgeBase, patch: KbPatch, at: string): Promise<void>;
  /** Deletes a base, its documents and chunks (its change is told while its assistant links still exist). */
  deleteKb(organizationId: string, id: string): Promise<boolean>;
  /** Stores an extracted document, ready at once; a document with the same url is replaced. `rows`: its chunks, when cut before the transaction. */
  addParsedDocument(knowledgeBaseId: string, input: ParsedDocument, at: string, rows?: ChunkRow[]): Promise<DocumentRecord>;
  /** Chunks and stores a JSON document; a document with the same url in the base is replaced. */
  addDocument(knowledgeBaseId: string, input: NewDocument, at: string): Promise<DocumentRecord>;
  /**
   * A document whose content a background job will fetch: status `queued`, no chunks yet.
   * Re-adding a url replaces the earlier document with that url at once.
   */
  createPendingDocument(knowledgeBaseId: string, input: PendingDocument, at: string): Promise<DocumentRecord>;
  /** Status/progress of a background fetch; `error` only with `failed`. */
  setDocumentState(
    documentId: string,
    state: { status: DocumentStatus; error?: string | null; progress?: DocumentProgress | null },
    at: string,
  ): Promise<void>;
  /** See KnowledgeStore.replaceDocumentContent; `rows` makes the new chunks from the document's title. False when the document is gone. */
  replaceDocumentChunks(
    documentId: string,
    title: string | undefined,
    rows: (title: string) => ChunkRow[],
    input: { bytes: number; progress?: DocumentProgress | null | undefined },
    at: string,
  ): Promise<boolean>;
  /** Deletes a document and its chunks; false when the base had none with this id. */
  deleteDocument(knowledgeBaseId: string, id: string, at: string): Promise<boolean>;
}
