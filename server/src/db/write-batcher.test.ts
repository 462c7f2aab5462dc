import { describe, expect, it } from 'vitest';
import { createWriteBatcher } from './write-batcher.js';
import { openDb } from './open.js';

function setup() {
  const db = openDb(':memory:');
  db.exec('CREATE TABLE t (v INTEGER NOT NULL UNIQUE)');
  let commits = 0;
  const origTransaction = db.transaction.bind(db);
  // Count real transactions to see that writes of one turn share one.
  (db as { transaction: typeof db.transaction }).transaction = ((fn: (...a: never[]) => unknown) => {
    const tx = origTransaction(fn);
    return Object.assign((...args: never[]) => { commits++; return tx(...args); }, tx);
  }) as typeof db.transaction;
  return { db, batcher: createWriteBatcher(db), commits: () => commits };
}

describe('write batcher (group commit)', () => {
  it('commits writes queued in one turn together and resolves each with its result', async () => {
    const { db, batcher, commits } = setup();
    const results = await Promise.all([1, 2, 3].map((v) => batcher.write(() => db.prepare('INSERT INTO t (v) VALUES (?)').run(v).lastInsertRowid)));
    expect(results).toEqual([1n, 2n, 3n].map(Number));
    expect(commits()).toBe(1);
    expect((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(3);
  });

  it('isolates a failing write: the others still commit', async () => {
    const { db, batcher } = setup();
    const insert = (v: number) => batcher.write(() => db.prepare('INSERT INTO t (v) VALUES (?)').run(v));
    const outcomes = await Promise.allSettled([insert(1), insert(1), insert(2)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT v FROM t ORDER BY v').all()).toEqual([{ v: 1 }, { v: 2 }]);
  });

  it('runs later writes in later transactions', async () => {
    const { db, batcher, commits } = setup();
    await batcher.write(() => db.prepare('INSERT INTO t (v) VALUES (1)').run());
    await batcher.write(() => db.prepare('INSERT INTO t (v) VALUES (2)').run());
    expect(commits()).toBe(2);
  });
});
