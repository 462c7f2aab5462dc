import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';
import { chunksChanged } from './index-events.js';
import { chunkDocument, type DocumentFormat } from './chunking.js';

export interface KnowledgeBase { id: string; organizationId: string; name: string; description: string | null; documentCount: number; chunkCount: number; createdAt: string; updatedAt: string }
export type DocumentSource = 'inline' | 'file' | 'url' | 'crawl';
export type DocumentStatus = 'queued' | 'processing' | 'ready' | 'failed';
/** Background fetch/crawl progress, shown on the document while it is queued or processing. */
export type DocumentProgress = Record<string, number | string | null>;
export interface DocumentRecord {
  id: string; knowledgeBaseId: string; title: string; url: string | null; format: string; source: DocumentSource; status: DocumentStatus; error: string | null;
  progress: DocumentProgress | null; chunkCount: number; bytes: number; createdAt: string; updatedAt: string; syncedAt: string | null;
}

interface KbRow { id: string; organization_id: string; name: string; description: string | null; created_at: string; updated_at: string; document_count: number; chunk_count: number }
interface DocRow {
  id: string; knowledge_base_id: string; title: string; url: string | null; format: string; source: DocumentSource; source_options: string | null; status: DocumentStatus;
  error: string | null; progress: string | null; chunk_count: number; bytes: number; created_at: string; updated_at: string; synced_at: string | null;
}

const toKb = (r: KbRow): KnowledgeBase => ({
  id: r.id, organizationId: r.organization_id, name: r.name, description: r.description,
  documentCount: r.document_count, chunkCount: r.chunk_count, createdAt: r.created_at, updatedAt: r.updated_at,
});
const toDoc = (r: DocRow): DocumentRecord => ({
  id: r.id, knowledgeBaseId: r.knowledge_base_id, title: r.title, url: r.url, format: r.format, source: r.source, status: r.status, error: r.error,
  progress: r.progress ? JSON.parse(r.progress) as DocumentProgress : null,
  chunkCount: r.chunk_count, bytes: r.bytes, createdAt: r.created_at, updatedAt: r.updated_at, syncedAt: r.synced_at,
});

const KB_SELECT = `SELECT kb.*,
  (SELECT count(*) FROM documents d WHERE d.knowledge_base_id = kb.id) AS document_count,
  (SELECT coalesce(sum(chunk_count), 0) FROM documents d WHERE d.knowledge_base_id = kb.id) AS chunk_count
  FROM knowledge_bases kb`;

/** A JSON document body: one piece of text in one format. */
export interface NewDocument { title: string; content: string; format: DocumentFormat; url: string | null }

/** One piece of a document with its own provenance: a PDF page, a crawled page, a whole file. */
export interface DocumentPart {
  content: string;
  format: DocumentFormat;
  /** Title for this part's chunks (a crawled page's own title); the document's title otherwise. */
  title?: string | undefined;
  /** The page this part came from (crawls); the document's url otherwise. */
  url?: string | null | undefined;
  /** 1-based page number (PDFs). */
  page?: number | null | undefined;
}

/** A document whose content was extracted by the server (files, fetched pages, crawls). */
export interface ParsedDocument {
  title: string;
  url: string | null;
  /** What the user gave: txt, markdown, html, pdf, docx, url, crawl… */
  format: string;
  source: DocumentSource;
  bytes: number;
  parts: DocumentPart[];
  sourceOptions?: Record<string, unknown> | undefined;
}

/** A document whose content arrives later (a background fetch or crawl). */
export interface PendingDocument { title: string; url: string; format: string; source: DocumentSource; sourceOptions?: Record<string, unknown> | undefined }

/** What changed in a knowledge base (the `knowledge_base.updated` webhook event). */
export type KnowledgeBaseChange =
  | { knowledgeBaseId: string; change: 'updated' | 'deleted' }
  | {
    knowledgeBaseId: string; change: 'document.added' | 'document.removed';
    document: { id: string; title: string; url: string | null; format: string; chunkCount: number }; replacedDocumentIds?: string[];
  };

/**
 * Knowledge bases, their documents and chunks; chunks reach the FTS index through triggers.
 * `onChange` runs inside the transaction of each change (webhook events commit with it).
 */
