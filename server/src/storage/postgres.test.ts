import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresStorage, scratchPostgresDatabase } from '../../test/postgres.js';
import { describeStorageConformance } from './conformance.js';
import { createPostgresStorage, toQuery } from './postgres.js';

let scratch: { url: string; drop(): Promise<void> };
beforeAll(async () => { scratch = await scratchPostgresDatabase(); });
afterAll(async () => { await scratch.drop(); });

/** A storage on the scratch database, with conformance_items empty. */
async function make(opts: Parameters<typeof createPostgresStorage>[1] = {}) {
  const s = createPostgresStorage(scratch.url, { poolSize: 5, ...opts });
  await s.run('DROP TABLE IF EXISTS conformance_items');
  await s.run('CREATE TABLE conformance_items (id text PRIMARY KEY, n bigint NOT NULL, flag bigint, note text)');
  return s;
}

describeStorageConformance('postgres', () => make());

describe('postgres storage', () => {
  it('rewrites placeholders into ordered values, and refuses a missing or mismatched parameter', () => {
    expect(toQuery('SELECT * FROM t WHERE a = @a AND b = @b OR a = @a', { b: 2, a: 1 })).toEqual({ text: 'SELECT * FROM t WHERE a = $1 AND b = $2 OR a = $1', values: [1, 2] });
    expect(toQuery('SELECT ? , ?', [true, 5n])).toEqual({ text: 'SELECT $1 , $2', values: [1, '5'] });
    expect(() => toQuery('SELECT @a, @b', { a: 1 })).toThrow(/Missing named parameter "b"/);
    expect(() => toQuery('SELECT @a', [1])).toThrow(/named SQL/);
    expect(() => toQuery('SELECT ?', { a: 1 })).toThrow(/positional SQL/);
  });

  it('returns int8 and numeric as numbers, double precision as numbers, bytea as Buffer', async () => {
    const s = await make();
    const row = await s.get('SELECT CAST(? AS bigint) AS big, SUM(x) AS total, AVG(x) AS mean, CAST(? AS double precision) AS f, CAST(? AS bytea) AS b FROM (VALUES (1), (2)) AS v(x)', [9_007_199_254_740_991, 1.5, new Uint8Array([0, 1, 255])]);
    expect(row).toEqual({ big: 9_007_199_254_740_991, total: 3, mean: 1.5, f: 1.5, b: Buffer.from([0, 1, 255]) });
    await expect(s.get("SELECT CAST('9007199254740993' AS bigint) AS n")).rejects.toThrow(/does not fit a JS number/);
    await s.close();
  });

  it('refuses storage calls and nested tx() from inside its own transaction, as SQLite does', async () => {
    const s = await make();
    await expect(s.tx(async () => { await s.get('SELECT 1 AS one'); })).rejects.toThrow(/use the Tx handle/);
    await expect(s.tx(async () => { await s.tx(async () => 1); })).rejects.toThrow(/pass the Tx handle/);
    // Work a transaction started but that runs after it ended is ordinary work again.
    const later: Array<Promise<unknown>> = [];
    await s.tx(async (tx) => { await tx.get('SELECT 1 AS one'); later.push(new Promise((r) => setTimeout(r, 5)).then(() => s.get('SELECT 2 AS two'))); });
    expect(await Promise.all(later)).toEqual([{ two: 2 }]);
    await s.close();
  });

  it('does not commit a transaction in which a statement failed, even when fn caught the error', async () => {
    const s = await make();
    await s.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['dup', 1]);
    const err = await s.tx(async (tx) => {
      await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['kept?', 1]);
      await tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['dup', 2]).catch(() => undefined);
      return 'done';
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/a statement failed inside this transaction/);
    expect(await s.all('SELECT id FROM conformance_items ORDER BY id')).toEqual([{ id: 'dup' }]);
    await s.close();
  });

  it('runs a transaction again after a deadlock, so both sides commit', async () => {
    const s = await make();
    await s.run("INSERT INTO conformance_items (id, n) VALUES ('a', 0), ('b', 0)");
    let runs = 0;
    let meet!: () => void;
    const bothLocked = new Promise<void>((r) => { let n = 0; meet = () => { n += 1; if (n === 2) r(); }; });
    const cross = (first: string, second: string) => s.tx(async (tx) => {
      runs += 1;
      await tx.run('UPDATE conformance_items SET n = n + 1 WHERE id = ?', [first]);
      if (runs <= 2) { meet(); await bothLocked; }
      await tx.run('UPDATE conformance_items SET n = n + 1 WHERE id = ?', [second]);
    });
    await Promise.all([cross('a', 'b'), cross('b', 'a')]);
    expect(runs).toBe(3); // the deadlock victim ran twice
    expect(await s.all('SELECT id, n FROM conformance_items ORDER BY id')).toEqual([{ id: 'a', n: 2 }, { id: 'b', n: 2 }]);
    await s.close();
  });

  it('sets application_name and statement_timeout on every pooled connection', async () => {
    const s = await make({ applicationName: 'parley-check', statementTimeoutMs: 150 });
    expect(await s.get('SELECT current_setting(?) AS app, current_setting(?) AS timeout', ['application_name', 'statement_timeout'])).toEqual({ app: 'parley-check', timeout: '150ms' });
    await expect(s.get('SELECT pg_sleep(1) AS slept')).rejects.toThrow(/statement timeout/);
    await s.close();
  });

  it('keeps idle pooled connections for minutes, not pg-pool\'s 10 s, unless told', async () => {
    const s = await make();
    const quick = await make({ idleTimeoutMs: 50 });
    await Promise.all([s.get('SELECT 1 AS one'), quick.get('SELECT 1 AS one')]);
    await new Promise((r) => setTimeout(r, 150));
    expect(s.pool.idleCount).toBeGreaterThan(0);
    expect(quick.pool.idleCount).toBe(0);
    expect(s.pool.options.idleTimeoutMillis).toBe(300_000);
    await quick.close();
    await s.close();
  });

  it('runs statements unprepared when asked (a pooler that cannot carry prepared statements)', async () => {
    const s = await make({ preparedStatements: false });
    await s.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', ['u', 1]);
    expect(await s.get('SELECT n FROM conformance_items WHERE id = ?', ['u'])).toEqual({ n: 1 });
    expect(await s.get('SELECT COUNT(*) AS n FROM pg_prepared_statements')).toEqual({ n: 0 });
    await s.close();
  });

  it('runs statements sent at once inside a transaction in order, and all or none of them', async () => {
    const s = await make({ poolSize: 1 });
    // BEGIN, the first statement and those sent with it leave together (pipelined).
    const rows = await s.tx(async (tx) => {
      await Promise.all([1, 2, 3].map((n) => tx.run('INSERT INTO conformance_items (id, n) VALUES (?, ?)', [`k${n}`, n])));
      const [, , read] = await Promise.all([
        tx.run('UPDATE conformance_items SET n = n * 10'),
        tx.run("UPDATE conformance_items SET note = 'x' WHERE n >= 20"),
        tx.all('SELECT id, n, note FROM conformance_items ORDER BY id'),
      ]);
      return read;
    });
    expect(rows).toEqual([{ id: 'k1', n: 10, note: null }, { id: 'k2', n: 20, note: 'x' }, { id: 'k3', n: 30, note: 'x' }]);
    // One of a batch fails: the batch before it and the statements after it are rolled back.
    const failed = await s.tx(async (tx) => {
      await Promise.all([
        tx.run("INSERT INTO conformance_items (id, n) VALUES ('k4', 4)"),
        tx.run("INSERT INTO conformance_items (id, n) VALUES ('k1', 1)"),
        tx.run("INSERT INTO conformance_items (id, n) VALUES ('k5', 5)"),
      ]);
    }).catch((e: unknown) => e);
    expect((failed as { code?: string }).code).toBe('23505');
    expect(await s.all('SELECT id FROM conformance_items ORDER BY id')).toEqual([{ id: 'k1' }, { id: 'k2' }, { id: 'k3' }]);
    // The connection is fine for the next transaction; one without statements just returns.
    expect(await s.tx(async () => 'nothing to do')).toBe('nothing to do');
    expect(await s.tx(async (tx) => tx.get('SELECT COUNT(*) AS n FROM conformance_items'))).toEqual({ n: 3 });
    // Rows written in the first statement of a transaction that then throws are rolled back too.
    await expect(s.tx(async (tx) => { await tx.run("INSERT INTO conformance_items (id, n) VALUES ('k6', 6)"); throw new Error('changed my mind'); })).rejects.toThrow(/changed my mind/);
    expect(await s.get("SELECT COUNT(*) AS n FROM conformance_items WHERE id = 'k6'")).toEqual({ n: 0 });
    await s.close();
  });

  it('survives a schema change under its prepared statements (another instance migrating)', async () => {
    // One connection, so the second run meets the statement prepared by the first.
    const s = await make({ poolSize: 1 });
    const other = createPostgresStorage(scratch.url, { poolSize: 1 });
    await s.run("INSERT INTO conformance_items (id, n) VALUES ('a', 1)");
    const read = () => s.all('SELECT * FROM conformance_items');
    const readInTx = () => s.tx(async (tx) => tx.all('SELECT * FROM conformance_items WHERE n > ?', [0]));
    expect(await read()).toEqual([{ id: 'a', n: 1, flag: null, note: null }]);
    expect(await readInTx()).toEqual([{ id: 'a', n: 1, flag: null, note: null }]);
    // The result type of both prepared plans changes: PostgreSQL refuses to run them as they are.
    await other.run('ALTER TABLE conformance_items ADD COLUMN extra text');
    expect(await read()).toEqual([{ id: 'a', n: 1, flag: null, note: null, extra: null }]);
    expect(await readInTx()).toEqual([{ id: 'a', n: 1, flag: null, note: null, extra: null }]);
    await other.run('ALTER TABLE conformance_items ALTER COLUMN extra TYPE bigint USING NULL');
    expect(await read()).toEqual([{ id: 'a', n: 1, flag: null, note: null, extra: null }]);
    await other.run('UPDATE conformance_items SET extra = 7');
    expect(await readInTx()).toEqual([{ id: 'a', n: 1, flag: null, note: null, extra: 7 }]);
    await other.close();
    await s.close();
  });

  it('closes after in-flight transactions', async () => {
    const s = await make();
    const pending = s.tx(async (tx) => { await tx.run('SELECT pg_sleep(0.05)'); return 'finished'; });
    await new Promise((r) => setTimeout(r, 5));
    await s.close();
    expect(await pending).toBe('finished');
  });
});

