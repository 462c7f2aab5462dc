/**
 * A throwaway knowledge base for the quality benches: a temp SQLite file through the server's
 * own migrations, knowledge store and retriever, so what is measured is what the server runs.
 * Shared by the help-center bench (faq-harness.ts), the SQuAD harness and the confidence fit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { migrate } from '../../../server/src/db/migrate.js';
import { openDb } from '../../../server/src/db/open.js';
import { createRetriever, type KnowledgeSelection, type Retriever } from '../../../server/src/knowledge/retrieval.js';
import { createKnowledgeStore } from '../../../server/src/knowledge/store.js';
import { createSqliteStorage } from '../../../server/src/storage/sqlite.js';
import type { Storage } from '../../../server/src/storage/port.js';

export interface TempDocument {
  title: string;
  content: string;
  format: 'markdown' | 'text';
  url: string | null;
}

export interface TempKnowledgeBase {
  db: Database.Database;
  storage: Storage;
  organizationId: string;
  kbId: string;
  kbs: KnowledgeSelection[];
  retriever: Retriever;
  /** The id each document got, in the order given. */
  documentIds: string[];
  /** Milliseconds the ingestion took (one transaction). */
  ingestMs: number;
  close(): void;
}

/** A knowledge base holding `documents` (one write transaction), in a temp folder removed by close(). */
export async function openTempKnowledgeBase(name: string, documents: readonly TempDocument[]): Promise<TempKnowledgeBase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-quality-'));
  const db = openDb(path.join(dir, 'knowledge.db'));
  const close = (): void => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    migrate(db);
    const at = new Date().toISOString();
    const organizationId = 'org_quality';
    db.prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES (?, 'Quality', 'enterprise', ?)").run(organizationId, at);
    const storage = createSqliteStorage(db);
    const store = createKnowledgeStore(storage);
    const kb = await store.createKb(organizationId, { name, description: null }, at);
    const documentIds: string[] = [];
    const t0 = performance.now();
    await store.write(async (w) => {
      for (const d of documents) documentIds.push((await w.addDocument(kb.id, d, at)).id);
    });
    // FTS5 entries are written after the commit, many uploads at a time (full-text-backlog.ts):
    // the ingestion is done once they are.
    await store.fullTextSettled();
    const ingestMs = performance.now() - t0;
    const kbs = [{ id: kb.id, priority: 5 }];
    return { db, storage, organizationId, kbId: kb.id, kbs, retriever: createRetriever(storage), documentIds, ingestMs, close };
  } catch (err) {
    close();
    throw err;
  }
}