export function createKnowledgeStore(
  db: Db,
  hooks: { onIndexChange?: (removedChunkIds: readonly number[]) => void; onChange?: (change: KnowledgeBaseChange) => void } = {},
) {
  /** Chunks deleted by the current change, told to the index after it commits. */
  let removedChunkIds: number[] = [];
  const changed = (): void => {
    const removed = removedChunkIds;
    removedChunkIds = [];
    chunksChanged(db, removed);
    hooks.onIndexChange?.(removed);
  };
  const chunkIdsOf = db.prepare<[string], number>('SELECT id FROM chunks WHERE document_id = ?').pluck();
  const insertChunk = db.prepare('INSERT INTO chunks (document_id, knowledge_base_id, ordinal, title, headings, body, anchor, url, page) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const insertDoc = db.prepare(`INSERT INTO documents (id, knowledge_base_id, title, url, format, source, source_options, status, chunk_count, bytes, created_at, updated_at, synced_at)
    VALUES (@id, @kb, @title, @url, @format, @source, @options, @status, @chunks, @bytes, @at, @at, @syncedAt)`);
  // FTS rows are written here, not by a trigger: twice the ingestion speed (migration 007).
  const insertFts = db.prepare('INSERT INTO chunks_fts (rowid, title, headings, body) VALUES (?, ?, ?, ?)');
  const deleteChunks = db.prepare('DELETE FROM chunks WHERE document_id = ?');
  const deleteDoc = db.prepare('DELETE FROM documents WHERE id = ?');
  const docsWithUrl = db.prepare<[string, string, string], { id: string }>('SELECT id FROM documents WHERE knowledge_base_id = ? AND url = ? AND id != ?');

  /** Chunks every part; ordinals run on across parts so a document's chunks keep their order. */
  interface ChunkRow { title: string; headings: string; text: string; anchor: string | null; url: string | null; page: number | null }
  /** Chunks every part (pure work, before any row is written). */
  function chunkParts(docTitle: string, parts: readonly DocumentPart[]): ChunkRow[] {
    const rows: ChunkRow[] = [];
    for (const part of parts) {
      const title = part.title ?? docTitle;
      for (const c of chunkDocument({ title, content: part.content, format: part.format })) {
        rows.push({ title, headings: c.headingPath.join(' › '), text: c.text, anchor: c.anchor, url: part.url ?? null, page: part.page ?? null });
      }
    }
    return rows;
  }
  /** Writes chunk rows and their FTS rows; ordinals run on across parts, in document order. */
  function insertChunks(docId: string, kbId: string, rows: readonly ChunkRow[]): number {
    rows.forEach((r, ordinal) => {
      const { lastInsertRowid } = insertChunk.run(docId, kbId, ordinal, r.title, r.headings, r.text, r.anchor, r.url, r.page);
      insertFts.run(lastInsertRowid, r.title, r.headings, r.text);
    });
    return rows.length;
  }
  const sameUrlDocs = (kbId: string, url: string | null, except = ''): { id: string }[] =>
    url ? docsWithUrl.all(kbId, url, except) : [];
  const touchKb = db.prepare('UPDATE knowledge_bases SET updated_at = ? WHERE id = ?');
  const selectDoc = db.prepare<[string, string], DocRow>('SELECT * FROM documents WHERE id = ? AND knowledge_base_id = ?');

  function deleteDocumentRows(docId: string): void {
    // Chunks go first, one by one through the delete trigger, so the FTS index forgets them too.
    for (const id of chunkIdsOf.all(docId)) removedChunkIds.push(id);
    deleteChunks.run(docId);
    deleteDoc.run(docId);
  }

  return {
    createKb(organizationId: string, input: { name: string; description: string | null }, at: string): KnowledgeBase {
      const id = newId('kb');
      db.prepare('INSERT INTO knowledge_bases (id, organization_id, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(id, organizationId, input.name, input.description, at, at);
      return this.getKb(organizationId, id) as KnowledgeBase;
    },
    getKb(organizationId: string, id: string): KnowledgeBase | null {
      const row = db.prepare<[string, string], KbRow>(`${KB_SELECT} WHERE kb.id = ? AND kb.organization_id = ?`).get(id, organizationId);
      return row ? toKb(row) : null;
    },
    /** `onlyIds` narrows the list for keys bound to one assistant (its connected bases). */
    listKbs(organizationId: string, onlyIds: string[] | null, page: { limit: number; offset: number }) {
      const filter = onlyIds ? 'AND kb.id IN (SELECT value FROM json_each(?))' : 'AND ? IS NULL';
      const arg = onlyIds ? JSON.stringify(onlyIds) : null;
      const total = (db.prepare(`SELECT count(*) AS n FROM knowledge_bases kb WHERE kb.organization_id = ? ${filter}`).get(organizationId, arg) as { n: number }).n;
      const rows = db.prepare(`${KB_SELECT} WHERE kb.organization_id = ? ${filter} ORDER BY kb.created_at DESC, kb.rowid DESC LIMIT ? OFFSET ?`)
        .all(organizationId, arg, page.limit, page.offset) as KbRow[];
      return { items: rows.map(toKb), total };
    },
    updateKb(organizationId: string, id: string, patch: { name?: string | undefined; description?: string | null | undefined }, at: string): KnowledgeBase | null {
      const kb = this.getKb(organizationId, id);
      if (!kb) return null;
      db.transaction(() => {
        db.prepare('UPDATE knowledge_bases SET name = ?, description = ?, updated_at = ? WHERE id = ?')
          .run(patch.name ?? kb.name, patch.description === undefined ? kb.description : patch.description, at, id);
        hooks.onChange?.({ knowledgeBaseId: id, change: 'updated' });
      })();
      return this.getKb(organizationId, id);
    },
    deleteKb(organizationId: string, id: string): boolean {
      const removed = db.transaction(() => {
        removedChunkIds = []; // a rolled-back change must not leak its ids into the next
        for (const { id: docId } of db.prepare('SELECT id FROM documents WHERE knowledge_base_id = ?').all(id) as { id: string }[]) deleteDocumentRows(docId);
        hooks.onChange?.({ knowledgeBaseId: id, change: 'deleted' }); // while its assistant links still exist
        return db.prepare('DELETE FROM knowledge_bases WHERE id = ? AND organization_id = ?').run(id, organizationId).changes > 0;
      })();
      changed();
      return removed;
    },

    /** Chunks and stores a JSON document; a document with the same url in the base is replaced. */
    addDocument(knowledgeBaseId: string, input: NewDocument, at: string): DocumentRecord {
      return this.addParsedDocument(knowledgeBaseId, {
        title: input.title, url: input.url, format: input.format, source: 'inline', bytes: Buffer.byteLength(input.content),
        parts: [{ content: input.content, format: input.format }],
      }, at);
    },
    /** Stores an extracted document, ready at once; a document with the same url is replaced. */
    addParsedDocument(knowledgeBaseId: string, input: ParsedDocument, at: string): DocumentRecord {
      const id = newId('doc');
      const rows = chunkParts(input.title, input.parts);
      const options = input.sourceOptions ? JSON.stringify(input.sourceOptions) : null;
      db.transaction(() => {
        removedChunkIds = []; // a rolled-back change must not leak its ids into the next
        const old = sameUrlDocs(knowledgeBaseId, input.url);
        for (const o of old) deleteDocumentRows(o.id);
        insertDoc.run({
          id, kb: knowledgeBaseId, title: input.title, url: input.url, format: input.format, source: input.source,
          options, status: 'ready', chunks: rows.length, bytes: input.bytes, at, syncedAt: at,
        });
        insertChunks(id, knowledgeBaseId, rows);
        touchKb.run(at, knowledgeBaseId);
        hooks.onChange?.({
          knowledgeBaseId, change: 'document.added', document: { id, title: input.title, url: input.url, format: input.format, chunkCount: rows.length },
          replacedDocumentIds: old.map((o) => o.id),
        });
      })();
      changed();
      // The row as written: no read-back (bulk imports add thousands of documents).
      return toDoc({
        id, knowledge_base_id: knowledgeBaseId, title: input.title, url: input.url, format: input.format, source: input.source, source_options: options,
        status: 'ready', error: null, progress: null, chunk_count: rows.length, bytes: input.bytes, created_at: at, updated_at: at, synced_at: at,
      });
    },
    /**
     * A document whose content a background job will fetch: status `queued`, no chunks yet.
     * Re-adding a url replaces the earlier document with that url at once.
     */
    createPendingDocument(knowledgeBaseId: string, input: PendingDocument, at: string): DocumentRecord {
      const id = newId('doc');
      db.transaction(() => {
        removedChunkIds = []; // a rolled-back change must not leak its ids into the next
        for (const o of sameUrlDocs(knowledgeBaseId, input.url)) deleteDocumentRows(o.id);
        insertDoc.run({
          id, kb: knowledgeBaseId, title: input.title, url: input.url, format: input.format, source: input.source,
          options: input.sourceOptions ? JSON.stringify(input.sourceOptions) : null, status: 'queued', chunks: 0, bytes: 0, at, syncedAt: null,
        });
        touchKb.run(at, knowledgeBaseId);
      })();
      changed();
      return this.getDocument(knowledgeBaseId, id) as DocumentRecord;
    },
    /** The stored fetch/crawl options of a document (what a re-sync repeats). */
    sourceOptions(documentId: string): Record<string, unknown> | null {
      const row = db.prepare<[string], { source_options: string | null }>('SELECT source_options FROM documents WHERE id = ?').get(documentId);
      return row?.source_options ? JSON.parse(row.source_options) as Record<string, unknown> : null;
    },
    /** Status/progress of a background fetch; `error` only with `failed`. */
    setDocumentState(documentId: string, state: { status: DocumentStatus; error?: string | null; progress?: DocumentProgress | null }, at: string): void {
      db.prepare('UPDATE documents SET status = ?, error = ?, progress = coalesce(?, progress), updated_at = ? WHERE id = ?')
        .run(state.status, state.error ?? null, state.progress === undefined ? null : JSON.stringify(state.progress), at, documentId);
    },
    /**
     * Swaps a document's chunks for freshly fetched content in one transaction (readers see
     * the old chunks or the new, never none) and marks it ready. False when the document was
     * deleted meanwhile.
     */
    replaceDocumentContent(
      documentId: string,
      input: { title?: string | undefined; parts: readonly DocumentPart[]; bytes: number; progress?: DocumentProgress | null | undefined },
      at: string,
    ): boolean {
      const ok = db.transaction(() => {
        removedChunkIds = []; // a rolled-back change must not leak its ids into the next
        const row = db.prepare<[string], DocRow>('SELECT * FROM documents WHERE id = ?').get(documentId);
        if (!row) return false;
        const title = input.title ?? row.title;
        for (const id of chunkIdsOf.all(documentId)) removedChunkIds.push(id);
        deleteChunks.run(documentId);
        const chunkCount = insertChunks(documentId, row.knowledge_base_id, chunkParts(title, input.parts));
        db.prepare(`UPDATE documents SET title = ?, status = 'ready', error = NULL, progress = ?, chunk_count = ?, bytes = ?, updated_at = ?, synced_at = ? WHERE id = ?`)
          .run(title, input.progress ? JSON.stringify(input.progress) : row.progress, chunkCount, input.bytes, at, at, documentId);
        touchKb.run(at, row.knowledge_base_id);
        hooks.onChange?.({
          knowledgeBaseId: row.knowledge_base_id, change: 'document.added',
          document: { id: documentId, title, url: row.url, format: row.format, chunkCount }, replacedDocumentIds: [],
        });
        return true;
      })();
      if (ok) changed();
      return ok;
    },
    getDocument(knowledgeBaseId: string, id: string): DocumentRecord | null {
      const row = selectDoc.get(id, knowledgeBaseId);
      return row ? toDoc(row) : null;
    },
    listDocuments(knowledgeBaseId: string, page: { limit: number; offset: number }) {
      const total = (db.prepare('SELECT count(*) AS n FROM documents WHERE knowledge_base_id = ?').get(knowledgeBaseId) as { n: number }).n;
      const rows = db.prepare('SELECT * FROM documents WHERE knowledge_base_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?')
        .all(knowledgeBaseId, page.limit, page.offset) as DocRow[];
      return { items: rows.map(toDoc), total };
    },
    deleteDocument(knowledgeBaseId: string, id: string, at: string): boolean {
      const removed = db.transaction(() => {
        removedChunkIds = []; // a rolled-back change must not leak its ids into the next
        const doc = this.getDocument(knowledgeBaseId, id);
        if (!doc) return false;
        deleteDocumentRows(id);
        touchKb.run(at, knowledgeBaseId);
        hooks.onChange?.({ knowledgeBaseId, change: 'document.removed', document: { id, title: doc.title, url: doc.url, format: doc.format, chunkCount: doc.chunkCount } });
        return true;
      })();
      if (removed) changed();
      return removed;
    },
  };
}

export type KnowledgeStore = ReturnType<typeof createKnowledgeStore>;
