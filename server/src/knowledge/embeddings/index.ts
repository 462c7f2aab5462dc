import { load as loadSqliteVec } from 'sqlite-vec';
import type { PostgresEngine, SqliteEngine, Storage } from '../../storage/port.js';
import type { RetrievedChunk } from '../retrieval.js';
import { sqliteBacklog, type Backlog } from './backlog.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import { createEmbeddingClient } from './client.js';
import type { EmbeddingsConfig, EmbeddingsTuning } from '../../config.js';
import type { DenseSide } from './hybrid.js';
import { createQueryEmbedder, type QueryEmbedder } from './query-embedder.js';
import { createPostgresVectorStore, type PostgresVectorStore } from './postgres-store.js';
import { chunkChangeFeed } from '../change-feed.js';
import { createPgvectorSearch, enablePgvector, type PgvectorSearch } from './pgvector.js';
import { createVectorReplica, type VectorReplica, type VectorSearch } from './replica.js';
import { createVectorIndex, type VectorHit, type VectorIndex } from './vector-index.js';
import { createBacklogWorker, type BacklogStats, type BacklogWorker } from './worker.js';

/** The knobs' defaults (config.ts EmbeddingsTuning: tests shorten the waits; not read from the environment). */
export const DEFAULT_TUNING: EmbeddingsTuning = {
  batchSize: 64,
  // A batch of 64 on a CPU-only Ollama can take a while before its answer starts.
  batchTimeoutMs: 60_000,
  batchRetry: { retries: 2, baseDelayMs: 500, maxDelayMs: 8_000 },
  backoffBaseMs: 2_000,
  backoffMaxMs: 5 * 60_000,
  idleSweepMs: 60_000,
  queryTimeoutMs: 5_000,
  queryCooldownMs: 30_000,
  queryCacheSize: 512,
  // Longer than a batch normally takes (timeout 60 s, retries): renewal keeps a slow one held.
  leaseMs: 120_000,
  vectorPollMs: 1_000,
};

/** The embeddings feature when configured: the backlog worker, the question side and their backend (see createEmbeddings). */
export interface Embeddings {
  readonly config: EmbeddingsConfig;
  /** SQLite's vec0 index (tests and measure.ts read it); null on PostgreSQL. */
  readonly index: VectorIndex | null;
  /** Embeds the backlog; `listen` starts and stops it (with the PostgreSQL replica). */
  readonly worker: BacklogWorker;
  /** Questions' vectors, cached. */
  readonly queries: QueryEmbedder;
  /** What the hybrid retriever uses. */
  readonly dense: DenseSide;
  /** PostgreSQL only: the vectors store (leases, state), this instance's in-memory copy and the pgvector search (whichever answers). */
  readonly postgres: PostgresSide | null;
  /** The knowledge changed (documents added or removed): the worker looks for work. */
  wake(): void;
  /** Progress, for logs and tests: `pending` counts every chunk without a vector. */
  status(): Promise<EmbeddingsStatus>;
}

/** The PostgreSQL side of the embeddings. */
export interface PostgresSide {
  store: PostgresVectorStore;
  replica: VectorReplica;
  /** Resolves once the store is open and the question side chosen. */
  opened: Promise<unknown>;
  /** The pgvector search when it answers the questions; null when the replica does. */
  readonly pgvector: PgvectorSearch | null;
}

/** Embedding progress (`Embeddings.status`). */
export interface EmbeddingsStatus {
  model: string;
  dimension: number | null;
  ready: boolean;
  /** Vectors stored. */
  embedded: number;
  /** Vectors the question side holds (PostgreSQL: the pgvector table, or this instance's in-memory copy, which follows the table). */
  searchable: number;
  /** Chunks without a vector. */
  pending: number;
  worker: BacklogStats;
}

/**
 * Dense retrieval, when an embedding model is configured. The backend follows the database:
 *
 * - SQLite: loads sqlite-vec into the connection, opens (or, after a model change, empties) the
 *   vec0 index (vector-index.ts).
 * - PostgreSQL: vectors as plain rows (postgres-store.ts, migration 006), a backlog shared by the
 *   instances under leases, and for the questions a pgvector HNSW index where the database has
 *   (or can create) the extension (pgvector.ts), else an exact in-memory copy per instance
 *   (replica.ts; also with EMBEDDINGS_VECTOR_SEARCH=memory).
 *
 * Either way it builds the backlog worker (started and stopped with the server by `listen`) and
 * the query side used by the hybrid retriever. Without configuration none of this exists.
 */
