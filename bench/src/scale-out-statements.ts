/**
 * The PostgreSQL adapter alone, without HTTP or Parley around it (issue 15): Node CPU and
 * PostgreSQL backend CPU per operation, 10 concurrent callers, for one or several checkouts of
 * the adapter loaded side by side (ROOTS=/tmp/base,/work/main) and measured in alternating
 * windows on one scratch database, so a before/after pair shares the machine's weather.
 *
 *   ROOTS=/tmp/base-pg,/work/main node --import tsx bench/src/scale-out-statements.ts tx|tx-batched|select [seconds] [rounds]
 *
 * `select`: one pooled prepared SELECT (the cost of a round trip). `tx`: a chat-like write
 * transaction of 8 statements between BEGIN and COMMIT, awaited one by one as the chat does;
 * `tx-batched`: the same statements in two Promise.all batches.
 */
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from '../../server/src/paths.js';
import type { createPostgresStorage as Create, PostgresStorage } from '../../server/src/storage/postgres.js';
import { cpuBetween, snapshot } from './scale-out-cpu.js';

const mode = process.argv[2] === 'select' || process.argv[2] === 'tx-batched' ? process.argv[2] : 'tx';
const seconds = Number(process.argv[3] ?? 3);
const rounds = Number(process.argv[4] ?? 5);
const roots = (process.env.ROOTS ?? REPO_ROOT).split(',');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;

const admin = new pg.Client({ connectionString: process.env.PARLEY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
const db = `parley_statements_${process.pid}`;
await admin.query(`CREATE DATABASE ${db}`);
const url = new URL(`postgres://${admin.user ?? 'postgres'}@${admin.host}:${admin.port}/${db}`);
try {
  const creates = await Promise.all(
    roots.map(
      async (root) =>
        ((await import(path.join(root, 'server/src/storage/postgres.ts'))) as { createPostgresStorage: typeof Create })
          .createPostgresStorage,
    ),
  );
  const setup = (creates[0] as typeof Create)(url.href, { poolSize: 1 });
  await setup.run('CREATE TABLE t (id bigint PRIMARY KEY, v text, n bigint)');
  await setup.close();
  const stores = creates.map((create, i) => create(url.href, { applicationName: `statements-${i}` }));

  let nextId = 1;
  const op = async (s: PostgresStorage): Promise<void> => {
    if (mode === 'select') {
      await s.get('SELECT CAST(? AS INTEGER) AS x', [1]);
      return;
    }
    if (mode === 'tx-batched') {
      // The same 8 statements, sent as two batches of independent statements (Promise.all):
      // what a caller gains by not awaiting each one (PostgreSQL still runs them in order).
      await s.tx(async (tx) => {
        const id = nextId++;
        await Promise.all([
          tx.run('INSERT INTO t (id, v, n) VALUES (?, ?, ?)', [id, 'hello', 1]),
          tx.run('INSERT INTO t (id, v, n) VALUES (?, ?, ?)', [-id, 'world', 2]),
          ...Array.from({ length: 4 }, () => tx.run('UPDATE t SET n = n + 1 WHERE id = ?', [id])),
        ]);
        await Promise.all([tx.get('SELECT v, n FROM t WHERE id = ?', [id]), tx.all('SELECT id FROM t WHERE id IN (?, ?)', [id, -id])]);
      });
      return;
    }
    await s.tx(async (tx) => {
      const id = nextId++;
      await tx.run('INSERT INTO t (id, v, n) VALUES (?, ?, ?)', [id, 'hello', 1]);
      await tx.run('INSERT INTO t (id, v, n) VALUES (?, ?, ?)', [-id, 'world', 2]);
      for (let i = 0; i < 4; i++) await tx.run('UPDATE t SET n = n + 1 WHERE id = ?', [id]);
      await tx.get('SELECT v, n FROM t WHERE id = ?', [id]);
      await tx.all('SELECT id FROM t WHERE id IN (?, ?)', [id, -id]);
    });
  };
  const backends = async (i: number) =>
    (
      await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [
        db,
        `statements-${i}`,
      ])
    ).rows.map((r) => r.pid);

  const results: Array<Array<{ node: number; pg: number; perSecond: number }>> = roots.map(() => []);
  for (let r = 0; r <= rounds; r++) {
    // Round 0 warms up; the order alternates so drift within a round favours neither side.
    const order = stores.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) {
      const s = stores[i] as PostgresStorage;
      const p0 = snapshot(await backends(i));
      const c0 = process.cpuUsage();
      let n = 0;
      const end = Date.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (Date.now() < end) {
            await op(s);
            n++;
          }
        }),
      );
      const c1 = process.cpuUsage(c0);
      const p1 = snapshot(await backends(i));
      if (r > 0)
        results[i]?.push({
          node: Math.round((c1.user + c1.system) / n),
          pg: Math.round(cpuBetween(p0, p1) / n),
          perSecond: Math.round(n / seconds),
        });
    }
  }
  for (const [i, rs] of results.entries()) {
    process.stdout.write(
      `${mode} ${roots[i]}: Node ${median(rs.map((x) => x.node))} µs/op, PG backends ${median(rs.map((x) => x.pg))} µs/op, ` +
        `total ${median(rs.map((x) => x.node + x.pg))}, ${median(rs.map((x) => x.perSecond))} op/s; rounds ${JSON.stringify(rs.map((x) => [x.node, x.pg]))}\n`,
    );
  }
  for (const s of stores) await s.close();
} finally {
  await admin.query(`DROP DATABASE ${db} WITH (FORCE)`);
  await admin.end();
}
