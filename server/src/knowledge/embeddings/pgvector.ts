import type { Logger } from '../../lib/logger.js';
import type { PostgresEngine, Queryable } from '../../storage/port.js';
import type { VectorSearch } from './replica.js';
import { HNSW_MAX_DIM, norm, PGVECTOR_DIM_SQL, PGVECTOR_TABLE, vectorText, writePgvectors } from './pgvector-table.js';
import { type PostgresVectorStore, sameIdentity } from './postgres-store.js';
import { vectorOf, type VectorRow } from './postgres-vector-sql.js';
import { createPoller } from './poller.js';
import type { VectorHit } from './vector-index.js';

/** Rows copied per statement by the fill. */
const FILL_PAGE = 500;

/**
 * The question side of dense retrieval on PostgreSQL with the pgvector extension: a KNN query on
 * an HNSW index per question, and no copy of the vectors in memory (replica.ts is the fallback).
 *
 * - The table `chunk_pgvectors` is made at run time for the current generation's dimension
 *   (`vector(D)` needs it; no migration, so the schemas of the two dialects stay alike): one row
 *   per row of `chunk_dense_vectors` (its foreign key, ON DELETE CASCADE: a deleted chunk, or the
 *   vectors thrown away by a model change, leave it with their rows), an HNSW index with cosine
 *   distance (the replica's and sqlite-vec's distance, 1 - cosine) and a b-tree on the base.
 * - Written by postgres-store.ts in the same transaction as the float32 row, by every instance
 *   while the table exists with the state's dimension (checked under the state row's lock), so it
 *   is exact and transactional without a trigger. A generation change drops it (same transaction).
 * - Made under the state row FOR UPDATE (no write runs meanwhile), then filled from
 *   `chunk_dense_vectors` a page per transaction; vectors written before it existed (or by instances of an older Parley)
 *   are copied by the fill, which runs at every activation.
 * - pgvector 0.8+: `hnsw.iterative_scan` so that a filter on a few bases does not starve the
 *   results (the index goes on scanning until k rows pass it); older versions get a wider
 *   `ef_search` only (docs/deploy-scale-out.md).
 */

/** Splits "0.8.0" for comparison. */
export function versionAtLeast(version: string, wanted: readonly number[]): boolean {
  const have = version.split('.').map((p) => parseInt(p, 10) || 0);
  for (let i = 0; i < wanted.length; i++) {
    const a = have[i] ?? 0;
    const b = wanted[i] as number;
    if (a !== b) return a > b;
  }
  return true;
}

const installedVersion = async (q: Queryable): Promise<string | null> =>
  (await q.get<{ v: string }>("SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'"))?.v ?? null;

/**
 * pgvector's version in this database: the extension as installed, else created when the server
 * has it (CREATE EXTENSION IF NOT EXISTS, which needs a role allowed to: a superuser, or the
 * database owner where the extension is marked trusted). Null, logged once at start, when it
 * cannot be used: the caller searches in memory.
 */
export async function enablePgvector(storage: PostgresEngine, logger: Logger): Promise<string | null> {
  const had = await installedVersion(storage);
  if (had) return had;
  const available = await storage.get<{ v: string }>("SELECT default_version AS v FROM pg_available_extensions WHERE name = 'vector'");
  if (!available) {
    logger.info(
      'pgvector is not installed on the database server: dense vectors are searched in memory by every instance (docs/deploy-scale-out.md)',
    );
    return null;
  }
  try {
    await storage.run('CREATE EXTENSION IF NOT EXISTS vector');
  } catch (err) {
    // Two instances creating it at once: one fails on the catalog's unique index, and finds it made.
    const made = await installedVersion(storage);
    if (made) return made;
    logger.warn(
      'pgvector is installed on the database server but this database cannot create the extension: dense vectors are searched in memory (run CREATE EXTENSION vector as the database owner or a superuser)',
      {
        error: err instanceof Error ? err.message : String(err),
      },
    );
    return null;
  }
  return installedVersion(storage);
}

interface StateRow {
  generation: number;
  model: string | null;
  dimensions: number | null;
  dim: number | null;
  pgvector_dim: number | null;
}