describe('fresh test databases', () => {
  it('come migrated and empty, every time, and cost little once a worker has one spare', async () => {
    const timings: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      const started = performance.now();
      const fresh = await freshPostgresStorage();
      timings.push(performance.now() - started);
      expect(await fresh.storage.get('SELECT COUNT(*) AS n FROM organizations')).toEqual({ n: 0 });
      expect(await fresh.storage.get('SELECT last_seq FROM webhook_fanout')).toEqual({ last_seq: 0 });
      // Leave things behind for the next round to not see.
      await fresh.storage.run("INSERT INTO organizations (id, name, created_at) VALUES ('o', 'O', 'now')");
      expect(await fresh.storage.get("INSERT INTO webhook_events (id, organization_id, type, payload, created_at) VALUES ('e', 'o', 't', '{}', 'now') RETURNING seq")).toEqual({ seq: 1 });
      await fresh.storage.run('UPDATE webhook_fanout SET last_seq = 1');
      await fresh.storage.run('CREATE TABLE made_at_run_time (x bigint)');
      expect(await fresh.storage.get("SELECT COUNT(*) AS n FROM information_schema.columns WHERE table_name = 'documents' AND column_name = 'extra'")).toEqual({ n: 0 });
      // A changed schema cannot be reset: that database is dropped, not reused.
      if (round === 1) await fresh.storage.run('ALTER TABLE documents ADD COLUMN extra text');
      const dropStarted = performance.now();
      await fresh.drop();
      timings.push(performance.now() - dropStarted);
    }
    console.log(`fresh PostgreSQL test database (get, drop) ms: ${timings.map((t) => t.toFixed(0)).join(', ')}`);
  }, 120_000); // four databases made and dropped: each CREATE DATABASE may wait on a checkpoint, in either project
});
