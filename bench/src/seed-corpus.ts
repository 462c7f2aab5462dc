import { migrate } from '../../server/src/db/migrate.js';
import { openDb, type Db } from '../../server/src/db/open.js';
import { createKnowledgeStore } from '../../server/src/knowledge/store.js';
import { createSqliteStorage, type SqliteStorage } from '../../server/src/storage/sqlite.js';
import { createCorpus } from './corpus.js';

/**
 * Fills a knowledge base with synthetic documents until it holds about `chunks` chunks,
 * `documentsPerTransaction` at a time (500: a bulk import or a crawl; 1: what each API upload does).
 */
export async function seedCorpusDb(
  file: string,
  chunks: number,
  opts: { documentsPerTransaction?: number } = {},
): Promise<{
  db: Db;
  storage: SqliteStorage;
  organizationId: string;
  knowledgeBaseId: string;
  questions: string[];
  seconds: number;
  bytes: number;
}> {
  const db = openDb(file);
  migrate(db);
  const storage = createSqliteStorage(db);
  const store = createKnowledgeStore(storage);
  const at = new Date().toISOString();
  const organizationId = 'org_bench';
  db.prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES (?, 'Bench', 'enterprise', ?)").run(organizationId, at);
  const kb = await store.createKb(organizationId, { name: 'Bench corpus', description: null }, at);
  const sectionsPerDocument = 5;
  const corpus = createCorpus({
    documents: Math.ceil(chunks / sectionsPerDocument),
    sectionsPerDocument,
    sentencesPerSection: 6,
    vocabulary: 20_000,
  });
  let storeMs = 0;
  let bytes = 0;
  const perTransaction = opts.documentsPerTransaction ?? 500;
  // Only the store's work is timed (chunking, rows, FTS, commit), not generating the corpus.
  const insertInTransaction = (docs: { title: string; content: string; url: string }[]) =>
    store.write(async (w) => {
      for (const d of docs) await w.addDocument(kb.id, { ...d, format: 'markdown' }, at);
    });
  const insertBatch = async (docs: { title: string; content: string; url: string }[]): Promise<void> => {
    const t0 = performance.now();
    await insertInTransaction(docs);
    storeMs += performance.now() - t0;
  };
  let batch: { title: string; content: string; url: string }[] = [];
  for (const doc of corpus.documents()) {
    bytes += Buffer.byteLength(doc.content);
    batch.push(doc);
    if (batch.length === perTransaction) {
      await insertBatch(batch);
      batch = [];
    }
  }
  if (batch.length) await insertBatch(batch);
  // The full-text entries the last uploads owe are part of their cost (written after their commits).
  const t0 = performance.now();
  await store.fullTextSettled();
  storeMs += performance.now() - t0;
  return { db, storage, organizationId, knowledgeBaseId: kb.id, questions: corpus.questions(200), seconds: storeMs / 1000, bytes };
}
