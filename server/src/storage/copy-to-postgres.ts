import type Database from 'better-sqlite3';
import type { Queryable, SqlValue, Storage } from './port.js';

/**
 * Copies a SQLite installation into an empty, migrated PostgreSQL database: every table the two
 * schemas share (the schema-match test keeps them equal), parents before children, in batches,
 * ids and secrets' hashes as they are, so API keys, sessions, conversations, documents and the
 * webhook outbox carry over unchanged. Identity sequences are moved past the copied ids, and the
 * row count of every table is compared at the end.
 */

export interface CopyReport {
  tables: Array<{ table: string; sqlite: number; postgres: number }>;
  ok: boolean;
}

/**
 * SQLite-only objects with no PostgreSQL twin (PostgreSQL derives full text from chunks.tsv;
 * sqlite-vec's `chunk_vectors` and its shadow tables exist once embeddings were on, and
 * PostgreSQL keeps vectors its own way: its instances embed the chunks again).
 */
const SQLITE_ONLY = /^(sqlite_|chunks_fts|chunk_vectors($|_))/;
/** PostgreSQL bind parameters per statement are capped at 65,535. */
const MAX_PARAMS = 30_000;

export async function copySqliteToPostgres(
  source: Database.Database,
  target: Storage,
  opts: { onTable?: (table: string, rows: number) => void } = {},
): Promise<CopyReport> {
  if (target.dialect !== 'postgres') throw new Error('the target must be a PostgreSQL storage');
  const tables = copyOrder(source);
  const targetTables = new Set(
    (
      await target.all<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
      )
    ).map((r) => r.table_name),
  );
  const missing = tables.filter((t) => !targetTables.has(t));
  if (missing.length)
    throw new Error(`the PostgreSQL schema lacks tables ${missing.join(', ')}: run the PostgreSQL migrations of this version first`);
  // A fresh database has no organization and no user; rows its migrations seed (the webhook
  // fan-out cursor) are replaced by the copied ones below.
  for (const table of ['organizations', 'users']) {
    const row = await target.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`);
    if ((row?.n ?? 0) > 0) throw new Error(`the PostgreSQL database already holds ${table}: copy into a fresh database`);
  }

  for (const table of tables) {
    const columns = (source.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
    const pgColumns = await target.all<{ column_name: string; is_identity: string; is_generated: string }>(
      'SELECT column_name, is_identity, is_generated FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?',
      [table],
    );
    const writable = new Set(pgColumns.filter((c) => c.is_generated !== 'ALWAYS').map((c) => c.column_name));
    const cols = columns.filter((c) => writable.has(c));
    const identity = pgColumns.filter((c) => c.is_identity === 'YES').map((c) => c.column_name);
    const perBatch = Math.max(1, Math.floor(MAX_PARAMS / cols.length));
    const select = source.prepare(`SELECT ${cols.join(', ')} FROM ${table}`).raw(true);
    const overriding = identity.length ? ' OVERRIDING SYSTEM VALUE' : '';
    const insert = (q: Queryable, rows: SqlValue[][]) =>
      q.run(
        `INSERT INTO ${table} (${cols.join(', ')})${overriding} VALUES ${rows.map(() => `(${cols.map(() => '?').join(', ')})`).join(', ')}`,
        rows.flat(),
      );
    // One transaction per table: a copy stopped half-way leaves no half-copied table behind.
    const copied = await target.tx(async (tx) => {
      await tx.run(`DELETE FROM ${table}`);
      let n = 0;
      let batch: SqlValue[][] = [];
      for (const row of select.iterate() as Iterable<SqlValue[]>) {
        batch.push(row);
        if (batch.length >= perBatch) {
          await insert(tx, batch);
          n += batch.length;
          batch = [];
        }
      }
      if (batch.length) {
        await insert(tx, batch);
        n += batch.length;
      }
      for (const col of identity) {
        await tx.run(
          `SELECT setval(pg_get_serial_sequence('${table}', '${col}'), COALESCE((SELECT MAX(${col}) FROM ${table}), 0) + 1, false)`,
        );
      }
      return n;
    });
    opts.onTable?.(table, copied);
  }

  const report: CopyReport = { tables: [], ok: true };
  for (const table of tables) {
    const s = (source.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    const p = (await target.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))?.n ?? 0;
    report.tables.push({ table, sqlite: s, postgres: p });
    if (s !== p) report.ok = false;
  }
  return report;
}

/** Tables in an order where every table comes after the tables its foreign keys point to. */
export function copyOrder(db: Database.Database): string[] {
  const names = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>)
    .map((r) => r.name)
    .filter((n) => !SQLITE_ONLY.test(n));
  const parents = new Map<string, Set<string>>();
  for (const n of names) {
    const fks = db.prepare(`PRAGMA foreign_key_list(${n})`).all() as Array<{ table: string }>;
    parents.set(n, new Set(fks.map((f) => f.table).filter((t) => t !== n)));
  }
  const ordered: string[] = [];
  const done = new Set<string>();
  const visit = (n: string, path: Set<string>): void => {
    if (done.has(n)) return;
    if (path.has(n)) throw new Error(`foreign keys form a cycle through ${n}`);
    path.add(n);
    for (const p of parents.get(n) ?? []) if (parents.has(p)) visit(p, path);
    path.delete(n);
    done.add(n);
    ordered.push(n);
  };
  for (const n of names) visit(n, new Set());
  return ordered;
}
