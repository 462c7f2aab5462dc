import { newId } from '../lib/ids.js';
import type { Queryable, Storage, Tx } from '../storage/port.js';
import { chunkChangeFeed } from './change-feed.js';
import { chunkDocument, type DocumentFormat } from './chunking.js';
import { createFullTextIndex, type FullTextChunk } from './full-text.js';
import { detectLanguage } from '../text/detect.js';

export interface KnowledgeBase {
  id: string; organizationId: string; name: string; description: string | null;
  /** 'auto' (each document's language detected at ingest) or a BCP 47 tag that fixes it (API.md §12). */
  language: string;
  documentCount: number; chunkCount: number; createdAt: string; updatedAt: string;
}
export type DocumentSource = 'inline' | 'file' | 'url' | 'crawl';
export type DocumentStatus = 'queued' | 'processing' | 'ready' | 'failed';
/** Background fetch/crawl progress, shown on the document while it is queued or processing. */
export type DocumentProgress = Record<string, number | string | null>;
export interface DocumentRecord {
  id: string; knowledgeBaseId: string; title: string; url: string | null; format: string; source: DocumentSource; status: DocumentStatus; error: string | null;
  progress: DocumentProgress | null; chunkCount: number; bytes: number; createdAt: string; updatedAt: string; syncedAt: string | null;
  /** The language its text was analysed in (detected or the base's); null until it has content. */
  language: string | null;
}

interface KbRow { id: string; organization_id: string; name: string; description: string | null; language: string; created_at: string; updated_at: string; document_count: number; chunk_count: number }
interface DocRow {
  id: string; knowledge_base_id: string; title: string; url: string | null; format: string; source: DocumentSource; source_options: string | null; status: DocumentStatus;
  error: string | null; progress: string | null; chunk_count: number; bytes: number; created_at: string; updated_at: string; synced_at: string | null;
  language: string | null;
}

const toKb = (r: KbRow): KnowledgeBase => ({
  id: r.id, organizationId: r.organization_id, name: r.name, description: r.description, language: r.language,
  documentCount: r.document_count, chunkCount: r.chunk_count, createdAt: r.created_at, updatedAt: r.updated_at,
});
const toDoc = (r: DocRow): DocumentRecord => ({
  id: r.id, knowledgeBaseId: r.knowledge_base_id, title: r.title, url: r.url, format: r.format, source: r.source, status: r.status, error: r.error,
  progress: r.progress ? JSON.parse(r.progress) as DocumentProgress : null,
  chunkCount: r.chunk_count, bytes: r.bytes, createdAt: r.created_at, updatedAt: r.updated_at, syncedAt: r.synced_at, language: r.language,
});

const KB_SELECT = `SELECT kb.id, kb.organization_id, kb.name, kb.description, kb.language, kb.created_at, kb.updated_at,
  (SELECT count(*) FROM documents d WHERE d.knowledge_base_id = kb.id) AS document_count,
  (SELECT coalesce(sum(d.chunk_count), 0) FROM documents d WHERE d.knowledge_base_id = kb.id) AS chunk_count
  FROM knowledge_bases kb`;
const DOC_SELECT = `SELECT id, knowledge_base_id, title, url, format, source, source_options, status, error, progress, chunk_count, bytes, created_at, updated_at, synced_at, language
  FROM documents`;

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

/** Chunk rows of a document, before any is written (pure work, outside the transaction). */
export interface ChunkRow { title: string; headings: string; text: string; anchor: string | null; url: string | null; page: number | null }

/** Chunks every part; ordinals run on across parts so a document's chunks keep their order. */
export function chunkParts(docTitle: string, parts: readonly DocumentPart[]): ChunkRow[] {
  const rows: ChunkRow[] = [];
  for (const part of parts) {
    const title = part.title ?? docTitle;
    for (const c of chunkDocument({ title, content: part.content, format: part.format })) {
      rows.push({ title, headings: c.headingPath.join(' › '), text: c.text, anchor: c.anchor, url: part.url ?? null, page: part.page ?? null });
    }
  }
  return rows;
}

