import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresStorage, postgresUrlFor, type FreshPostgres } from '../../../test/postgres.js';
import type { Queryable } from '../port.js';
import { readHorizon, widenXid } from './horizon.js';

/**
 * The commit horizon (horizon.ts) with transactions interleaved by hand: separate connections to
 * this test database and to another database of the same server (`postgres`), each holding a
 * transaction open while the horizon is read. Real PostgreSQL on loopback.
 */

let db: FreshPostgres;
const clients: pg.Client[] = [];

beforeAll(async () => {
  db = await freshPostgresStorage();
});
afterEach(async () => {
  writer = null;
  for (const c of clients.splice(0)) await c.end().catch(() => undefined);
});
afterAll(async () => {
  await db?.drop();
});

/** A connection of its own (to this test database unless another is named). */
async function connect(database?: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: database ? postgresUrlFor(database) : db.url, application_name: 'parley-test-horizon' });
  c.on('error', () => undefined);
  await c.connect();
  clients.push(c);
  return c;
}

/** `BEGIN` and an xid: what a writing transaction holds until it ends. */
async function openWithXid(c: pg.Client): Promise<bigint> {
  await c.query('BEGIN');
  const r = await c.query<{ x: string }>('SELECT CAST(pg_current_xact_id() AS TEXT) AS x');
  return BigInt(r.rows[0]!.x);
}

let writer: pg.Client | null = null;
let written = 0;
/** A committed write in this database (on a connection of its own, so also usable inside `tx`); its xid. */
async function commitWrite(): Promise<bigint> {
  writer ??= await connect();
  const r = await writer.query<{ x: string }>('INSERT INTO chunk_deletions (chunk_id) VALUES ($1) RETURNING CAST(xact_id AS TEXT) AS x', [
    -++written,
  ]);
  return BigInt(r.rows[0]!.x);
}

const horizon = async (q: Queryable = db.storage): Promise<bigint> => BigInt(await readHorizon(q));

/** What the cursors used before: the oldest transaction running anywhere on the server. */
const serverWideXmin = async (): Promise<bigint> =>
  BigInt((await db.storage.get<{ x: string }>('SELECT CAST(pg_snapshot_xmin(pg_current_snapshot()) AS TEXT) AS x'))!.x);

/** A pg.Client as a Queryable (no parameters needed here). */
const queryable = (c: pg.Client): Queryable => ({
  dialect: 'postgres',
  all: async <T>(sql: string) => (await c.query(sql)).rows as T[],
  get: async <T>(sql: string) => (await c.query(sql)).rows[0] as T | undefined,
  run: async (sql: string) => ({ changes: (await c.query(sql)).rowCount ?? 0 }),
});

describe('widenXid', () => {
  it('gives a 32-bit xid the epoch that puts it nearest the reference, across epoch boundaries', async () => {
    const E = 2n ** 32n;
    const cases: Array<[bigint, bigint]> = [
      [E + 5n, E - 6n], // the previous epoch's last xids, still running
      [E - 6n, E + 3n], // taken after the reference, past the wrap
      [3n * E + 100n, 3n * E + 100n],
      [3n * E + 100n, 3n * E + 90n],
      [3n * E + 100n, 3n * E + 100n + 2n ** 31n - 1n],
      [3n * E + 100n, 3n * E + 100n - 2n ** 31n],
    ];
    for (const [near, full] of cases) {
      const row = await db.storage.get<{ w: string }>(`SELECT CAST(${widenXid('CAST(@x AS xid)', 'CAST(@near AS BIGINT)')} AS TEXT) AS w`, {
        x: String(full % E),
        near: String(near),
      });
      expect(BigInt(row!.w), `${full} near ${near}`).toBe(full);
    }
  });
});