const SQL = {
  stateForUpdate: `SELECT generation, model, dimensions, dim, ${PGVECTOR_DIM_SQL} AS pgvector_dim FROM embedding_index_state WHERE id = 1 FOR UPDATE`,
  stateForShare: `SELECT generation, dim, ${PGVECTOR_DIM_SQL} AS pgvector_dim FROM embedding_index_state WHERE id = 1 FOR SHARE`,
  /** Float32 rows of the generation that the pgvector table lacks, by chunk id. */
  missing: `SELECT d.chunk_id, d.knowledge_base_id, d.vector FROM chunk_dense_vectors d
    WHERE d.generation = ? AND d.chunk_id > ? AND NOT EXISTS (SELECT 1 FROM ${PGVECTOR_TABLE} p WHERE p.chunk_id = d.chunk_id)
    ORDER BY d.chunk_id LIMIT ?`,
  any: `SELECT 1 AS found FROM ${PGVECTOR_TABLE} LIMIT 1`,
  count: `SELECT count(*) AS n FROM ${PGVECTOR_TABLE}`,
};

export interface PgvectorOptions {
  /** pgvector's version in the database (enablePgvector). */
  version: string;
  /** How often the state is read (another instance's model change, the first vectors, retirement). */
  pollMs: number;
  logger: Logger;
  /** The fewest HNSW candidates per question (`hnsw.ef_search`; default 200, pgvector's own is 40). */
  efSearch?: number;
}

export type PgvectorSearch = VectorSearch & {
  readonly kind: 'pgvector';
  readonly version: string;
  /** Reads the state now (this instance wrote: the table may have its first rows). */
  wake(): void;
  /** Resolves after a full read from now (tests, and the start log). */
  settled(): Promise<void>;
  /** Rows in the pgvector table (status). */
  count(): Promise<number>;
};

/**
 * The pgvector `VectorSearch`. Polls the state row every `pollMs` (as the replica does, and with
 * the same effect on the store: `observe` follows a new generation or retires the instance);
 * answers once the table exists for the stored generation and dimension and holds a row.
 */
