import { load as loadSqliteVec } from 'sqlite-vec';
import type { RetryPolicy } from '../../answer/providers/http-retry.js';
import type { Storage } from '../../storage/port.js';
import type { SqliteStorage } from '../../storage/sqlite.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import { createEmbeddingClient } from './client.js';
import type { EmbeddingsConfig } from './config.js';
import type { DenseSide } from './hybrid.js';
import { createQueryEmbedder } from './query-embedder.js';
import { createVectorIndex } from './vector-index.js';
import { createBacklogWorker } from './worker.js';

/** Knobs with sensible defaults; tests shorten the waits. Not read from the environment. */
export interface EmbeddingsTuning {
  batchSize: number;
  batchTimeoutMs: number;
  batchRetry: RetryPolicy;
  backoffBaseMs: number;
  backoffMaxMs: number;
  idleSweepMs: number;
  queryTimeoutMs: number;
  queryCooldownMs: number;
  queryCacheSize: number;
}

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
};

/**
 * Dense retrieval, when an embedding model is configured: loads sqlite-vec into the connection,
 * opens (or, after a model change, empties) the vector index, and builds the backlog worker
 * (started and stopped with the server by `listen`) and the query side used by the hybrid
 * retriever. Without configuration none of this exists and the extension is never loaded.
 */
export function createEmbeddings(opts: { storage: Storage; config: EmbeddingsConfig; logger: Logger; clock?: Clock | undefined }) {
  const { config, logger } = opts;
  if (opts.storage.dialect !== 'sqlite') {
    throw new Error('EMBEDDINGS_MODEL is set, but dense retrieval needs the SQLite database (sqlite-vec); on PostgreSQL (pgvector) it is not built yet');
  }
  const storage = opts.storage as SqliteStorage;
  const tuning: EmbeddingsTuning = { ...DEFAULT_TUNING, ...config.tuning };
  try {
    loadSqliteVec(storage.db);
  } catch (err) {
    throw new Error(`EMBEDDINGS_MODEL is set but the sqlite-vec extension could not be loaded (${err instanceof Error ? err.message : String(err)})`, { cause: err });
  }
  const client = createEmbeddingClient(config);
  const index = createVectorIndex(storage, { model: config.model, dimensions: config.dimensions ?? null });
  // Opened in the background: queries use the index once it is open (`ready`), the worker starts after.
  const opened = (async () => {
    const state = await index.open();
    if (state === 'reset') logger.info('embedding model changed: every chunk will be embedded again', { model: config.model });
    logger.info('dense retrieval on', { model: config.model, baseUrl: config.baseUrl, dimension: index.dimension, vectors: await index.embeddedCount() });
  })();
  const queries = createQueryEmbedder({
    client, logger, clock: opts.clock ?? systemClock, timeoutMs: tuning.queryTimeoutMs, cooldownMs: tuning.queryCooldownMs, cacheSize: tuning.queryCacheSize,
  });
  const worker = createBacklogWorker({
    index, opened, client, logger, batchSize: tuning.batchSize, timeoutMs: tuning.batchTimeoutMs, retry: tuning.batchRetry,
    backoffBaseMs: tuning.backoffBaseMs, backoffMaxMs: tuning.backoffMaxMs, idleSweepMs: tuning.idleSweepMs, onReset: () => queries.clear(),
  });
  const dense: DenseSide = {
    get ready() {
      return index.ready;
    },
    embedQuery: (q) => queries.embed(q),
    search: (v, kbIds, k) => index.search(v, kbIds, k),
    hydrate: (ids, kbIds) => index.hydrate(ids, kbIds),
  };
  return {
    config, index, worker, queries, dense,
    /** The knowledge changed (documents added or removed): the worker looks for work. */
    wake: (): void => worker.wake(),
    /** Progress, for logs and tests: `pending` counts every chunk without a vector. */
    async status() {
      return { model: config.model, dimension: index.dimension, ready: index.ready, embedded: await index.embeddedCount(), pending: await index.pendingCount(), worker: worker.stats };
    },
  };
}

export type Embeddings = ReturnType<typeof createEmbeddings>;
export type { EmbeddingsConfig } from './config.js';
