import { afterEach, describe, expect, it, vi } from 'vitest';
import { freshPostgresStorage, testDatabase } from '../../test/postgres.js';
import type { Storage } from '../storage/port.js';
import type { SqliteStorage } from '../storage/sqlite.js';
import { createRetriever } from './retrieval.js';
import { createKnowledgeStore } from './store.js';
import { openTestStorage } from '../../test/knowledge-storage.js';

// The full-text entries of a transaction's new chunks are written after its other statements
// (store.ts flushFullText): what must hold whatever the order, on the project's database.

const AT = '2026-01-01T00:00:00.000Z';
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

/** The project's database (SQLite in memory or a fresh PostgreSQL one) with organization org_t. */
async function open(): Promise<Storage> {
  if (testDatabase === 'sqlite') {
    const storage = await openTestStorage();
    close = () => storage.close();
    return storage;
  }
  const pg = await freshPostgresStorage();
  close = () => pg.drop();
  await pg.storage.run("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_t', 'T', 'free', ?)", [AT]);
  return pg.storage;
}

/** Two sections each: two chunks a document. */
const doc = (word: string, url: string | null = null) => ({
  title: `About ${word}`,
  format: 'markdown' as const,
  url,
  content: `# About ${word}\n\nThe ${word} lives here.\n\n## More\n\nOne more line about the ${word} and its habits.`,
});

describe('full-text entries written last in the transaction', () => {
  it('index every chunk a transaction keeps, and none of those it replaced in the same transaction', async () => {
    const storage = await open();
    const store = createKnowledgeStore(storage);
    const kb = await store.createKb('org_t', { name: 'Animals', description: null }, AT);
    await store.write(async (w) => {
      await w.addDocument(kb.id, doc('zebra', 'https://zoo.example/a'), AT);
      await w.addDocument(kb.id, doc('walrus'), AT);
      // The same url again: the zebra document and its chunks go, in this same transaction.
      await w.addDocument(kb.id, doc('pelican', 'https://zoo.example/a'), AT);
    });
    const fts = createRetriever(storage, { memoryIndexMaxChunks: 0 });
    const kbs = [{ id: kb.id, priority: 5 }];
    const titles = async (q: string) => [...new Set((await fts.retrieve(q, kbs, 5)).map((c) => c.title))];
    expect(await titles('zebra')).toEqual([]);
    expect(await titles('walrus')).toEqual(['About walrus']);
    expect(await titles('pelican')).toEqual(['About pelican']);
    const ids = async (sql: string) => (await storage.all<{ id: number }>(sql)).map((r) => Number(r.id));
    const chunkIds = await ids('SELECT id FROM chunks ORDER BY id');
    expect(chunkIds).toHaveLength(4);
    // Every kept chunk has its entry, and the index holds nothing else.
    const indexed =
      storage.dialect === 'sqlite'
        ? 'SELECT rowid AS id FROM chunks_fts ORDER BY rowid'
        : 'SELECT id FROM chunks WHERE tsv IS NOT NULL ORDER BY id';
    expect(await ids(indexed)).toEqual(chunkIds);
  });

  it('make one FTS5 segment per write of owed entries, however many documents and transactions owed them (SQLite)', async () => {
    // Only the backlog's window timer is faked: it never fires, so the entries are written when
    // the test asks (fullTextSettled), whatever the machine's speed.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const storage = await openTestStorage();
      close = () => storage.close();
      const store = createKnowledgeStore(storage);
      const kb = await store.createKb('org_t', { name: 'Animals', description: null }, AT);
      const segments = async () =>
        (await (storage as SqliteStorage).get<{ n: number }>('SELECT count(DISTINCT segid) AS n FROM chunks_fts_idx'))?.n;
      const owed = async () => (await storage.get<{ n: number }>('SELECT count(*) AS n FROM chunks_fts_pending'))?.n;
      await store.write(async (w) => {
        for (const word of ['otter', 'badger', 'heron', 'lynx']) await w.addDocument(kb.id, doc(word), AT);
      });
      await store.fullTextSettled();
      // Entries written document by document became a segment each: each chunk INSERT that
      // followed them opened a statement savepoint, which flushes FTS5's pending entries.
      expect(await segments()).toBe(1);
      // Three uploads, a transaction each (as three POST …/documents): their entries are owed
      // until one transaction writes all of them, in one segment instead of three.
      for (const word of ['beaver', 'mole', 'stoat']) await store.addDocument(kb.id, doc(word), AT);
      expect(await owed()).toBe(6);
      expect(await segments()).toBe(1);
      await store.fullTextSettled();
      expect(await owed()).toBe(0);
      expect(await segments()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
