import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isUniqueViolation, type Storage, type Tally } from '../src/storage/port.js';

/**
 * The behaviour every storage adapter must have, run against each real database
 * (sqlite.test.ts, postgres.test.ts). `make` returns a storage on an empty schema where the
 * table `conformance_items(id TEXT PRIMARY KEY, n INTEGER NOT NULL, flag INTEGER, note TEXT)`
 * exists.
 */
export function describeStorageConformance(name: string, make: () => Promise<Storage>): void {
  describe(`storage port conformance: ${name}`, () => {
    let s: Storage;
    beforeEach(async () => {
      s = await make();
    });
    afterEach(async () => {
      await s.close();
    });

    it('runs positional and named statements and returns numbers as numbers', async () => {
      await s.run('INSERT INTO conformance_items (id, n, flag, note) VALUES (?, ?, ?, ?)', ['a', 1, true, "it's ? here"]);
      await s.run('INSERT INTO conformance_items (id, n, flag, note) VALUES (@id, @n, @flag, @note)', {
        id: 'b',
        n: 2,
        flag: false,
        note: null,
      });
      const rows = await s.all<{ id: string; n: number; flag: number; note: string | null }>(
        'SELECT id, n, flag, note FROM conformance_items ORDER BY id',
      );
      expect(rows).toEqual([
        { id: 'a', n: 1, flag: 1, note: "it's ? here" },
        { id: 'b', n: 2, flag: 0, note: null },
      ]);
      const count = await s.get<{ c: number; total: number }>('SELECT COUNT(*) AS c, SUM(n) AS total FROM conformance_items');
      expect(count).toEqual({ c: 2, total: 3 });
      expect(await s.get('SELECT id FROM conformance_items WHERE id = ?', ['zzz'])).toBeUndefined();
      const upd = await s.run('UPDATE conformance_items SET n = n + 1 WHERE n >= ?', [1]);
      expect(upd.changes).toBe(2);
    });

    it('returns generated values with RETURNING and reports unique violations the same way', async () => {
      const row = await s.get<{ id: string; n: number }>('INSERT INTO conformance_items (id, n) VALUES (?, ?) RETURNING id, n', ['r', 7]);
      expect(row).toEqual({ id: 'r', n: 7 });
      const err = await s.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['r', 8]).catch((e: unknown) => e);
      expect(isUniqueViolation(err)).toBe(true);
      const ignored = await s.run('INSERT INTO conformance_items (id, n) VALUES (?, ?) ON CONFLICT (id) DO NOTHING', ['r', 9]);
      expect(ignored.changes).toBe(0);
      await s.run(
        'INSERT INTO conformance_items (id, n) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET n = conformance_items.n + excluded.n',
        ['r', 3],
      );
      expect(await s.get('SELECT n FROM conformance_items WHERE id = ?', ['r'])).toEqual({ n: 10 });
    });

    it('commits a transaction, and rolls back all of a failing one', async () => {
      const result = await s.tx(async (tx) => {
        await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['t1', 1]);
        const seen = await tx.get<{ n: number }>('SELECT n FROM conformance_items WHERE id = ?', ['t1']);
        return seen?.n;
      });
      expect(result).toBe(1);
      const failed = await s
        .tx(async (tx) => {
          await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['t2', 2]);
          throw new Error('boom');
        })
        .catch((e: unknown) => e);
      expect((failed as Error).message).toBe('boom');
      expect(await s.all('SELECT id FROM conformance_items ORDER BY id')).toEqual([{ id: 't1' }]);
    });

    it('isolates concurrent transactions: one failing does not lose the others', async () => {
      const jobs = Array.from({ length: 20 }, (_, i) =>
        s.tx(async (tx) => {
          await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', [`c${i}`, i]);
          if (i % 5 === 0) throw new Error(`fail ${i}`);
          return i;
        }),
      );
      const settled = await Promise.allSettled(jobs);
      expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(16);
      const rows = await s.all<{ n: number }>('SELECT n FROM conformance_items ORDER BY n');
      expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 5 !== 0));
    });

    it('keeps concurrent read-modify-write transactions exact (no lost update)', async () => {
      await s.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['counter', 0]);
      await Promise.all(
        Array.from({ length: 50 }, () =>
          s.tx(async (tx) => {
            await tx.run('UPDATE conformance_items SET n = n + 1 WHERE id = ?', ['counter']);
          }),
        ),
      );
      expect(await s.get('SELECT n FROM conformance_items WHERE id = ?', ['counter'])).toEqual({ n: 50 });
    });

    it('runs work registered with beforeCommit last, in order, inside the transaction', async () => {
      const order: string[] = [];
      const result = await s.tx(async (tx) => {
        tx.beforeCommit(async () => {
          order.push('first');
          // Sees the function's writes, and may register more (run after, still before the commit).
          const seen = await tx.get<{ n: number }>('SELECT n FROM conformance_items WHERE id = ?', ['d1']);
          await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['d2', (seen?.n ?? 0) + 1]);
          tx.beforeCommit(async () => {
            order.push('third');
          });
        });
        tx.beforeCommit(async () => {
          order.push('second');
        });
        await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['d1', 1]);
        order.push('body');
        return 'value';
      });
      expect(result).toBe('value');
      expect(order).toEqual(['body', 'first', 'second', 'third']);
      expect(await s.all('SELECT id, n FROM conformance_items ORDER BY id')).toEqual([
        { id: 'd1', n: 1 },
        { id: 'd2', n: 2 },
      ]);
    });

    it('rolls the whole transaction back when beforeCommit work fails, and skips it when the body fails', async () => {
      const failed = await s
        .tx(async (tx) => {
          tx.beforeCommit(async () => {
            throw new Error('late boom');
          });
          await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['e1', 1]);
        })
        .catch((e: unknown) => e);
      expect(String((failed as Error).message)).toContain('late boom');
      let ran = false;
      await s
        .tx(async (tx) => {
          tx.beforeCommit(async () => {
            ran = true;
          });
          throw new Error('body boom');
        })
        .catch(() => undefined);
      expect(ran).toBe(false);
      // Next to a transaction that commits (SQLite: in the same group commit), nothing of either is lost or kept wrongly.
      await Promise.allSettled([
        s.tx(async (tx) => {
          tx.beforeCommit(async () => {
            await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['e2', 2]);
          });
        }),
        s.tx(async (tx) => {
          await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['e3', 3]);
          tx.beforeCommit(async () => {
            throw new Error('x');
          });
        }),
      ]);
      expect(await s.all('SELECT id FROM conformance_items ORDER BY id')).toEqual([{ id: 'e2' }]);
    });

    it('wakes afterCommit listeners once committed, outside the transaction, in order; never for one rolled back', async () => {
      const seen: Array<Promise<unknown>> = [];
      const order: string[] = [];
      // Each wake-up reads through the storage itself: refused inside the transaction, and it must see the commit.
      const wake = (label: string, id: string) => () => {
        order.push(label);
        seen.push(s.get<{ n: number }>('SELECT n FROM conformance_items WHERE id = ?', [id]));
      };
      const value = await s.tx(async (tx) => {
        await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['w1', 1]);
        tx.afterCommit(wake('first', 'w1'));
        tx.afterCommit(wake('second', 'w1'));
        // Held open across a turn of the event loop, as a slow transaction would be.
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(order).toEqual([]);
        return 'done';
      });
      expect(value).toBe('done');
      expect(order).toEqual(['first', 'second']);
      expect(await Promise.all(seen)).toEqual([{ n: 1 }, { n: 1 }]);
      // Rolled back (alone, or beside one that commits: SQLite's group commit): not woken.
      await Promise.allSettled([
        s.tx(async (tx) => {
          tx.afterCommit(wake('failed', 'w2'));
          await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['w2', 2]);
          throw new Error('boom');
        }),
        s.tx(async (tx) => {
          tx.afterCommit(wake('kept', 'w3'));
          await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['w3', 3]);
        }),
      ]);
      expect(order).toEqual(['first', 'second', 'kept']);
      expect(await Promise.all(seen)).toEqual([{ n: 1 }, { n: 1 }, { n: 3 }]);
      await s
        .tx(async (tx) => {
          tx.afterCommit(wake('late boom', 'w1'));
          tx.beforeCommit(async () => {
            throw new Error('late');
          });
        })
        .catch(() => undefined);
      expect(order).not.toContain('late boom');
    });

    it("writes a transaction's tally before its commit, after its beforeCommit work, and never that of a failing one", async () => {
      await s.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['total', 0]);
      const counter: Tally<{ n: number }> = {
        create: () => ({ n: 0 }),
        merge: (into, from) => {
          into.n += from.n;
        },
        write: async (tx, t) => {
          await tx.run('UPDATE conformance_items SET n = n + ? WHERE id = ?', [t.n, 'total']);
        },
      };
      const order: string[] = [];
      await s.tx(async (tx) => {
        tx.beforeCommit(async () => {
          order.push(`beforeCommit sees ${(await tx.get<{ n: number }>('SELECT n FROM conformance_items WHERE id = ?', ['total']))?.n}`);
          tx.tally(counter).n += 1;
        });
        tx.tally(counter).n += 2;
        expect(tx.tally(counter)).toBe(tx.tally(counter));
      });
      expect(order).toEqual(['beforeCommit sees 0']);
      expect(await s.get('SELECT n FROM conformance_items WHERE id = ?', ['total'])).toEqual({ n: 3 });
      // Side by side (SQLite: one group commit, shared or not), each succeeding one counted once.
      const settled = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) =>
          s.tx(
            async (tx) => {
              tx.tally(counter).n += 10;
              await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', [`t${i}`, i]);
              if (i % 4 === 1) throw new Error(`fail ${i}`);
            },
            { sharesTallies: i % 3 !== 0 },
          ),
        ),
      );
      expect(settled.filter((r) => r.status === 'rejected')).toHaveLength(3);
      expect(await s.get('SELECT n FROM conformance_items WHERE id = ?', ['total'])).toEqual({ n: 93 });
      expect(await s.get('SELECT COUNT(*) AS c FROM conformance_items')).toEqual({ c: 10 });
    });

    it('refuses a transaction handle used after its transaction ended', async () => {
      let leaked: Parameters<Parameters<Storage['tx']>[0]>[0] | null = null;
      await s.tx(async (tx) => {
        leaked = tx;
      });
      await expect(leaked!.get('SELECT 1 AS one')).rejects.toThrow(/after its transaction ended/);
    });

    it('does not let a statement from outside see or join an open transaction', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const inTx = s
        .tx(async (tx) => {
          await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['hidden', 1]);
          await gate; // a transaction held open across macrotasks
          throw new Error('rolled back');
        })
        .catch(() => 'rolled back');
      await new Promise((r) => setTimeout(r, 20));
      const outside = s.get('SELECT COUNT(*) AS c FROM conformance_items');
      release();
      expect(await inTx).toBe('rolled back');
      expect(await outside).toEqual({ c: 0 });
    });
  });
}
