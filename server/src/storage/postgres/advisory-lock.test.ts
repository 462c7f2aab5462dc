import { describe, expect, it } from 'vitest';
import { freshPostgresStorage, sharedPostgresDatabase } from '../../../test/postgres.js';
import { withAdvisoryLock } from './advisory-lock.js';

// Real PostgreSQL whatever the project: the helper is PostgreSQL's own.

describe('withAdvisoryLock', () => {
  it('a waiter queues behind the holder past the statement timeout, a try skips, and each connection gets its timeout back', async () => {
    const a = await sharedPostgresDatabase();
    // One connection each, and a statement timeout far shorter than the hold.
    const holderSide = a.open({ poolSize: 1, statementTimeoutMs: 100 });
    const waiterSide = a.open({ poolSize: 1, statementTimeoutMs: 100 });
    try {
      const key = 515151;
      const order: string[] = [];
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      const holder = withAdvisoryLock(holderSide.pool, key, async () => {
        order.push('holder in');
        await held;
        order.push('holder out');
        return 1;
      });
      while (!order.length) await new Promise((r) => setTimeout(r, 5));
      const waiter = withAdvisoryLock(waiterSide.pool, key, async () => {
        order.push('waiter in');
        return 2;
      });
      expect(await withAdvisoryLock(a.storage.pool, key, async () => 3, { wait: false })).toEqual({ locked: false });
      await new Promise((r) => setTimeout(r, 300)); // three statement timeouts
      expect(order).toEqual(['holder in']);
      release();
      expect(await holder).toEqual({ locked: true, value: 1 });
      expect(await waiter).toEqual({ locked: true, value: 2 });
      expect(order).toEqual(['holder in', 'holder out', 'waiter in']);
      for (const side of [holderSide, waiterSide])
        expect(await side.get("SELECT current_setting('statement_timeout') AS t")).toEqual({ t: '100ms' });
      expect(await withAdvisoryLock(a.storage.pool, key, async () => 4, { wait: false })).toEqual({ locked: true, value: 4 });
    } finally {
      await a.drop();
    }
  });

  it('releases the lock when the work throws, and passes its error on', async () => {
    const a = await freshPostgresStorage();
    try {
      await expect(
        withAdvisoryLock(a.storage.pool, 9, async () => {
          throw new Error('work failed');
        }),
      ).rejects.toThrow('work failed');
      expect(
        await withAdvisoryLock(a.storage.pool, 9, async (client) => (await client.query<{ n: number }>('SELECT 1 AS n')).rows[0]?.n, {
          wait: false,
        }),
      ).toEqual({ locked: true, value: 1 });
      // No advisory lock left behind on any connection of the database.
      expect(
        await a.storage.get(
          "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        ),
      ).toEqual({ n: 0 });
    } finally {
      await a.drop();
    }
  });
});
