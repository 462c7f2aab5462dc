import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresStorage, type FreshPostgres } from '../../test/postgres.js';
import { migrate } from '../db/migrate.js';
import { openDb, type Db } from '../db/open.js';
import type { Queryable } from './port.js';

/**
 * The SQLite schema (server/src/db/migrations) and the PostgreSQL one
 * (storage/postgres/migrations) must describe the same database: same tables, columns (name,
 * nullability, type class, default, generated or not), primary keys, indexes (columns, unique,
 * partial), foreign keys (columns, target, ON DELETE) and number of CHECKs. A SQLite migration
 * without its PostgreSQL twin fails here.
 *
 * Objects only one dialect has, each for a reason:
 */
const DIALECT_ONLY = {
  /** FTS5 virtual table and its shadow tables: PostgreSQL searches chunks.tsv instead. */
  sqliteTables: /^chunks_fts(_\w+)?$/,
  /**
   * Applied-migration bookkeeping (SQLite keeps it in PRAGMA user_version); the chunk feed's
   * deletions (005); dense vectors as plain rows with their model state and the backlog's
   * leases (006, knowledge/embeddings/postgres-store.ts: SQLite keeps vectors in sqlite-vec).
   */
  postgresTables: new Set(['schema_migrations', 'chunk_deletions', 'embedding_index_state', 'chunk_dense_vectors', 'embedding_claims']),
  /**
   * Full-text search on PostgreSQL: a generated tsvector over title, headings and body (and its
   * GIN index). The webhook fan-out cursor's transaction ids (webhooks/queue.ts, with its index):
   * with several writers seq order is not commit order, so PostgreSQL follows (xact_id, seq).
   * The chunks' commit cursor (knowledge/change-feed.ts, migration 005): every instance's memory
   * index follows new chunks by (xact_id, id) and deleted ones by the chunk_deletions table.
   */
  postgresColumns: new Set(['chunks.tsv', 'webhook_events.xact_id', 'webhook_fanout.last_xact', 'chunks.xact_id']),
  postgresIndexes: new Set(['chunks_tsv', 'webhook_events_xact', 'chunks_xact']),
  /**
   * SQLite triggers with no PostgreSQL twin. chunks_ad keeps FTS5 in step with deletes (tsv is
   * generated, so PostgreSQL needs none); chunks_ad_embeddings / chunks_au_embeddings queue the
   * sqlite-vec vectors of removed or edited chunks (vectors on PostgreSQL are another backend).
   * A new trigger fails this test: decide its PostgreSQL form (preferably code, as 024 did).
   */
  sqliteTriggers: new Set(['chunks_ad', 'chunks_ad_embeddings', 'chunks_au_embeddings']),
};

interface Column {
  name: string;
  type: string;
  notNull: boolean;
  default: string | null;
  generated: boolean;
}
interface TableShape {
  columns: Column[];
  primaryKey: string[];
  indexes: string[];
  foreignKeys: string[];
  checks: number;
}
type Schema = Record<string, TableShape>;

/** SQLite declared type → PostgreSQL type class, by SQLite's affinity rules (untyped is text here). */
function sqliteTypeClass(declared: string): string {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'integer';
  if (t === '' || /CHAR|CLOB|TEXT/.test(t)) return 'text';
  if (t.includes('BLOB')) return 'blob';
  if (/REAL|FLOA|DOUB/.test(t)) return 'real';
  return 'numeric';
}

function postgresTypeClass(type: string): string {
  if (['bigint', 'integer', 'smallint'].includes(type)) return 'integer';
  if (['text', 'citext', 'character varying', 'character'].includes(type)) return 'text';
  if (['double precision', 'real'].includes(type)) return 'real';
  if (type === 'bytea') return 'blob';
  return type;
}

/** Defaults as values: 'free'::text → 'free'; (0) → 0. */
function normalizeDefault(value: string | null): string | null {
  if (value === null) return null;
  let v = value.trim();
  while (v.startsWith('(') && v.endsWith(')')) v = v.slice(1, -1).trim();
  return v.replace(/::[a-z ]+$/i, '');
}

