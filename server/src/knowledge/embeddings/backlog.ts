import type { PendingChunk, VectorIndex } from './vector-index.js';

/**
 * Where the backlog worker (worker.ts) takes chunks to embed and stores their vectors: the seam
 * between the worker's policy (batching, backoff, skipping refused inputs) and a backend's
 * storage of vectors. Two backends:
 *
 * - SQLite (`sqliteBacklog`): one server per database file, so no leases: a pass reads the
 *   chunks without a vector in id order (vector-index.ts, sqlite-vec).
 * - PostgreSQL (postgres-store.ts): several instances share the backlog, so what a pass takes is
 *   claimed in the database (a lease with an expiry and a fencing token); the vectors are stored
 *   only while the claim is still the writer's.
 */
export interface Batch {
  chunks: PendingChunk[];
  /** The backend's lease on these chunks, if it has leases. */
  lease?: unknown;
}

export interface Backlog {
  /** Vector dimension once known; null while it waits for the first vectors. */
  readonly dimension: number | null;
  /** The first vectors arrived (or came back at another dimension): make or rebuild the index for them. */
  create(dimension: number): Promise<void>;
  /** Chunks to embed with id above `cursor` (taken for this worker where the backend leases). */
  take(cursor: number, limit: number, skipped: ReadonlySet<number>): Promise<{ batch: Batch; scannedTo: number; done: boolean }>;
  /** Stores the batch's vectors (in order); returns how many were stored. Ends the batch's lease. */
  write(batch: Batch, vectors: readonly Float32Array[]): Promise<number>;
  /** The batch was not embedded (failure, stop): hand its chunks back at once. */
  release(batch: Batch): Promise<void>;
  /** Housekeeping between batches (SQLite: vectors of deleted chunks). */
  collectGarbage(): Promise<number>;
}

/** The SQLite backend: sqlite-vec's index, scanned by id; nothing to lease. */
export function sqliteBacklog(index: VectorIndex): Backlog {
  return {
    get dimension() {
      return index.dimension;
    },
    create: (dimension) => index.create(dimension),
    async take(cursor, limit, skipped) {
      const { chunks, scannedTo, done } = await index.pendingAfter(cursor, limit);
      return { batch: { chunks: chunks.filter((c) => !skipped.has(c.id)) }, scannedTo, done };
    },
    write: (batch, vectors) => index.write(batch.chunks.map((c, i) => ({ ...c, vector: vectors[i] as Float32Array }))),
    release: async () => undefined,
    collectGarbage: () => index.collectGarbage(),
  };
}