export function createPgvectorSearch(storage: PostgresEngine, store: PostgresVectorStore, opts: PgvectorOptions): PgvectorSearch {
  const iterative = versionAtLeast(opts.version, [0, 8, 0]);
  /** The generation and dimension the table was made and filled for. */
  let ensured: { generation: number; dim: number } | null = null;
  let hasRows = false;
  let warnedDim = false;
  let searchFailing = false;

  /** Makes the table for the state's dimension if it lacks it; false when the state moved meanwhile. */
  async function create(generation: number, dim: number): Promise<boolean> {
    return storage.tx(
      async (tx) => {
        const s = await tx.get<StateRow>(SQL.stateForUpdate);
        if (!s || s.generation !== generation || s.dim !== dim) return false;
        if (s.pgvector_dim === dim) return true;
        await tx.run(`DROP TABLE IF EXISTS ${PGVECTOR_TABLE}`);
        await tx.run(`CREATE TABLE ${PGVECTOR_TABLE} (
        chunk_id           bigint PRIMARY KEY REFERENCES chunk_dense_vectors(chunk_id) ON DELETE CASCADE,
        knowledge_base_id  text COLLATE "C" NOT NULL,
        embedding          vector(${dim}) NOT NULL)`);
        await tx.run(`CREATE INDEX ${PGVECTOR_TABLE}_kb ON ${PGVECTOR_TABLE} (knowledge_base_id)`);
        if (dim <= HNSW_MAX_DIM)
          await tx.run(`CREATE INDEX ${PGVECTOR_TABLE}_hnsw ON ${PGVECTOR_TABLE} USING hnsw (embedding vector_cosine_ops)`);
        else if (!warnedDim) {
          warnedDim = true;
          opts.logger.warn(`pgvector's HNSW index takes up to ${HNSW_MAX_DIM} dimensions: vectors of ${dim} are searched by exact scans`, {
            dimension: dim,
          });
        }
        return true;
      },
      { groupCommit: false },
    );
  }

  /** Copies the float32 rows the table lacks, a page per transaction (each under the state FOR SHARE). */
  async function fill(generation: number, dim: number): Promise<number | null> {
    let copied = 0;
    for (let after = 0; ;) {
      const page = await storage.tx(async (tx) => {
        const s = await tx.get<StateRow>(SQL.stateForShare);
        if (!s || s.generation !== generation || s.pgvector_dim !== dim) return null;
        const rows = await tx.all<VectorRow>(SQL.missing, [generation, after, FILL_PAGE]);
        await writePgvectors(
          tx,
          rows.flatMap((r) => {
            const vector = vectorOf(r.vector);
            return vector.length === dim ? [{ chunkId: r.chunk_id, knowledgeBaseId: r.knowledge_base_id, vector }] : [];
          }),
        );
        return rows;
      });
      if (!page) return null;
      copied += page.length;
      if (page.length < FILL_PAGE) return copied;
      after = (page.at(-1) as VectorRow).chunk_id;
    }
  }

  async function readOnce(): Promise<void> {
    const s = await store.state();
    store.observe(s);
    const mine = sameIdentity(s, store.identity);
    if (!mine || s.dim === null) {
      ensured = null;
      hasRows = false;
      return;
    }
    if (!ensured || ensured.generation !== s.generation || ensured.dim !== s.dim) {
      ensured = null;
      hasRows = false;
      if (!(await create(s.generation, s.dim))) return;
      const copied = await fill(s.generation, s.dim);
      if (copied === null) return;
      // Statistics now, not at autovacuum's leisure: with them the planner answers a question on a
      // small base exactly from the b-tree (measured: recall@20 0.861 -> 1.000 on a base of 10 %).
      if (copied > 0) await storage.run(`ANALYZE ${PGVECTOR_TABLE}`).catch(() => undefined);
      ensured = { generation: s.generation, dim: s.dim };
      opts.logger.info('dense vectors searched with pgvector', {
        version: opts.version,
        dimension: s.dim,
        copied,
        index: s.dim <= HNSW_MAX_DIM ? 'hnsw' : 'none (exact scans)',
      });
    }
    hasRows = !!(await storage.get(SQL.any));
  }

  /** One KNN statement (with its settings, local to its transaction). */
  function knn(text: string, kbs: readonly string[], k: number, ef: number) {
    return storage.tx(async (tx) => {
      await tx.get(
        iterative
          ? "SELECT set_config('hnsw.ef_search', ?, true) AS ef, set_config('hnsw.iterative_scan', 'relaxed_order', true) AS it"
          : "SELECT set_config('hnsw.ef_search', ?, true) AS ef",
        [String(ef)],
      );
      // relaxed_order may return rows slightly out of order: sorted again outside (pgvector's advice).
      return tx.all<{ chunk_id: number; knowledge_base_id: string; distance: number }>(
        `WITH nearest AS MATERIALIZED (
          SELECT chunk_id, knowledge_base_id, embedding <=> CAST(? AS vector) AS distance FROM ${PGVECTOR_TABLE}
          WHERE knowledge_base_id IN (${kbs.map(() => '?').join(', ')}) ORDER BY embedding <=> CAST(? AS vector) LIMIT ?)
        SELECT chunk_id, knowledge_base_id, distance FROM nearest ORDER BY distance, chunk_id`,
        [text, ...kbs, text, k],
      );
    });
  }

  // The database is away, or another instance dropped the table between two statements: made
  // and filled again from the next poll on.
  const poller = createPoller({
    pollMs: opts.pollMs,
    readOnce,
    onFailure(err, first, stopped) {
      ensured = null;
      hasRows = false;
      if (!stopped && first)
        opts.logger.warn('reading the pgvector state failed: retrying every poll', {
          error: err instanceof Error ? err.message : String(err),
        });
    },
    onRecovery: () => opts.logger.info('reading the pgvector state works again'),
  });
  const read = poller.read;

  return {
    kind: 'pgvector',
    version: opts.version,
    get ready() {
      return !!ensured && hasRows;
    },
    async search(query: Float32Array, knowledgeBaseIds: readonly string[], k: number): Promise<VectorHit[]> {
      const at = ensured;
      const kbs = [...new Set(knowledgeBaseIds)];
      if (!at || query.length !== at.dim || k < 1 || !kbs.length || !(norm(query) > 0)) return [];
      const text = vectorText(query);
      // ef_search: candidates the index keeps; at least k (else fewer than k come back). Without
      // iterative scans (pgvector < 0.8) a filter keeps only the candidates in the bases: wider.
      const ef = Math.min(1000, Math.max(opts.efSearch ?? 200, iterative ? 2 * k : 8 * k));
      let rows: { chunk_id: number; knowledge_base_id: string; distance: number }[];
      try {
        rows = await knn(text, kbs, k, ef);
        searchFailing = false;
      } catch (err) {
        // Another instance dropped the table (a model change) since the last poll, or the database
        // is away: this question gets BM25 alone, and the state is read again now.
        const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
        if (code === '42P01' && ensured === at) {
          ensured = null;
          hasRows = false;
        }
        if (!searchFailing)
          opts.logger.warn('pgvector search failed: answering from BM25 alone meanwhile', {
            error: err instanceof Error ? err.message : String(err),
          });
        searchFailing = true;
        void read();
        return [];
      }
      return rows.map((r) => ({ chunkId: r.chunk_id, knowledgeBaseId: r.knowledge_base_id, distance: r.distance }));
    },
    start: () => poller.start(),
    stop: () => poller.stop(),
    wake() {
      void read();
    },
    settled: () => poller.settled(),
    async count() {
      if (!ensured) return 0;
      return (await storage.get<{ n: number }>(SQL.count))?.n ?? 0;
    },
  };
}
