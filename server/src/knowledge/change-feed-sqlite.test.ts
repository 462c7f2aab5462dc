import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate.js';
import { openDb } from '../db/open.js';
import { createSqliteStorage, type SqliteStorage } from '../storage/sqlite.js';
import { chunkChangeFeed, DATA_VERSION_EVERY_MS, type ChunkChange } from './change-feed.js';
import { createRetriever } from './retrieval.js';
import { createKnowledgeStore } from './store.js';

/**
 * The SQLite chunk change feed and commits by ANOTHER connection on the same file (another
 * process in production): seen through `PRAGMA data_version`, read by a question at most once
 * per DATA_VERSION_EVERY_MS. Runs on SQLite in both projects (the feed under test is SQLite's).
 */

const AT = '2026-01-01T00:00:00.000Z';
const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
let dir: string | null = null;
const open: SqliteStorage[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close().catch(() => undefined);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A connection on `file`; `reads` counts its `PRAGMA data_version` reads (the real statement, wrapped). */
function connect(file: string): { storage: SqliteStorage; reads: () => number } {
  const db: Database.Database = openDb(file);
  let reads = 0;
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const stmt = prepare(source);
    if (!/data_version/i.test(source)) return stmt;
    const pluck = stmt.pluck.bind(stmt);
    stmt.pluck = ((on?: boolean) => {
      const s = on === undefined ? pluck() : pluck(on);
      const get = s.get.bind(s);
      s.get = ((...args: unknown[]) => {
        reads++;
        return get(...args);
      }) as typeof s.get;
      return s;
    }) as typeof stmt.pluck;
    return stmt;
  }) as typeof db.prepare;
  const storage = createSqliteStorage(db);
  open.push(storage);
  return { storage, reads: () => reads };
}

async function twoConnections() {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-feed-sqlite-'));
  const file = path.join(dir, 'kb.db');
  const first = openDb(file);
  migrate(first);
  first.close();
  const a = connect(file);
  const b = connect(file);
  await a.storage.run("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_t', 'T', 'free', ?)", [AT]);
  const kb = await createKnowledgeStore(a.storage).createKb('org_t', { name: 'kb', description: null }, AT);
  return { a, b, kb };
}

describe('the SQLite chunk change feed and another connection', () => {
  it('a commit by another connection is seen by a question asked DATA_VERSION_EVERY_MS after it', async () => {
    const { a, b, kb } = await twoConnections();
    const retriever = createRetriever(a.storage);
    const sel = [{ id: kb.id, priority: 5 }];
    expect(await retriever.retrieve('zebra', sel, 3)).toEqual([]);
    const doc = await createKnowledgeStore(b.storage).addDocument(
      kb.id,
      { title: 'Zebra', content: 'Zebra crossings give walkers the right of way.', format: 'text', url: null },
      AT,
    );
    await sleep(DATA_VERSION_EVERY_MS);
    expect((await retriever.retrieve('zebra', sel, 3)).map((h) => h.documentId)).toEqual([doc.id]);
    await createKnowledgeStore(b.storage).deleteDocument(kb.id, doc.id, AT);
    await sleep(DATA_VERSION_EVERY_MS);
    expect(await retriever.retrieve('zebra', sel, 3)).toEqual([]);
    // This connection's own writes are told at once, with no wait.
    const own = await createKnowledgeStore(a.storage).addDocument(
      kb.id,
      { title: 'Otters', content: 'The otter enclosure opens at ten.', format: 'text', url: null },
      AT,
    );
    expect((await retriever.retrieve('otter enclosure', sel, 3)).map((h) => h.documentId)).toEqual([own.id]);
  });

  it('questions read data_version at most once per DATA_VERSION_EVERY_MS, not once each', async () => {
    const { a, b, kb } = await twoConnections();
    const feed = chunkChangeFeed(a.storage);
    const heard: ChunkChange[] = [];
    feed.subscribe((c) => heard.push(c));
    await sleep(DATA_VERSION_EVERY_MS);
    const before = a.reads();
    const start = performance.now();
    const questions = 200;
    for (let i = 0; i < questions; i++) feed.poll();
    const elapsed = performance.now() - start;
    const reads = a.reads() - before;
    expect(reads).toBeGreaterThanOrEqual(1); // the first one, past the bound, reads
    expect(reads).toBeLessThanOrEqual(Math.ceil(elapsed / DATA_VERSION_EVERY_MS) + 1);
    expect(reads).toBeLessThan(questions);
    // A commit by the other connection meanwhile: not seen before the next read, seen by it.
    await createKnowledgeStore(b.storage).addDocument(
      kb.id,
      { title: 'Zebra', content: 'Zebra crossings.', format: 'text', url: null },
      AT,
    );
    await sleep(DATA_VERSION_EVERY_MS);
    feed.poll();
    expect(heard).toContainEqual({ kind: 'external' });
  });
});