export function createEmbeddings(opts: {
  storage: Storage;
  config: EmbeddingsConfig;
  logger: Logger;
  clock?: Clock | undefined;
}): Embeddings {
  const { config, logger } = opts;
  const tuning: EmbeddingsTuning = { ...DEFAULT_TUNING, ...config.tuning };
  const clock = opts.clock ?? systemClock;
  const side = opts.storage.pick({
    sqlite: (s) => sqliteSide(s, config, logger),
    postgres: (s) => postgresSide(s, config, logger, tuning, clock, () => worker.wake()),
  });
  const client = createEmbeddingClient(config);
  const queries = createQueryEmbedder({
    client,
    logger,
    clock,
    timeoutMs: tuning.queryTimeoutMs,
    cooldownMs: tuning.queryCooldownMs,
    cacheSize: tuning.queryCacheSize,
  });
  const inner = createBacklogWorker({
    index: side.backlog,
    opened: side.opened,
    client,
    logger,
    batchSize: tuning.batchSize,
    timeoutMs: tuning.batchTimeoutMs,
    retry: tuning.batchRetry,
    backoffBaseMs: tuning.backoffBaseMs,
    backoffMaxMs: tuning.backoffMaxMs,
    backoffRandom: tuning.backoffRandom,
    idleSweepMs: tuning.idleSweepMs,
    idlePass: side.shared,
    onReset: () => queries.clear(),
  });
  // The PostgreSQL replica lives with the worker: started and stopped with the server.
  const worker: BacklogWorker = {
    start(): void {
      side.start();
      inner.start();
    },
    async stop(): Promise<void> {
      side.stop();
      await inner.stop();
    },
    wake: () => inner.wake(),
    get stats() {
      return inner.stats;
    },
  };
  const dense: DenseSide = {
    get ready() {
      return side.ready;
    },
    embedQuery: (q) => queries.embed(q),
    search: async (v, kbIds, k) => side.search(v, kbIds, k),
    hydrate: (ids, kbIds) => side.hydrate(ids, kbIds),
  };
  return {
    config,
    index: side.index,
    worker,
    queries,
    dense,
    postgres: side.postgres,
    wake: (): void => worker.wake(),
    async status(): Promise<EmbeddingsStatus> {
      const embedded = await side.embeddedCount();
      // `searchable`: vectors the question side holds (PostgreSQL: the pgvector table, or this instance's in-memory copy, which follows the table).
      return {
        model: config.model,
        dimension: side.backlog.dimension,
        ready: side.ready,
        embedded,
        searchable: await side.searchable(),
        pending: await side.pendingCount(),
        worker: inner.stats,
      };
    },
  };
}

/** What createEmbeddings needs of a backend. */
interface Side {
  backlog: Backlog;
  opened: Promise<unknown>;
  /** Several instances share the backlog: an idle worker still looks for work (expired leases) every sweep. */
  shared: boolean;
  readonly ready: boolean;
  search(v: Float32Array, kbIds: readonly string[], k: number): VectorHit[] | Promise<VectorHit[]>;
  hydrate(ids: readonly number[], kbIds: readonly string[]): Promise<Map<number, RetrievedChunk>>;
  embeddedCount(): Promise<number>;
  pendingCount(): Promise<number>;
  start(): void;
  stop(): void;
  /** SQLite's vec0 index (tests and measure.ts read it). */
  index: VectorIndex | null;
  /** Rows the question side searches (PostgreSQL: the pgvector table, or this instance's in-memory copy). */
  searchable(): Promise<number>;
  postgres: PostgresSide | null;
}

