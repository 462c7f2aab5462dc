import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { openDb, type Db } from './open.js';
import { createSqliteStorage } from '../storage/sqlite.js';

// A SQLite file of its own on either project: what openDb sets is SQLite's by nature.
let db: Db | null = null;
let dir: string | null = null;
afterEach(() => {
  db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  db = null;
  dir = null;
});

describe('openDb', () => {
  it('keeps savepoint journals in memory: a group-committed batch larger than the 64 KiB spill size opens no temp file', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-open-'));
    db = openDb(path.join(dir, 'p.db'));
    migrate(db);
    expect(db.pragma('temp_store', { simple: true })).toBe(2); // MEMORY
    const storage = createSqliteStorage(db);
    await storage.run('CREATE TABLE big (id INTEGER PRIMARY KEY, v TEXT)');
    await storage.run(
      'INSERT INTO big (v) SELECT hex(randomblob(1000)) FROM (SELECT 1 UNION ALL SELECT 2) AS a, (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) AS b',
    );
    for (let i = 0; i < 9; i++) await storage.run('INSERT INTO big (v) SELECT v FROM big');
    // Jobs of one event-loop turn share a transaction, each in a savepoint rewriting every page.
    // A spilled sub-journal stays open until the transaction ends: the last job looks for it.
    const openFiles = () =>
      fs.readdirSync('/proc/self/fd').map((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          return '';
        }
      });
    let tempFiles: string[] | null = null;
    await Promise.all(
      Array.from({ length: 3 }, (_, j) =>
        storage.tx(async (tx) => {
          await tx.run('UPDATE big SET v = ? || substr(v, 2)', [String(j)]);
          if (j === 2) tempFiles = openFiles().filter((f) => f.includes('etilqs_'));
        }),
      ),
    );
    expect(tempFiles).toEqual([]);
    expect((await storage.get<{ n: number }>("SELECT COUNT(*) AS n FROM big WHERE v LIKE '2%'"))?.n).toBe(3072);
  });
});
