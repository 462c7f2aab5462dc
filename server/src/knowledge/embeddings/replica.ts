import type { Logger } from '../../lib/logger.js';
import type { PostgresEngine } from '../../storage/port.js';
import { readHorizon } from '../../storage/postgres/horizon.js';
import { chunkChangeFeed, type ChunkChange } from '../change-feed.js';
import { createMemoryVectors, type MemoryVectors } from './memory-vectors.js';
import { createPoller } from './poller.js';
import { type PostgresVectorStore, sameIdentity } from './postgres-store.js';
import { type StoredState, vectorOf, type VectorRow } from './postgres-vector-sql.js';
import type { VectorHit } from './vector-index.js';

/**
 * The question side of dense retrieval on PostgreSQL: what answers "nearest vectors in these
 * bases". Either an exact in-memory copy of the stored vectors (VectorReplica below), or, where
 * the database has pgvector, a KNN query on its HNSW index and no copy (pgvector.ts).
 */
export interface VectorSearch {
  /** True when it can answer for the configured model. */
  readonly ready: boolean;
  search(query: Float32Array, knowledgeBaseIds: readonly string[], k: number): VectorHit[] | Promise<VectorHit[]>;
  start(): void;
  stop(): void;
}

/** This instance's in-memory copy of the PostgreSQL vectors (see createVectorReplica). */
export interface VectorReplica extends VectorSearch {
  /** This instance stored vectors: read them now. */
  wake(): void;
  /** Whether the copy holds a vector for the chunk. */
  has(chunkId: number): boolean;
  /** Vectors held. */
  readonly size: number;
  /** Bytes of memory the vectors take. */
  readonly bytes: number;
  /** Resolves after a full read from now (tests, and the start log). */
  settled(): Promise<void>;
}

export interface ReplicaOptions {
  /** How often the vectors table is read for other instances' writes (this instance's own are read at once). */
  pollMs: number;
  logger: Logger;
  /** Another instance added chunks: the local backlog worker may help embed them. */
  onChunksAdded?: () => void;
}

/** Vectors read per statement, at load and from the cursor. */
const PAGE = 2_000;
/** Removed chunk ids are remembered this long, so a vector read just before its chunk's deletion is not added back. */
const TOMBSTONE_MS = 10 * 60_000;
/** Beyond this many vectors an instance logs that pgvector (or a bigger instance) is due. */
export const MEMORY_WARN_VECTORS = 250_000;

interface Cursor {
  xact: string;
  id: number;
}

/**
 * Every instance's copy of the PostgreSQL vectors, exact and in memory (memory-vectors.ts),
 * kept current the way the BM25 memory index is (change-feed.ts):
 *
 * - loaded at start (and after a model change, seen as a new generation in the state row): the
 *   commit horizon first (storage/postgres/horizon.ts), then every vector of the generation;
 * - new vectors, from any instance, followed by an (xact_id, chunk_id) cursor read below the
 *   horizon, so a vector whose transaction took a lower id and committed late is never skipped.
 *   Read every `pollMs`, and at once after this instance wrote;
 * - deleted chunks leave by the chunk change feed (chunk_deletions): `remote` and `local`
 *   removals are dropped from memory; `external` (the feed lost track) reloads.
 *
 * Nothing of it runs on the question path: `search` reads memory only.
 */