function sqliteSide(storage: SqliteEngine, config: EmbeddingsConfig, logger: Logger): Side {
  try {
    loadSqliteVec(storage);
  } catch (err) {
    throw new Error(
      `EMBEDDINGS_MODEL is set but the sqlite-vec extension could not be loaded (${err instanceof Error ? err.message : String(err)})`,
      { cause: err },
    );
  }
  const index = createVectorIndex(storage, { model: config.model, dimensions: config.dimensions ?? null });
  // Opened in the background: queries use the index once it is open (`ready`), the worker starts after.
  const opened = (async () => {
    const state = await index.open();
    if (state === 'reset') logger.info('embedding model changed: every chunk will be embedded again', { model: config.model });
    logger.info('dense retrieval on', {
      model: config.model,
      baseUrl: config.baseUrl,
      dimension: index.dimension,
      vectors: await index.embeddedCount(),
    });
  })();
  return {
    backlog: sqliteBacklog(index),
    opened,
    shared: false,
    get ready() {
      return index.ready;
    },
    search: (v, kbIds, k) => index.search(v, kbIds, k),
    hydrate: (ids, kbIds) => index.hydrate(ids, kbIds),
    embeddedCount: () => index.embeddedCount(),
    pendingCount: () => index.pendingCount(),
    searchable: () => index.embeddedCount(),
    start: () => undefined,
    stop: () => undefined,
    index,
    postgres: null,
  };
}

function postgresSide(
  storage: PostgresEngine,
  config: EmbeddingsConfig,
  logger: Logger,
  tuning: EmbeddingsTuning,
  clock: Clock,
  wakeWorker: () => void,
): Side {
  const identity = { model: config.model, dimensions: config.dimensions ?? null };
  /** The question side, chosen once the store is open: pgvector where the database has it, else the replica. */
  let active: (VectorSearch & { wake(): void }) | null = null;
  let pgvector: PgvectorSearch | null = null;
  const store = createPostgresVectorStore(storage, { identity, clock, leaseMs: tuning.leaseMs, onWrite: () => active?.wake() });
  // Built either way (cheap until started); started only when it is the question side.
  const r = createVectorReplica(storage, store, { pollMs: tuning.vectorPollMs, logger, onChunksAdded: wakeWorker });
  const opened = (async () => {
    const state = await store.open();
    if (state === 'reset') logger.info('embedding model changed: every chunk will be embedded again', { model: config.model });
    const version = config.vectorSearch === 'memory' ? null : await enablePgvector(storage, logger);
    if (version) pgvector = createPgvectorSearch(storage, store, { version, pollMs: tuning.vectorPollMs, logger });
    active = pgvector ?? r;
    logger.info(`dense retrieval on (PostgreSQL, vectors searched ${version ? `with pgvector ${version}` : 'in memory'})`, {
      model: config.model,
      baseUrl: config.baseUrl,
      dimension: store.backlog.dimension,
      vectors: await store.embeddedCount(),
    });
  })();
  let retiredLogged = false;
  let running = false;
  /** pgvector mode: the chunk change feed only wakes the worker (chunks another instance added). */
  let unsubscribe: (() => void) | null = null;
  return {
    backlog: store.backlog,
    opened,
    shared: true,
    get ready() {
      if (store.retired && !retiredLogged) {
        retiredLogged = true;
        logger.warn('another instance configured another embedding model: this one answers from BM25 alone until restarted with it', {
          model: config.model,
        });
      }
      return !!active?.ready && !store.retired;
    },
    search: (v, kbIds, k) => (active ? active.search(v, kbIds, k) : []),
    hydrate: (ids, kbIds) => store.hydrate(ids, kbIds),
    embeddedCount: () => store.embeddedCount(),
    pendingCount: () => store.pendingCount(),
    searchable: async () => (pgvector ? pgvector.count() : r.size),
    // The question side reads once the state is open (its first read would otherwise see the old
    // model), unless the server stopped meanwhile.
    start: () => {
      running = true;
      void opened.then(
        () => {
          if (!running || !active) return;
          if (pgvector && !unsubscribe) {
            unsubscribe = chunkChangeFeed(storage).subscribe((change) => {
              if (change.kind === 'remote' && change.addedChunkIds.length) wakeWorker();
            });
          }
          active.start();
        },
        () => undefined,
      );
    },
    stop: () => {
      running = false;
      unsubscribe?.();
      unsubscribe = null;
      active?.stop();
    },
    index: null,
    postgres: {
      store,
      replica: r,
      opened,
      get pgvector() {
        return pgvector;
      },
    },
  };
}
export type { EmbeddingsConfig, EmbeddingsTuning } from '../../config.js';