function readSqlite(db: Db): { schema: Schema; triggers: string[] } {
  const tables = (
    db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{
      name: string;
      sql: string;
    }>
  ).filter((t) => !DIALECT_ONLY.sqliteTables.test(t.name));
  const schema: Schema = {};
  for (const { name, sql } of tables) {
    const cols = db.prepare(`PRAGMA table_xinfo(${name})`).all() as Array<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
      hidden: number;
    }>;
    const primaryKey = cols
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const indexes = (
      db.prepare(`PRAGMA index_list(${name})`).all() as Array<{ name: string; unique: number; origin: string; partial: number }>
    )
      .filter((i) => i.origin !== 'pk')
      .map((i) => {
        const on = (db.prepare(`PRAGMA index_info(${i.name})`).all() as Array<{ seqno: number; name: string }>)
          .sort((a, b) => a.seqno - b.seqno)
          .map((c) => c.name);
        return indexSignature(i.origin === 'c' ? i.name : null, on, !!i.unique, !!i.partial);
      })
      .sort();
    const fks = db.prepare(`PRAGMA foreign_key_list(${name})`).all() as Array<{
      id: number;
      seq: number;
      table: string;
      from: string;
      to: string;
      on_delete: string;
    }>;
    const foreignKeys = [...new Set(fks.map((f) => f.id))]
      .map((id) => {
        const parts = fks.filter((f) => f.id === id).sort((a, b) => a.seq - b.seq);
        return `(${parts.map((p) => p.from).join(', ')}) → ${parts[0]?.table}(${parts.map((p) => p.to).join(', ')}) ON DELETE ${parts[0]?.on_delete}`;
      })
      .sort();
    schema[name] = {
      columns: cols
        .map((c) => ({
          name: c.name,
          type: sqliteTypeClass(c.type),
          // A primary-key column is NOT NULL on PostgreSQL (SQLite lets a non-integer one hold NULL; Parley never writes one).
          notNull: c.notnull === 1 || c.pk > 0,
          default: normalizeDefault(c.dflt_value),
          generated: c.hidden === 2 || c.hidden === 3,
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      primaryKey,
      indexes,
      foreignKeys,
      checks: (sql.match(/\bCHECK\s*\(/gi) ?? []).length,
    };
  }
  const triggers = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name").all() as Array<{ name: string }>).map(
    (t) => t.name,
  );
  return { schema, triggers };
}

function indexSignature(name: string | null, columns: string[], unique: boolean, partial: boolean): string {
  return `${name ?? '(constraint)'} (${columns.join(', ')})${unique ? ' UNIQUE' : ''}${partial ? ' WHERE …' : ''}`;
}

const ON_DELETE: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

async function readPostgres(q: Queryable): Promise<{ schema: Schema; triggers: string[] }> {
  const tables = (await q.all<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"))
    .map((t) => t.name)
    .filter((t) => !DIALECT_ONLY.postgresTables.has(t));
  const schema: Schema = {};
  for (const name of tables) {
    const cols = await q.all<{ name: string; type: string; not_null: boolean; dflt: string | null; generated: string }>(
      `SELECT a.attname AS name, format_type(a.atttypid, NULL) AS type, a.attnotnull AS not_null,
         CASE WHEN a.attgenerated = '' THEN pg_get_expr(d.adbin, d.adrelid) END AS dflt, a.attgenerated AS generated
       FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE a.attrelid = CAST(? AS regclass) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [name],
    );
    const idx = await q.all<{
      name: string;
      cols: string;
      is_unique: boolean;
      is_primary: boolean;
      partial: boolean;
      is_constraint: boolean;
    }>(
      `SELECT c.relname AS name, i.indisunique AS is_unique, i.indisprimary AS is_primary, i.indpred IS NOT NULL AS partial,
         EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid) AS is_constraint,
         (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum) AS cols
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = CAST(? AS regclass)`,
      [name],
    );
    const fks = await q.all<{ cols: string; target: string; target_cols: string; on_delete: string }>(
      `SELECT (SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS cols,
              c.confrelid::regclass::text AS target,
              (SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS target_cols,
              c.confdeltype AS on_delete
       FROM pg_constraint c WHERE c.conrelid = CAST(? AS regclass) AND c.contype = 'f'`,
      [name],
    );
    const checks = await q.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM pg_constraint WHERE conrelid = CAST(? AS regclass) AND contype = 'c'",
      [name],
    );
    const primary = idx.find((i) => i.is_primary);
    schema[name] = {
      columns: cols
        .filter((c) => !DIALECT_ONLY.postgresColumns.has(`${name}.${c.name}`))
        .map((c) => ({
          name: c.name,
          type: postgresTypeClass(c.type),
          notNull: c.not_null,
          // An identity column's values come from its sequence, as a rowid's do on SQLite.
          default: normalizeDefault(c.dflt),
          generated: c.generated !== '',
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      primaryKey: primary ? primary.cols.split(',') : [],
      indexes: idx
        .filter((i) => !i.is_primary && !DIALECT_ONLY.postgresIndexes.has(i.name))
        .map((i) => indexSignature(i.is_constraint ? null : i.name, i.cols.split(','), i.is_unique, i.partial))
        .sort(),
      foreignKeys: fks.map((f) => `(${f.cols}) → ${f.target}(${f.target_cols}) ON DELETE ${ON_DELETE[f.on_delete] ?? f.on_delete}`).sort(),
      checks: checks?.n ?? 0,
    };
  }
  const triggers = (await q.all<{ name: string }>('SELECT tgname AS name FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname')).map(
    (t) => t.name,
  );
  return { schema, triggers };
}

describe('SQLite and PostgreSQL schemas', () => {
  let sqlite: { schema: Schema; triggers: string[] };
  let postgres: { schema: Schema; triggers: string[] };
  let fresh: FreshPostgres;

  beforeAll(async () => {
    const db = openDb(':memory:');
    migrate(db);
    sqlite = readSqlite(db);
    db.close();
    fresh = await freshPostgresStorage();
    postgres = await readPostgres(fresh.storage);
  });
  afterAll(async () => {
    await fresh?.drop();
  });

  it('have the same tables', () => {
    expect(Object.keys(postgres.schema)).toEqual(Object.keys(sqlite.schema));
  });

  it('have the same columns, keys, indexes, foreign keys and checks in every table', () => {
    // Soft: one run lists every table that differs, not just the first.
    for (const table of Object.keys(sqlite.schema)) {
      expect.soft({ table, ...postgres.schema[table] }).toEqual({ table, ...sqlite.schema[table] });
    }
  });

  it('compare text in byte order on PostgreSQL, as SQLite does, whatever the cluster locale', async () => {
    const other = await fresh.storage.all<{ col: string; collation: string | null }>(
      `SELECT c.relname || '.' || a.attname AS col, l.collname AS collation
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_collation l ON l.oid = a.attcollation
       WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped AND a.attcollation <> 0
         AND c.relname <> 'schema_migrations' AND (l.collname IS NULL OR l.collname <> 'C')`,
    );
    expect(other).toEqual([]);
  });

  it('keep triggers only where listed as dialect-only (none on PostgreSQL)', () => {
    expect(sqlite.triggers.filter((t) => !DIALECT_ONLY.sqliteTriggers.has(t))).toEqual([]);
    expect(postgres.triggers).toEqual([]);
  });
});