export function createVectorReplica(storage: PostgresEngine, store: PostgresVectorStore, opts: ReplicaOptions): VectorReplica {
  let mem: MemoryVectors | null = null;
  /** The generation `mem` holds (null: nothing usable for this model yet). */
  let loadedGeneration: number | null = null;
  let cursor: Cursor | null = null;
  let reloadWanted = true;
  const tombstones = new Map<number, number>();
  let unsubscribe: (() => void) | null = null;
  let warned = false;

  function removed(ids: readonly number[]): void {
    const now = Date.now();
    for (const id of ids) {
      tombstones.set(id, now);
      mem?.remove(id);
    }
  }

  function pruneTombstones(): void {
    const cutoff = Date.now() - TOMBSTONE_MS;
    for (const [id, at] of tombstones) {
      if (at >= cutoff) break; // insertion order is time order
      tombstones.delete(id);
    }
  }

  function add(into: MemoryVectors, rows: readonly VectorRow[]): void {
    for (const r of rows) {
      if (tombstones.has(r.chunk_id)) continue;
      const v = vectorOf(r.vector);
      if (v.length === into.dimension) into.upsert(r.chunk_id, r.knowledge_base_id, v);
    }
  }

  async function load(s: StoredState): Promise<void> {
    const dim = s.dim as number;
    // The horizon before the rows: everything below it is committed and in the pages read next;
    // what commits later (ids above it) is read again by the cursor.
    const horizon = await readHorizon(storage);
    const since = Date.now();
    const next = createMemoryVectors(dim);
    for (let after = 0; ;) {
      const rows = await store.page(s.generation, after, PAGE);
      add(next, rows);
      if (rows.length < PAGE) break;
      after = (rows.at(-1) as VectorRow).chunk_id;
    }
    // Deletions told while loading: applied to the new copy too.
    for (const [id, at] of tombstones) if (at >= since - 1_000) next.remove(id);
    mem = next;
    loadedGeneration = s.generation;
    cursor = { xact: horizon, id: 0 };
    opts.logger.info('dense vectors loaded into memory', {
      vectors: next.size,
      dimension: dim,
      megabytes: Math.round(next.bytes / 1e5) / 10,
    });
  }

  async function follow(gen: number): Promise<void> {
    for (;;) {
      const at = cursor as Cursor;
      const horizon = await readHorizon(storage);
      const rows = await store.afterCursor(gen, horizon, at, PAGE);
      if (cursor !== at || loadedGeneration !== gen || !mem) return; // reloaded meanwhile
      const stop = rows.findIndex((r) => !r.ready);
      const ready = stop < 0 ? rows : rows.slice(0, stop);
      add(mem, ready);
      const last = ready.at(-1);
      if (last) cursor = { xact: last.xact, id: last.chunk_id };
      if (stop >= 0 || rows.length < PAGE) return;
    }
  }

  async function readOnce(): Promise<void> {
    pruneTombstones();
    const s = await store.state();
    store.observe(s);
    const mine = sameIdentity(s, store.identity);
    if (!mine || s.dim === null) {
      // Another model's vectors (this instance is retiring), or none yet: nothing to answer from.
      mem = null;
      loadedGeneration = null;
      return;
    }
    if (reloadWanted || loadedGeneration !== s.generation || !mem) {
      reloadWanted = false;
      await load(s);
    } else {
      await follow(s.generation);
    }
    if (!warned && mem && mem.size > MEMORY_WARN_VECTORS) {
      warned = true;
      opts.logger.warn('many dense vectors held in memory by every instance: consider pgvector (docs/deploy-scale-out.md)', {
        vectors: mem.size,
        megabytes: Math.round(mem.bytes / 1e6),
      });
    }
  }

  // The database is away or closing: the next poll tries again (from a full load, to be safe).
  // Logged once per outage, not once per poll.
  const poller = createPoller({
    pollMs: opts.pollMs,
    readOnce,
    onFailure(err, first, stopped) {
      reloadWanted = true;
      if (!stopped && first)
        opts.logger.warn('reading dense vectors failed: retrying every poll', { error: err instanceof Error ? err.message : String(err) });
    },
    onRecovery: () => opts.logger.info('reading dense vectors works again'),
  });
  const read = poller.read;

  function onChange(change: ChunkChange): void {
    if (change.kind === 'external') {
      reloadWanted = true;
      void read();
      return;
    }
    removed(change.removedChunkIds);
    if (change.kind === 'remote' && change.addedChunkIds.length) opts.onChunksAdded?.();
  }

  return {
    get ready() {
      return !!mem && mem.size > 0;
    },
    get size() {
      return mem?.size ?? 0;
    },
    get bytes() {
      return mem?.bytes ?? 0;
    },
    has: (chunkId) => mem?.has(chunkId) ?? false,
    search(query, knowledgeBaseIds, k) {
      return mem ? mem.search(query, knowledgeBaseIds, k) : [];
    },
    start() {
      // Subscribed first, loaded after: a deletion committed before the subscription is in the
      // load, one after it is told (deletions while stopped were not told: loaded again).
      poller.start(() => {
        unsubscribe = chunkChangeFeed(storage).subscribe(onChange);
        reloadWanted = true;
      });
    },
    stop() {
      poller.stop();
      unsubscribe?.();
      unsubscribe = null;
    },
    wake() {
      void read();
    },
    settled: () => poller.settled(),
  };
}
