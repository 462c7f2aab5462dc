import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialectSql } from '../src/storage/dialect-sql.js';
import { leaseKind } from '../src/storage/leases.js';
import type { Storage } from '../src/storage/port.js';

/**
 * What the port offers features in place of a dialect test (issue 27), run against each real
 * database (sqlite.test.ts, postgres.test.ts): Tx.lock, the dialect's SQL fragments, the lease
 * primitive and Storage.pick. `make` returns a storage on an empty schema with
 * - `cap_items(id TEXT PRIMARY KEY, seq <integer numbered in insertion order: an identity on PostgreSQL>, flag INTEGER NOT NULL DEFAULT 0)`,
 * - `cap_leases(k TEXT PRIMARY KEY, owner TEXT, epoch INTEGER NOT NULL DEFAULT 0, expires_at INTEGER NOT NULL DEFAULT 0)`.
 */
export function describePortCapabilities(name: string, make: () => Promise<Storage>): void {
  describe(`storage port capabilities: ${name}`, () => {
    let s: Storage;
    beforeEach(async () => {
      s = await make();
    });
    afterEach(async () => {
      await s.close();
    });
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const LEASES = leaseKind({ table: 'cap_leases', key: 'k', expires: 'expires_at' });

    it('Tx.lock: a second transaction on the same key waits for the first, and its read sees what the first wrote', async () => {
      // Read, think, insert if absent: without the lock both PostgreSQL transactions read "none".
      const firstUse = (label: string) =>
        s.tx(async (tx) => {
          const [, seen] = await Promise.all([tx.lock('session:1'), tx.get<{ n: number }>('SELECT count(*) AS n FROM cap_items')]);
          await pause(30);
          if (!seen?.n)
            await tx.run(`INSERT INTO cap_items (id, seq) VALUES (?, ${dialectSql(tx).nextSerial('cap_items', 'seq')})`, [label]);
          return seen?.n ?? 0;
        });
      const counts = await Promise.all([firstUse('a'), firstUse('b')]);
      expect(counts.sort()).toEqual([0, 1]);
      expect(await s.get('SELECT count(*) AS n FROM cap_items')).toEqual({ n: 1 });
      // Another key does not wait for a held one.
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const holder = s.tx(
        async (tx) => {
          await tx.lock('k1');
          await tx.get('SELECT 1 AS one');
          await gate;
        },
        { groupCommit: false },
      );
      await pause(20);
      const other = s.tx(async (tx) => {
        await tx.lock('k2');
        return 'other';
      });
      // SQLite runs transactions one at a time: there, the other one commits once the holder does.
      if (s.soleServer) release();
      expect(await other).toBe('other');
      release();
      await holder;
      // A handle whose transaction ended is refused, as for any statement.
      let leaked: Parameters<Parameters<Storage['tx']>[0]>[0] | null = null;
      await s.tx(async (tx) => {
        leaked = tx;
      });
      await expect(leaked!.lock('late')).rejects.toThrow(/after its transaction ended/);
    });

    it('dialectSql: nextSerial numbers concurrent inserts apart, skipLocked lets concurrent claimers take different rows', async () => {
      const insert = (id: string) =>
        s.tx(async (tx) => {
          await tx.run(`INSERT INTO cap_items (id, seq) VALUES (?, ${dialectSql(tx).nextSerial('cap_items', 'seq')})`, [id]);
        });
      await Promise.all(Array.from({ length: 8 }, (_, i) => insert(`i${i}`)));
      const seqs = (await s.all<{ seq: number }>('SELECT seq FROM cap_items ORDER BY seq')).map((r) => r.seq);
      expect(new Set(seqs).size).toBe(8);
      expect(() => dialectSql(s).nextSerial('cap_items; DROP TABLE x', 'seq')).toThrow(/plain SQL name/);

      // Five claimers at once, each holding its row a moment: five different rows.
      const claim = () =>
        s.tx(async (tx) => {
          const row = await tx.get<{ id: string }>(
            `SELECT id FROM cap_items WHERE flag = 0 ORDER BY id LIMIT 1${dialectSql(tx).skipLocked}`,
          );
          if (!row) return null;
          await pause(20);
          const { changes } = await tx.run('UPDATE cap_items SET flag = 1 WHERE id = ? AND flag = 0', [row.id]);
          return changes ? row.id : null;
        });
      const got = await Promise.all(Array.from({ length: 5 }, claim));
      expect(got.every((id) => id !== null)).toBe(true);
      expect(new Set(got).size).toBe(5);
      // forShare and forUpdate fit a SELECT in a transaction on either dialect.
      await s.tx(async (tx) => {
        const q = dialectSql(tx);
        expect(await tx.get(`SELECT id FROM cap_items WHERE id = ?${q.forShare}`, ['i0'])).toEqual({ id: 'i0' });
        expect(await tx.get(`SELECT id FROM cap_items WHERE id = ?${q.forUpdate}`, ['i1'])).toEqual({ id: 'i1' });
      });
    });

    it('leases: claimed free, renewed by their holder, taken over once expired with the epoch moved on, fencing the old holder', async () => {
      const claim = (holder: string, keys: string[], now: number, until: number) =>
        s.tx((tx) => LEASES.claimKeys(tx, keys, holder, now, until));
      expect(await claim('A', ['e1', 'e2'], 1_000, 2_000)).toEqual(
        new Map([
          ['e1', 1],
          ['e2', 1],
        ]),
      );
      // Held and not expired: B gets nothing; A claiming again renews them at the same epoch.
      expect(await claim('B', ['e1', 'e2'], 1_500, 2_500)).toEqual(new Map());
      expect(await claim('A', ['e1'], 1_500, 3_000)).toEqual(new Map([['e1', 1]]));
      expect(await s.get('SELECT owner, epoch, expires_at FROM cap_leases WHERE k = ?', ['e1'])).toEqual({
        owner: 'A',
        epoch: 1,
        expires_at: 3_000,
      });
      // e2 expired at 2 000: B takes it over with epoch 2, and A's writes under epoch 1 are refused.
      expect(await claim('B', ['e1', 'e2'], 2_500, 4_000)).toEqual(new Map([['e2', 2]]));
      expect(await s.tx((tx) => LEASES.holds(tx, 'e2', 'A', 1))).toBe(false);
      expect(await s.tx((tx) => LEASES.holds(tx, 'e2', 'B', 2, 'update'))).toBe(true);
      expect(await LEASES.renew(s, 'A', 9_000, { key: 'e2', epoch: 1 })).toBe(0);
      expect(await LEASES.renew(s, 'B', 9_000, { key: 'e2', epoch: 2 })).toBe(1);
      expect(await LEASES.renew(s, 'A', 9_000)).toBe(1); // every lease A holds: e1
      // Statements of a feature, built from the fragments: the same rules.
      const due = await s.all<{ k: string }>(`SELECT k FROM cap_leases WHERE ${LEASES.free} ORDER BY k`, LEASES.freeParams('C', 8_999));
      expect(due).toEqual([]);
      expect(await s.all(`SELECT k FROM cap_leases WHERE ${LEASES.free} ORDER BY k`, LEASES.freeParams('C', 9_000))).toEqual([
        { k: 'e1' },
        { k: 'e2' },
      ]);
      // An own late lease is not free to its holder (its heartbeat renews it), only to others.
      expect(await s.all(`SELECT k FROM cap_leases WHERE ${LEASES.free} ORDER BY k`, LEASES.freeParams('A', 9_000))).toEqual([{ k: 'e2' }]);
      // Released: free at once, to anyone; the next holder's epoch moves on.
      expect(await LEASES.release(s, 'B', { key: 'e2', epoch: 1 })).toBe(0);
      expect(await LEASES.release(s, 'B', { key: 'e2', epoch: 2 })).toBe(1);
      expect(await LEASES.release(s, 'A')).toBe(1);
      expect(await s.all('SELECT k, owner, expires_at FROM cap_leases ORDER BY k')).toEqual([
        { k: 'e1', owner: null, expires_at: 0 },
        { k: 'e2', owner: null, expires_at: 0 },
      ]);
      expect(await claim('C', ['e1', 'e2'], 100, 200)).toEqual(
        new Map([
          ['e1', 2],
          ['e2', 3],
        ]),
      );
      // At start, a database of one server alone frees what a previous run held; a shared one keeps it.
      expect(await LEASES.expireAll(s)).toBe(s.soleServer ? 2 : 0);
    });

    it('leases: two holders claiming the same keys at once never both get one', async () => {
      const keys = Array.from({ length: 12 }, (_, i) => `k${String(i).padStart(2, '0')}`);
      const claimBy = (holder: string) =>
        s.tx(async (tx) => {
          const got = await LEASES.claimKeys(tx, keys, holder, 1_000, 60_000);
          await pause(20); // held while the other claims
          return got;
        });
      const [a, b] = await Promise.all([claimBy('A'), claimBy('B')]);
      for (const k of keys) expect(a.has(k) && b.has(k)).toBe(false);
      expect(a.size + b.size).toBe(keys.length);
      expect(await s.get('SELECT count(*) AS n FROM cap_leases WHERE epoch = 1')).toEqual({ n: keys.length });
    });

    it('leases with a token holder and no epoch column: the token fences alone, release deletes', async () => {
      const CLAIMS = leaseKind({
        table: 'cap_leases',
        key: 'k',
        owner: 'owner',
        epoch: null,
        expires: 'expires_at',
        deleteOnRelease: true,
      });
      await s.run(
        `INSERT INTO cap_leases (k, owner, expires_at) VALUES ('c1', 't1', 100)
        ON CONFLICT (k) DO UPDATE SET ${CLAIMS.take} WHERE ${CLAIMS.freeOn('cap_leases')}`,
        [...CLAIMS.takeParams('t1', 100), ...CLAIMS.freeParams('t1', 50)],
      );
      const takeOver = (token: string, now: number) =>
        s.run(
          `INSERT INTO cap_leases (k, owner, expires_at) VALUES ('c1', ?, ?)
        ON CONFLICT (k) DO UPDATE SET ${CLAIMS.take} WHERE ${CLAIMS.freeOn('cap_leases')}`,
          [token, now + 100, ...CLAIMS.takeParams(token, now + 100), ...CLAIMS.freeParams(token, now)],
        );
      expect((await takeOver('t2', 50)).changes).toBe(0); // live
      expect((await takeOver('t2', 100)).changes).toBe(1); // expired: taken over
      expect(await CLAIMS.holds(s, 'c1', 't1', 0)).toBe(false);
      expect(await CLAIMS.holds(s, 'c1', 't2', 0)).toBe(true);
      expect(await CLAIMS.renew(s, 't2', 500)).toBe(1);
      expect(await CLAIMS.release(s, 't1')).toBe(0);
      expect(await CLAIMS.release(s, 't2')).toBe(1);
      expect(await s.get('SELECT count(*) AS n FROM cap_leases')).toEqual({ n: 0 });
      await expect(s.tx((tx) => CLAIMS.claimKeys(tx, ['x'], 't3', 0, 1))).rejects.toThrow(/epoch column/);
    });

    it('pick: calls the arm of its own engine with itself; database names what is underneath', () => {
      const picked = s.pick<{ arm: string; e: Storage; v: unknown }>({
        sqlite: (e) => ({ arm: 'sqlite', e, v: e.dataVersion() }),
        postgres: (e) => ({ arm: 'postgres', e, v: typeof e.listen }),
      });
      expect(picked.arm).toBe(s.dialect);
      expect(picked.e).toBe(s);
      expect(picked.v).toEqual(s.soleServer ? expect.any(Number) : 'function');
      expect(typeof s.database).toBe('object');
      expect(s.database).not.toBe(s);
    });
  });
}
