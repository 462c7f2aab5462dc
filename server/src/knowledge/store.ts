import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';
import { chunkDocument, type DocumentFormat } from './chunking.js';

export interface KnowledgeBase { id: string; organizationId: string; name: string; description: string | null; documentCount: number; chunkCount: number; createdAt: string; updatedAt: string }
export interface DocumentRecord { id: string; knowledgeBaseId: string; title: string; url: string | null; format: string; status: string; error: string | null; chunkCount: number; bytes: number; createdAt: string; updatedAt: string }

interface KbRow { id: string; organization_id: string; name: string; description: string | null; created_at: string; updated_at: string; document_count: number; chunk_count: number }
interface DocRow { id: string; knowledge_base_id: string; title: string; url: string | null; format: string; status: string; error: string | null; chunk_count: number; bytes: number; created_at: string; updated_at: string }

const toKb = (r: KbRow): KnowledgeBase => ({
  id: r.id, organizationId: r.organization_id, name: r.name, description: r.description,
  documentCount: r.document_count, chunkCount: r.chunk_count, createdAt: r.created_at, updatedAt: r.updated_at,
});
const toDoc = (r: DocRow): DocumentRecord => ({
  id: r.id, knowledgeBaseId: r.knowledge_base_id, title: r.title, url: r.url, format: r.format, status: r.status, error: r.error,
  chunkCount: r.chunk_count, bytes: r.bytes, createdAt: r.created_at, updatedAt: r.updated_at,
});

const KB_SELECT = `SELECT kb.*,
  (SELECT count(*) FROM documents d WHERE d.knowledge_base_id = kb.id) AS document_count,
  (SELECT coalesce(sum(chunk_count), 0) FROM documents d WHERE d.knowledge_base_id = kb.id) AS chunk_count
  FROM knowledge_bases kb`;

export interface NewDocument { title: string; content: string; format: DocumentFormat; url: string | null }

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
export function createKnowledgeStore(db: Db, hooks: { onIndexChange?: () => void; onChange?: (change: KnowledgeBaseChange) => void } = {}) {
  const changed = (): void => hooks.onIndexChange?.();
  const insertChunk = db.prepare('INSERT INTO chunks (document_id, knowledge_base_id, ordinal, title, headings, body, anchor) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insertDoc = db.prepare(`INSERT INTO documents (id, knowledge_base_id, title, url, format, status, chunk_count, bytes, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, 'ready', ?, ?, ?, ?)`);
  const touchKb = db.prepare('UPDATE knowledge_bases SET updated_at = ? WHERE id = ?');

  function deleteDocumentRows(docId: string): void {
    // Chunks go first, one by one through the trigger, so the FTS index forgets them too.
    db.prepare('DELETE FROM chunks WHERE document_id = ?').run(docId);
    db.prepare('DELETE FROM documents WHERE id = ?').run(docId);
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
        for (const { id: docId } of db.prepare('SELECT id FROM documents WHERE knowledge_base_id = ?').all(id) as { id: string }[]) deleteDocumentRows(docId);
        hooks.onChange?.({ knowledgeBaseId: id, change: 'deleted' }); // while its assistant links still exist
        return db.prepare('DELETE FROM knowledge_bases WHERE id = ? AND organization_id = ?').run(id, organizationId).changes > 0;
      })();
      changed();
      return removed;
    },

    /** Chunks and stores a document; a document with the same url in the base is replaced. */
    addDocument(knowledgeBaseId: string, input: NewDocument, at: string): DocumentRecord {
      const chunks = chunkDocument({ title: input.title, content: input.content, format: input.format });
      const id = newId('doc');
      db.transaction(() => {
        const old = input.url ? db.prepare('SELECT id FROM documents WHERE knowledge_base_id = ? AND url = ?').all(knowledgeBaseId, input.url) as { id: string }[] : [];
        for (const o of old) deleteDocumentRows(o.id);
        insertDoc.run(id, knowledgeBaseId, input.title, input.url, input.format, chunks.length, Buffer.byteLength(input.content), at, at);
        for (const c of chunks) insertChunk.run(id, knowledgeBaseId, c.ordinal, input.title, c.headingPath.join(' › '), c.text, c.anchor);
        touchKb.run(at, knowledgeBaseId);
        hooks.onChange?.({
          knowledgeBaseId, change: 'document.added', document: { id, title: input.title, url: input.url, format: input.format, chunkCount: chunks.length },
          replacedDocumentIds: old.map((o) => o.id),
        });
      })();
      changed();
      return this.getDocument(knowledgeBaseId, id) as DocumentRecord;
    },
    getDocument(knowledgeBaseId: string, id: string): DocumentRecord | null {
      const row = db.prepare<[string, string], DocRow>('SELECT * FROM documents WHERE id = ? AND knowledge_base_id = ?').get(id, knowledgeBaseId);
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
