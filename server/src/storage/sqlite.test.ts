import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { describePortCapabilities } from '../../test/capabilities-conformance.js';
import { describeStorageConformance } from '../../test/storage-conformance.js';
import type { Storage, Tally } from './port.js';
import { storageChecksEnabled } from './reentry-guard.js';
import { createSqliteStorage } from './sqlite.js';

function make() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE conformance_items (id TEXT PRIMARY KEY, n INTEGER NOT NULL, flag INTEGER, note TEXT)');
  return createSqliteStorage(db);
}

describeStorageConformance('sqlite', () => Promise.resolve(make()));

describePortCapabilities('sqlite', () => {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE cap_items (id TEXT PRIMARY KEY, seq INTEGER NOT NULL UNIQUE, flag INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE cap_leases (k TEXT PRIMARY KEY, owner TEXT, epoch INTEGER NOT NULL DEFAULT 0, expires_at INTEGER NOT NULL DEFAULT 0)`);
  return Promise.resolve(createSqliteStorage(db));
});

describe('sqlite engine capabilities', () => {
  it('dataVersion moves when another connection commits, not for its own writes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-storage-'));
    const file = path.join(dir, 'v.db');
    const db = new Database(file);
    db.exec('CREATE TABLE conformance_items (id TEXT PRIMARY KEY, n INTEGER NOT NULL, flag INTEGER, note TEXT)');
    const s = createSqliteStorage(db);
    const before = s.dataVersion();
    await s.run("INSERT INTO conformance_items (id, n) VALUES ('own', 1)");
    expect(s.dataVersion()).toBe(before);
    const other = new Database(file);
    other.prepare("INSERT INTO conformance_items (id, n) VALUES ('other', 2)").run();
    other.close();
    expect(s.dataVersion()).not.toBe(before);
    expect(s.soleServer).toBe(true);
    expect(s.database).toBe(db);
    await s.close();
    expect(s.dataVersion()).toBe(0); // closed: nothing to read
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('sqlite storage', () => {
  it('group-commits the transactions queued before the batch closes: nothing is visible to another connection until one commit', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-storage-'));
    const file = path.join(dir, 'g.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE conformance_items (id TEXT PRIMARY KEY, n INTEGER NOT NULL, flag INTEGER, note TEXT)');
    const s = createSqliteStorage(db);
    const other = new Database(file, { readonly: true });
    const seenByOther: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        s.tx(async (tx) => {
          await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', [`g${i}`, i]);
          seenByOther.push((other.prepare('SELECT COUNT(*) AS c FROM conformance_items').get() as { c: number }).c);
        }),
      ),
    );
    expect(seenByOther).toEqual(Array(10).fill(0));
    expect(other.prepare('SELECT COUNT(*) AS c FROM conformance_items').get()).toEqual({ c: 10 });
    other.close();
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('close() waits for the transactions in flight, across batches and slow ones, and loses none of their writes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-storage-'));
    const file = path.join(dir, 'c.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE conformance_items (id TEXT PRIMARY KEY, n INTEGER NOT NULL, flag INTEGER, note TEXT)');
    const s = createSqliteStorage(db, { maxBatch: 8 });
    const settled: string[] = [];
    // 40 writes queued in one turn (five batches of 8), one of them holding its transaction open
    // over a timer, and one queued by a caller resumed by an earlier commit.
    const writes = Array.from({ length: 40 }, (_, i) =>
      s
        .tx(async (tx) => {
          await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', [`c${i}`, i]);
          if (i === 20) await new Promise((r) => setTimeout(r, 50));
        })
        .then(() => {
          settled.push(`c${i}`);
        }),
    );
    const chained = writes[39]!.then(() =>
      s
        .tx(async (tx) => {
          await tx.run("INSERT INTO conformance_items (id, n) VALUES ('late', 99)");
        })
        .then(() => {
          settled.push('late');
        }),
    );
    await s.close();
    expect(db.open).toBe(false);
    expect(settled).toHaveLength(41);
    await Promise.all([...writes, chained]);
    const reopened = new Database(file, { readonly: true });
    expect(reopened.prepare('SELECT COUNT(*) AS c FROM conformance_items').get()).toEqual({ c: 41 });
    reopened.close();
    await s.close(); // a second close is a no-op
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sums the tallies of a group commit and writes them once, but before a transaction that does not share them', async () => {
    const s = make();
    await s.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['total', 0]);
    const writes: number[] = [];
    const counter: Tally<{ n: number }> = {
      create: () => ({ n: 0 }),
      merge: (into, from) => {
        into.n += from.n;
      },
      write: async (tx, t) => {
        writes.push(t.n);
        await tx.run('UPDATE conformance_items SET n = n + ? WHERE id = ?', [t.n, 'total']);
      },
    };
    const total = async (q: { get: Storage['get'] }) =>
      (await q.get<{ n: number }>('SELECT n FROM conformance_items WHERE id = ?', ['total']))?.n;
    const add = (n: number, opts: { fail?: boolean; sharesTallies?: boolean; sees?: number[] } = {}) =>
      s.tx(
        async (tx) => {
          opts.sees?.push((await total(tx)) ?? -1);
          tx.tally(counter).n += n;
          if (opts.fail) throw new Error('fail');
        },
        { sharesTallies: opts.sharesTallies ?? true },
      );
    // One batch: shared tallies summed (the failing ones' left out: the first job, which runs
    // without a savepoint, and one in a savepoint), written once.
    const one = await Promise.allSettled([add(32, { fail: true }), add(1), add(2), add(4, { fail: true }), add(8)]);
    expect(one.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(writes).toEqual([11]);
    expect(await total(s)).toBe(11);
    // A transaction that does not share them sees the earlier ones written before it runs.
    writes.length = 0;
    const seen: number[] = [];
    await Promise.all([add(1), add(2), add(4, { sharesTallies: false, sees: seen }), add(8), add(16)]);
    expect(seen).toEqual([14]);
    expect(writes).toEqual([3, 28]);
    expect(await total(s)).toBe(42);
    await s.close();
  });

  it('fails the whole group commit when its tally write fails, and keeps nothing of it', async () => {
    const s = make();
    const broken: Tally<{ n: number }> = {
      create: () => ({ n: 0 }),
      merge: (into, from) => {
        into.n += from.n;
      },
      write: async (tx) => {
        await tx.run('INSERT INTO no_such_table (n) VALUES (1)');
      },
    };
    const settled = await Promise.allSettled(
      Array.from({ length: 3 }, (_, i) =>
        s.tx(
          async (tx) => {
            await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', [`b${i}`, i]);
            tx.tally(broken).n += 1;
          },
          { sharesTallies: true },
        ),
      ),
    );
    expect(settled.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await s.get('SELECT COUNT(*) AS c FROM conformance_items')).toEqual({ c: 0 });
    // The storage is usable afterwards.
    await s.tx(async (tx) => {
      await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['after', 1]);
    });
    expect(await s.get('SELECT COUNT(*) AS c FROM conformance_items')).toEqual({ c: 1 });
    await s.close();
  });

  it('refuses storage calls and nested tx() from inside its own transaction, instead of deadlocking', async () => {
    const s = make();
    await expect(
      s.tx(async () => {
        await new Promise((r) => setTimeout(r, 1));
        await s.get('SELECT 1 AS one');
      }),
    ).rejects.toThrow(/use the Tx handle/);
    await expect(
      s.tx(async () => {
        await new Promise((r) => setTimeout(r, 1));
        await s.tx(async () => 1);
      }),
    ).rejects.toThrow(/pass the Tx handle/);
    await s.close();
  });

  it('without the reentry guard (production), a transaction awaiting its own storage fails after the wait limit instead of hanging', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE conformance_items (id TEXT PRIMARY KEY, n INTEGER NOT NULL, flag INTEGER, note TEXT)');
    const s = createSqliteStorage(db, { checkReentry: false, maxWaitMs: 50 });
    const started = Date.now();
    await expect(
      s.tx(async () => {
        await new Promise((r) => setTimeout(r, 1));
        await s.get('SELECT 1 AS one');
      }),
    ).rejects.toThrow(/waited 50 ms for an open transaction/);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The storage is usable afterwards.
    expect(await s.get('SELECT 1 AS one')).toEqual({ one: 1 });
    await s.close();
  });

  it('turns the reentry guard on under tests or PARLEY_STORAGE_CHECKS, off in production', () => {
    expect(storageChecksEnabled({})).toBe(false);
    expect(storageChecksEnabled({ VITEST: 'true' })).toBe(true);
    expect(storageChecksEnabled({ PARLEY_STORAGE_CHECKS: '1' })).toBe(true);
    expect(storageChecksEnabled({ VITEST: 'true', PARLEY_STORAGE_CHECKS: '0' })).toBe(false);
  });
});