describe('readHorizon', () => {
  it('is not held back by a transaction of another database on the server', async () => {
    const other = await connect('postgres');
    const foreign = await openWithXid(other);
    const written = await commitWrite();
    expect(written).toBeGreaterThan(foreign);
    // The control: the server-wide xmin stays at (or below) the foreign transaction.
    expect(await serverWideXmin()).toBeLessThanOrEqual(foreign);
    // The horizon has passed the write committed after it: its row can be read.
    expect(await horizon()).toBeGreaterThan(written);
    await other.query('COMMIT');
  });

  it('is held back by an open transaction of this database until it ends, then passes it', async () => {
    const mine = await connect();
    const open = await openWithXid(mine);
    const written = await commitWrite();
    expect(written).toBeGreaterThan(open);
    expect(await horizon()).toBeLessThanOrEqual(open);
    await mine.query('COMMIT');
    expect(await horizon()).toBeGreaterThan(written);
  });

  it('is held back by a transaction of this database that took its xid in a subtransaction', async () => {
    const mine = await connect();
    await mine.query('BEGIN');
    await mine.query('SAVEPOINT s');
    const open = BigInt(
      (
        await mine.query<{ x: string }>(`INSERT INTO chunk_deletions (chunk_id) VALUES (1)
      RETURNING CAST(xact_id AS TEXT) AS x`)
      ).rows[0]!.x,
    );
    await mine.query('RELEASE SAVEPOINT s');
    const written = await commitWrite();
    expect(written).toBeGreaterThan(open);
    expect(await horizon()).toBeLessThanOrEqual(open);
    await mine.query('COMMIT');
    expect(await horizon()).toBeGreaterThan(written);
  });

  it('inside a transaction: bounded by its own xid, and not fooled by pg_stat_activity read earlier in it', async () => {
    await db.storage.tx(async (tx) => {
      // Read-only so far (no xid): the activity copy is made here, before the other transaction starts.
      expect(Number((await tx.get<{ n: number }>('SELECT count(*) AS n FROM pg_stat_activity'))?.n)).toBeGreaterThan(0);
      const mine = await connect();
      const open = await openWithXid(mine);
      const written = await commitWrite(); // the snapshot's xmax moves past `open`
      expect(written).toBeGreaterThan(open);
      expect(await horizon(tx)).toBeLessThanOrEqual(open);
      await mine.query('COMMIT');
      expect(await horizon(tx)).toBeGreaterThan(written);
      const own = BigInt((await tx.get<{ x: string }>('SELECT CAST(pg_current_xact_id() AS TEXT) AS x'))!.x);
      await commitWrite();
      expect(await horizon(tx)).toBeLessThanOrEqual(own);
    });
  });

  it("a role without privileges sees other roles' transactions of this database (no pg_read_all_stats needed)", async () => {
    const role = `parley_t_plain_${randomBytes(4).toString('hex')}`;
    const admin = await connect();
    await admin.query(`CREATE ROLE ${role} NOLOGIN NOSUPERUSER`);
    try {
      const plain = await connect();
      await plain.query(`SET ROLE ${role}`);
      expect((await plain.query<{ s: boolean }>('SELECT rolsuper AS s FROM pg_roles WHERE rolname = current_user')).rows[0]?.s).toBe(false);
      expect((await plain.query<{ m: boolean }>("SELECT pg_has_role('pg_read_all_stats', 'USAGE') AS m")).rows[0]?.m).toBe(false);
      const mine = await connect(); // the superuser's transaction: another role
      const open = await openWithXid(mine);
      const written = await commitWrite();
      expect(await horizon(queryable(plain))).toBeLessThanOrEqual(open);
      await mine.query('COMMIT');
      expect(await horizon(queryable(plain))).toBeGreaterThan(written);
      await plain.end();
    } finally {
      await admin.query(`DROP ROLE ${role}`);
    }
  });

  it('is held back by a prepared transaction of this database (skipped when max_prepared_transactions = 0)', async (ctx) => {
    const max = Number(
      (await db.storage.get<{ max_prepared_transactions: string }>('SHOW max_prepared_transactions'))?.max_prepared_transactions,
    );
    if (max === 0) ctx.skip(); // PREPARE TRANSACTION is refused by the server then: nothing to hold the horizon
    const mine = await connect();
    const open = await openWithXid(mine);
    const gid = `parley_t_${randomBytes(6).toString('hex')}`;
    await mine.query(`PREPARE TRANSACTION '${gid}'`); // the xid now belongs to no backend
    try {
      const written = await commitWrite();
      expect(await horizon()).toBeLessThanOrEqual(open);
      await mine.query(`COMMIT PREPARED '${gid}'`);
      expect(await horizon()).toBeGreaterThan(written);
    } finally {
      await mine.query(`ROLLBACK PREPARED '${gid}'`).catch(() => undefined);
    }
  });

  it('a cursor read below it never skips a row, with writers committing out of xid order and a foreign transaction open', async () => {
    const other = await connect('postgres');
    await openWithXid(other); // would stall a server-wide horizon for the whole run
    const writers = await Promise.all([0, 1, 2, 3].map(() => connect()));
    // Where the server allows it, some commit through PREPARE TRANSACTION (its xid passes from the
    // backend to a prepared transaction that no backend holds).
    const prepared =
      Number((await db.storage.get<{ m: string }>("SELECT setting AS m FROM pg_settings WHERE name = 'max_prepared_transactions'"))?.m) > 0;
    let next = 1_000_000;
    const committed = new Set<number>();
    let stop = false;
    // Each writer: a transaction that takes its xid, sometimes in a subtransaction, waits a random
    // while (others take later xids and commit meanwhile), writes, commits (or rolls back).
    const write = async (c: pg.Client): Promise<void> => {
      while (!stop) {
        const ids = [next++, next++];
        await c.query('BEGIN');
        if (Math.random() < 0.3) await c.query('SAVEPOINT s');
        await c.query('INSERT INTO chunk_deletions (chunk_id) VALUES ($1)', [ids[0]]);
        await new Promise((r) => setTimeout(r, Math.random() * 15));
        await c.query('INSERT INTO chunk_deletions (chunk_id) VALUES ($1)', [ids[1]]);
        if (Math.random() < 0.1) {
          await c.query('ROLLBACK');
          continue;
        }
        if (prepared && Math.random() < 0.3) {
          const gid = `parley_t_${randomBytes(6).toString('hex')}`;
          await c.query(`PREPARE TRANSACTION '${gid}'`);
          await new Promise((r) => setTimeout(r, Math.random() * 10));
          await c.query(`COMMIT PREPARED '${gid}'`);
        } else {
          await c.query('COMMIT');
        }
        for (const id of ids) committed.add(id);
      }
    };
    const seen: number[] = [];
    let cursor = { xact: '0', id: 0 };
    const follow = async (): Promise<number> => {
      const h = await readHorizon(db.storage);
      const rows = await db.storage.all<{ id: number; xact: string }>(
        `SELECT chunk_id AS id, CAST(xact_id AS TEXT) AS xact FROM chunk_deletions
        WHERE (xact_id, chunk_id) > (CAST(? AS xid8), ?) AND xact_id < CAST(? AS xid8) AND chunk_id >= 1000000
        ORDER BY xact_id, chunk_id`,
        [cursor.xact, cursor.id, h],
      );
      for (const r of rows) seen.push(r.id);
      const last = rows.at(-1);
      if (last) cursor = { xact: last.xact, id: last.id };
      return rows.length;
    };
    const running = writers.map(write);
    const until = Date.now() + 3_000;
    let reads = 0;
    while (Date.now() < until) {
      await follow();
      reads += 1;
    }
    stop = true;
    await Promise.all(running);
    for (let i = 0; i < 100 && seen.length < committed.size; i++) await follow();
    await other.query('COMMIT');
    expect(committed.size).toBeGreaterThan(50);
    expect(new Set(seen).size).toBe(seen.length); // nothing twice
    expect(new Set(seen)).toEqual(committed); // nothing skipped, nothing rolled back
    console.log(
      `horizon cursor: ${committed.size} rows committed by 4 writers${prepared ? ' (some through PREPARE TRANSACTION)' : ''}, ${reads} reads while they ran, all seen once`,
    );
  });
});