/** `?, ?, ?` for an IN list (never empty: callers handle the empty list). */
const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

export interface KnowledgeStoreHooks {
  /** After a commit that added or removed chunks (the embeddings backlog wakes). */
  onIndexChange?: (removedChunkIds: readonly number[]) => void;
  /**
   * Inside the transaction of each change (webhook events commit with it). Receives the
   * transaction handle: a Tx-taking event writer uses it; a legacy synchronous one writes on
   * the same SQLite connection, inside the same open transaction.
   */
  onChange?: (change: KnowledgeBaseChange, tx: Tx) => void | Promise<void>;
}

/**
 * Knowledge bases, their documents and chunks; chunks are given to the full-text index in the
 * transaction that writes them (full-text.ts: PostgreSQL's entries commit with them, FTS5's are
 * owed and written after the commit, many uploads at a time), and every retriever hears of the
 * change after the commit (change-feed.ts).
 */
export function createKnowledgeStore(storage: Storage, hooks: KnowledgeStoreHooks = {}) {
  const fullText = createFullTextIndex(storage);
  const feed = chunkChangeFeed(storage);

  const getKb = async (q: Queryable, organizationId: string, id: string): Promise<KnowledgeBase | null> => {
    const row = await q.get<KbRow>(`${KB_SELECT} WHERE kb.id = ? AND kb.organization_id = ?`, [id, organizationId]);
    return row ? toKb(row) : null;
  };
  const getDocument = async (q: Queryable, knowledgeBaseId: string, id: string): Promise<DocumentRecord | null> => {
    const row = await q.get<DocRow>(`${DOC_SELECT} WHERE id = ? AND knowledge_base_id = ?`, [id, knowledgeBaseId]);
    return row ? toDoc(row) : null;
  };

  /**
   * Where one transaction's writes note what the index must hear after the commit, and the
   * full-text entries of its new chunks, written last (see flushFullText).
   */
  interface Effects { removedChunkIds: number[]; chunksTouched: boolean; fullText: FullTextChunk[] }
  const noEffects = (): Effects => ({ removedChunkIds: [], chunksTouched: false, fullText: [] });

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

  /** The write operations, bound to one transaction. */
  function writer(tx: Tx, fx: Effects): KnowledgeWriter {
    const emit = async (change: KnowledgeBaseChange): Promise<void> => { await hooks.onChange?.(change, tx); };
    const touchKb = (at: string, kbId: string) => tx.run('UPDATE knowledge_bases SET updated_at = ? WHERE id = ?', [at, kbId]);
    const sameUrlDocs = async (kbId: string, url: string | null): Promise<{ id: string }[]> =>
      (url ? tx.all<{ id: string }>('SELECT id FROM documents WHERE knowledge_base_id = ? AND url = ?', [kbId, url]) : []);
    const insertDoc = (d: { id: string; kb: string; title: string; url: string | null; format: string; source: DocumentSource; options: string | null; status: DocumentStatus; chunks: number; bytes: number; at: string; syncedAt: string | null; language: string | null }) =>
      tx.run(`INSERT INTO documents (id, knowledge_base_id, title, url, format, source, source_options, status, chunk_count, bytes, created_at, updated_at, synced_at, language)
        VALUES (@id, @kb, @title, @url, @format, @source, @options, @status, @chunks, @bytes, @at, @at, @syncedAt, @language)`, d);

    /** A document's chunks go (their full-text entries follow them); their ids are told to the index after the commit. */
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
    /** Writes chunk rows, in document order; their full-text entries are written last (flushFullText). */
    async function insertChunks(docId: string, kbId: string, rows: readonly ChunkRow[], language: string): Promise<number> {
      for (const [ordinal, r] of rows.entries()) {
        const inserted = await tx.get<{ id: number }>('INSERT INTO chunks (document_id, knowledge_base_id, ordinal, title, headings, body, anchor, url, page, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
          [docId, kbId, ordinal, r.title, r.headings, r.text, r.anchor, r.url, r.page, language]);
        const id = (inserted as { id: number }).id;
        fx.fullText.push({ id, title: r.title, headings: r.headings, body: r.text, language });
      }
      fx.chunksTouched = true;
      return rows.length;
    }

    /** The language a document's chunks are analysed in: the base's fixed one, or detected from them. */
    async function languageOf(kbId: string, rows: readonly ChunkRow[]): Promise<string> {
      const fixed = (await tx.get<{ language: string }>('SELECT language FROM knowledge_bases WHERE id = ?', [kbId]))?.language ?? 'auto';
      return fixed === 'auto' ? detectLanguage(sampleOf(rows)) : fixed;
    }
    /** Every document of a base analysed again in the base's language (its chunks rewritten). */
    async function reanalyzeKb(kbId: string): Promise<void> {
      type Stored = ChunkRow & { document_id: string };
      const chunks = await tx.all<Stored>('SELECT document_id, title, headings, body AS text, anchor, url, page FROM chunks WHERE knowledge_base_id = ? ORDER BY document_id, ordinal', [kbId]);
      const byDoc = new Map<string, Stored[]>();
      for (const c of chunks) {
        let list = byDoc.get(c.document_id);
        if (!list) byDoc.set(c.document_id, list = []);
        list.push(c);
      }
      for (const [docId, rows] of byDoc) {
        const language = await languageOf(kbId, rows);
        await deleteChunksOf(docId);
        await insertChunks(docId, kbId, rows, language);
        await tx.run('UPDATE documents SET language = ? WHERE id = ?', [language, docId]);
      }
    }

    return {
      tx,
      async createKb(organizationId: string, input: { name: string; description: string | null; language?: string | undefined }, at: string): Promise<KnowledgeBase> {
        const id = newId('kb');
        await tx.run('INSERT INTO knowledge_bases (id, organization_id, name, description, language, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [id, organizationId, input.name, input.description, input.language ?? 'auto', at, at]);
        return await getKb(tx, organizationId, id) as KnowledgeBase;
      },
      async updateKb(kb: KnowledgeBase, patch: KbPatch, at: string): Promise<void> {
        await tx.run('UPDATE knowledge_bases SET name = ?, description = ?, language = ?, updated_at = ? WHERE id = ?',
          [patch.name ?? kb.name, patch.description === undefined ? kb.description : patch.description, patch.language ?? kb.language, at, kb.id]);
        // A new language re-analyses every document: its chunks are written again (new ids, so
        // every index follows them as it follows any re-import).
        if (patch.language !== undefined && patch.language !== kb.language) await reanalyzeKb(kb.id);
        await emit({ knowledgeBaseId: kb.id, change: 'updated' });
      },
      async deleteKb(organizationId: string, id: string): Promise<boolean> {
        for (const { id: docId } of await tx.all<{ id: string }>('SELECT id FROM documents WHERE knowledge_base_id = ?', [id])) await deleteDocumentRows(docId);
        await emit({ knowledgeBaseId: id, change: 'deleted' }); // while its assistant links still exist
        return (await tx.run('DELETE FROM knowledge_bases WHERE id = ? AND organization_id = ?', [id, organizationId])).changes > 0;
      },
      /** Stores an extracted document, ready at once; a document with the same url is replaced. */
      async addParsedDocument(knowledgeBaseId: string, input: ParsedDocument, at: string, rows = chunkParts(input.title, input.parts)): Promise<DocumentRecord> {
        const id = newId('doc');
        const options = input.sourceOptions ? JSON.stringify(input.sourceOptions) : null;
        const old = await sameUrlDocs(knowledgeBaseId, input.url);
        for (const o of old) await deleteDocumentRows(o.id);
        const language = await languageOf(knowledgeBaseId, rows);
        await insertDoc({
          id, kb: knowledgeBaseId, title: input.title, url: input.url, format: input.format, source: input.source,
          options, status: 'ready', chunks: rows.length, bytes: input.bytes, at, syncedAt: at, language,
        });
        await insertChunks(id, knowledgeBaseId, rows, language);
        await touchKb(at, knowledgeBaseId);
        await emit({
          knowledgeBaseId, change: 'document.added', document: { id, title: input.title, url: input.url, format: input.format, chunkCount: rows.length },
          replacedDocumentIds: old.map((o) => o.id),
        });
        // The row as written: no read-back (bulk imports add thousands of documents).
        return toDoc({
          id, knowledge_base_id: knowledgeBaseId, title: input.title, url: input.url, format: input.format, source: input.source, source_options: options,
          status: 'ready', error: null, progress: null, chunk_count: rows.length, bytes: input.bytes, created_at: at, updated_at: at, synced_at: at, language,
        });
      },
      /** Chunks and stores a JSON document; a document with the same url in the base is replaced. */
      addDocument(knowledgeBaseId: string, input: NewDocument, at: string): Promise<DocumentRecord> {
        return this.addParsedDocument(knowledgeBaseId, parsedOf(input), at);
      },
      /**
       * A document whose content a background job will fetch: status `queued`, no chunks yet.
       * Re-adding a url replaces the earlier document with that url at once.
       */
      async createPendingDocument(knowledgeBaseId: string, input: PendingDocument, at: string): Promise<DocumentRecord> {
        const id = newId('doc');
        for (const o of await sameUrlDocs(knowledgeBaseId, input.url)) await deleteDocumentRows(o.id);
        await insertDoc({
          id, kb: knowledgeBaseId, title: input.title, url: input.url, format: input.format, source: input.source,
          options: input.sourceOptions ? JSON.stringify(input.sourceOptions) : null, status: 'queued', chunks: 0, bytes: 0, at, syncedAt: null, language: null,
        });
        await touchKb(at, knowledgeBaseId);
        return await getDocument(tx, knowledgeBaseId, id) as DocumentRecord;
      },
      /** Status/progress of a background fetch; `error` only with `failed`. */
      async setDocumentState(documentId: string, state: { status: DocumentStatus; error?: string | null; progress?: DocumentProgress | null }, at: string): Promise<void> {
        await tx.run('UPDATE documents SET status = ?, error = ?, progress = coalesce(?, progress), updated_at = ? WHERE id = ?',
          [state.status, state.error ?? null, state.progress === undefined ? null : JSON.stringify(state.progress), at, documentId]);
      },
      /** See the store's replaceDocumentContent; `rows` are the new chunks, cut before the transaction. */
      async replaceDocumentChunks(documentId: string, title: string | undefined, rows: (title: string) => ChunkRow[], input: { bytes: number; progress?: DocumentProgress | null | undefined }, at: string): Promise<boolean> {
        const row = await tx.get<DocRow>(`${DOC_SELECT} WHERE id = ?`, [documentId]);
        if (!row) return false;
        const docTitle = title ?? row.title;
        await deleteChunksOf(documentId);
        const newRows = rows(docTitle);
        const language = await languageOf(row.knowledge_base_id, newRows);
        const chunkCount = await insertChunks(documentId, row.knowledge_base_id, newRows, language);
        await tx.run("UPDATE documents SET title = ?, status = 'ready', error = NULL, progress = ?, chunk_count = ?, bytes = ?, updated_at = ?, synced_at = ?, language = ? WHERE id = ?",
          [docTitle, input.progress ? JSON.stringify(input.progress) : row.progress, chunkCount, input.bytes, at, at, language, documentId]);
        await touchKb(at, row.knowledge_base_id);
        await emit({
          knowledgeBaseId: row.knowledge_base_id, change: 'document.added',
          document: { id: documentId, title: docTitle, url: row.url, format: row.format, chunkCount }, replacedDocumentIds: [],
        });
        return true;
      },
      async deleteDocument(knowledgeBaseId: string, id: string, at: string): Promise<boolean> {
        const doc = await getDocument(tx, knowledgeBaseId, id);
        if (!doc) return false;
        await deleteDocumentRows(id);
        await touchKb(at, knowledgeBaseId);
        await emit({ knowledgeBaseId, change: 'document.removed', document: { id, title: doc.title, url: doc.url, format: doc.format, chunkCount: doc.chunkCount } });
        return true;
      },
    };
  }

  /**
   * Runs `fn` in one transaction with the store's writes bound to it (`w.tx` for other modules'
   * writes that must commit with them), then tells the index what changed. A rolled-back
   * transaction tells nothing.
   */
  async function write<T>(fn: (w: KnowledgeWriter) => Promise<T>): Promise<T> {
    let fx: Effects = noEffects();
    const result = await storage.tx(async (tx) => {
      fx = noEffects(); // a retried transaction starts over
      const value = await fn(writer(tx, fx));
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
    /** Resolves once the full-text entries of every chunk committed so far are written (full-text.ts `settled`). */
    fullTextSettled: (): Promise<void> => fullText.settled(),
    async createKb(organizationId: string, input: { name: string; description: string | null; language?: string | undefined }, at: string): Promise<KnowledgeBase> {
      return write((w) => w.createKb(organizationId, input, at));
    },
    getKb(organizationId: string, id: string): Promise<KnowledgeBase | null> {
      return getKb(storage, organizationId, id);
    },
    /** `onlyIds` narrows the list for keys bound to one assistant (its connected bases). */
    async listKbs(organizationId: string, onlyIds: string[] | null, page: { limit: number; offset: number }): Promise<{ items: KnowledgeBase[]; total: number }> {
      if (onlyIds && !onlyIds.length) return { items: [], total: 0 };
      const filter = onlyIds ? `AND kb.id IN (${placeholders(onlyIds.length)})` : '';
      const args = [organizationId, ...(onlyIds ?? [])];
      const total = (await storage.get<{ n: number }>(`SELECT count(*) AS n FROM knowledge_bases kb WHERE kb.organization_id = ? ${filter}`, args))?.n ?? 0;
      // Ids sort by creation time: the tie-break for bases created in the same millisecond.
      const rows = await storage.all<KbRow>(`${KB_SELECT} WHERE kb.organization_id = ? ${filter} ORDER BY kb.created_at DESC, kb.id DESC LIMIT ? OFFSET ?`,
        [...args, page.limit, page.offset]);
      return { items: rows.map(toKb), total };
    },
    async updateKb(organizationId: string, id: string, patch: KbPatch, at: string): Promise<KnowledgeBase | null> {
      const kb = await getKb(storage, organizationId, id);
      if (!kb) return null;
      await write((w) => w.updateKb(kb, patch, at));
      return getKb(storage, organizationId, id);
    },
    deleteKb(organizationId: string, id: string): Promise<boolean> {
      return write((w) => w.deleteKb(organizationId, id));
    },
    /** Chunks and stores a JSON document; a document with the same url in the base is replaced. */
    addDocument(knowledgeBaseId: string, input: NewDocument, at: string): Promise<DocumentRecord> {
      return this.addParsedDocument(knowledgeBaseId, parsedOf(input), at);
    },
    /** Stores an extracted document, ready at once; a document with the same url is replaced. */
    addParsedDocument(knowledgeBaseId: string, input: ParsedDocument, at: string): Promise<DocumentRecord> {
      // Chunking is pure CPU work: done before the transaction, which holds SQLite while open.
      const rows = chunkParts(input.title, input.parts);
      return write((w) => w.addParsedDocument(knowledgeBaseId, input, at, rows));
    },
    /**
     * A document whose content a background job will fetch: status `queued`, no chunks yet.
     * Re-adding a url replaces the earlier document with that url at once.
     */
    createPendingDocument(knowledgeBaseId: string, input: PendingDocument, at: string): Promise<DocumentRecord> {
      return write((w) => w.createPendingDocument(knowledgeBaseId, input, at));
    },
    /** The stored fetch/crawl options of a document (what a re-sync repeats). */
    async sourceOptions(documentId: string): Promise<Record<string, unknown> | null> {
      const row = await storage.get<{ source_options: string | null }>('SELECT source_options FROM documents WHERE id = ?', [documentId]);
      return row?.source_options ? JSON.parse(row.source_options) as Record<string, unknown> : null;
    },
    /** Status/progress of a background fetch; `error` only with `failed`. */
    setDocumentState(documentId: string, state: { status: DocumentStatus; error?: string | null; progress?: DocumentProgress | null }, at: string): Promise<void> {
      return write((w) => w.setDocumentState(documentId, state, at));
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
    ): Promise<boolean> {
      // The title may come from the row (read in the transaction); chunking waits for it only
      // when the caller gave none, which the fetch and crawl jobs always give.
      const early = input.title === undefined ? null : chunkParts(input.title, input.parts);
      return write((w) => w.replaceDocumentChunks(documentId, input.title, (title) => early ?? chunkParts(title, input.parts), input, at));
    },
    getDocument(knowledgeBaseId: string, id: string): Promise<DocumentRecord | null> {
      return getDocument(storage, knowledgeBaseId, id);
    },
    async listDocuments(knowledgeBaseId: string, page: { limit: number; offset: number }): Promise<{ items: DocumentRecord[]; total: number }> {
      const total = (await storage.get<{ n: number }>('SELECT count(*) AS n FROM documents WHERE knowledge_base_id = ?', [knowledgeBaseId]))?.n ?? 0;
      // Ids sort by creation time: the tie-break for documents created in the same millisecond.
      const rows = await storage.all<DocRow>(`${DOC_SELECT} WHERE knowledge_base_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        [knowledgeBaseId, page.limit, page.offset]);
      return { items: rows.map(toDoc), total };
    },
    deleteDocument(knowledgeBaseId: string, id: string, at: string): Promise<boolean> {
      return write((w) => w.deleteDocument(knowledgeBaseId, id, at));
    },
  };
}

/** What a knowledge base update may change. */
export interface KbPatch { name?: string | undefined; description?: string | null | undefined; language?: string | undefined }

/** Up to 2,000 characters of a document's chunks: what its language is detected from. */
function sampleOf(rows: readonly ChunkRow[]): string {
  let out = '';
  for (const r of rows) {
    if (out.length >= 2_000) break;
    out += `${r.text}\n`;
  }
  return out;
}

/** A JSON document as an extracted one with a single part. */
function parsedOf(input: NewDocument): ParsedDocument {
  return {
    title: input.title, url: input.url, format: input.format, source: 'inline', bytes: Buffer.byteLength(input.content),
    parts: [{ content: input.content, format: input.format }],
  };
}

export type KnowledgeStore = ReturnType<typeof createKnowledgeStore>;

/** The store's writes inside one transaction (`KnowledgeStore.write`); `tx` is the transaction. */
export interface KnowledgeWriter {
  readonly tx: Tx;
  createKb(organizationId: string, input: { name: string; description: string | null; language?: string | undefined }, at: string): Promise<KnowledgeBase>;
  updateKb(kb: KnowledgeBase, patch: KbPatch, at: string): Promise<void>;
  deleteKb(organizationId: string, id: string): Promise<boolean>;
  addParsedDocument(knowledgeBaseId: string, input: ParsedDocument, at: string, rows?: ChunkRow[]): Promise<DocumentRecord>;
  addDocument(knowledgeBaseId: string, input: NewDocument, at: string): Promise<DocumentRecord>;
  createPendingDocument(knowledgeBaseId: string, input: PendingDocument, at: string): Promise<DocumentRecord>;
  setDocumentState(documentId: string, state: { status: DocumentStatus; error?: string | null; progress?: DocumentProgress | null }, at: string): Promise<void>;
  replaceDocumentChunks(documentId: string, title: string | undefined, rows: (title: string) => ChunkRow[], input: { bytes: number; progress?: DocumentProgress | null | undefined }, at: string): Promise<boolean>;
  deleteDocument(knowledgeBaseId: string, id: string, at: string): Promise<boolean>;
}
