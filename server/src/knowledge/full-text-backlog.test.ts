import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { migrate } from '../db/migrate.js';
import { openDb } from '../db/open.js';
import { createSqliteStorage, type SqliteStorage } from '../storage/sqlite.js';
import { createRetriever } from './retrieval.js';
import { createKnowledgeStore } from './store.js';
import { openTestStorage } from '../../test/knowledge-storage.js';

// FTS5 entries are written after their chunks commit (full-text-backlog.ts): what must hold.

const AT = '2026-01-01T00:00:00.000Z';
const doc = (word: string, url: string | null = null) => ({
  title: `About ${word}`,
  format: 'markdown' as const,
  url,
  content: `# About ${word}\n\nThe ${word} lives here.\n\n## More\n\nOne more line about the ${word} and its habits.`,
});
const ids = async (storage: SqliteStorage, sql: string) => (await storage.all<{ id: number }>(sql)).map((r) => Number(r.id));

// The backlog's window timer never fires: entries are written only when a read (or the test) asks.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('full-text entries owed by committed uploads (SQLite)', () => {
  it("are found by the next search, written once; a chunk deleted first gets none, and its reused id the new chunk's", async () => {
    const storage = await openTestStorage();
    try {
      const store = createKnowledgeStore(storage);
      const kb = await store.createKb('org_t', { name: 'Animals', description: null }, AT);
      const kbs = [{ id: kb.id, priority: 5 }];
      const fts = createRetriever(storage, { memoryIndexMaxChunks: 0 });
      const titles = async (q: string) => [...new Set((await fts.retrieve(q, kbs, 5)).map((c) => c.title))];

      const zebra = await store.addDocument(kb.id, doc('zebra'), AT);
      const zebraChunks = await ids(storage, 'SELECT id FROM chunks ORDER BY id');
      // Deleted while its entries are still owed: the chunks' ids are free again (SQLite reuses
      // the largest), and the next upload takes them.
      await store.deleteDocument(kb.id, zebra.id, AT);
      await store.addDocument(kb.id, doc('walrus'), AT);
      expect(await ids(storage, 'SELECT id FROM chunks ORDER BY id')).toEqual(zebraChunks);
      expect(await ids(storage, 'SELECT rowid AS id FROM chunks_fts')).toEqual([]);

      expect(await titles('walrus')).toEqual(['About walrus']);
      expect(await titles('zebra')).toEqual([]);
      // One entry per kept chunk, nothing else, nothing owed.
      expect(await ids(storage, 'SELECT rowid AS id FROM chunks_fts ORDER BY rowid')).toEqual(zebraChunks);
      expect(await ids(storage, 'SELECT chunk_id AS id FROM chunks_fts_pending')).toEqual([]);
      // A later upload is found by the next search too.
      await store.addDocument(kb.id, doc('pelican'), AT);
      expect(await titles('pelican')).toEqual(['About pelican']);
    } finally {
      await storage.close();
    }
  });

  it('owed when the server stopped are written before the next server reads the index', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-fts-backlog-'));
    const file = path.join(dir, 'parley.db');
    try {
      const first = createSqliteStorage(openDb(file));
      migrate(first.db);
      await first.run("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_t', 'T', 'free', ?)", [AT]);
      const store = createKnowledgeStore(first);
      const kb = await store.createKb('org_t', { name: 'Animals', description: null }, AT);
      await store.addDocument(kb.id, doc('otter'), AT);
      // Acknowledged, its entries still owed: the connection goes away without writing them
      // (closed here; a crash leaves the same committed rows).
      expect((await first.get<{ n: number }>('SELECT count(*) AS n FROM chunks_fts_pending'))?.n).toBe(2);
      await first.close();

      const second = createSqliteStorage(openDb(file));
      try {
        const fts = createRetriever(second, { memoryIndexMaxChunks: 0 });
        expect((await fts.retrieve('otter', [{ id: kb.id, priority: 5 }], 5)).map((c) => c.title)).toEqual(['About otter', 'About otter']);
        expect((await second.get<{ n: number }>('SELECT count(*) AS n FROM chunks_fts_pending'))?.n).toBe(0);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
