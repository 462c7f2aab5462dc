import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import type { PostgresEngine, Queryable, Tx } from '../../storage/port.js';
import type { RetrievedChunk } from '../retrieval.js';
import type { Backlog, Batch } from './backlog.js';
import { writePgvectors } from './pgvector-table.js';
import {
  bytesOf,
  CLAIMS,
  idList,
  SQL,
  type ChunkRow,
  type CursorRow,
  type HydratedRow,
  type StoredState,
  type VectorRow,
} from './postgres-vector-sql.js';
import { embeddingInput, type PendingChunk, type VectorIdentity } from './vector-index.js';

/**
 * Dense vectors on PostgreSQL (migration 006): plain rows of float32 bytes, searched with
 * pgvector where the extension is available (pgvector.ts: its table is written here, in the same
 * transaction) and else read by every instance into its in-memory index (replica.ts), and the
 * backlog shared by the instances' workers under leases.
 *
 * - Identity: `embedding_index_state` names the model the vectors belong to and a `generation`.
 *   An instance starting with another model (or dimensions) empties the vectors and claims and
 *   takes a new generation, in one transaction holding the state row; vectors of an older
 *   generation are never written (a write holds the row FOR SHARE and checks it). A running
 *   instance whose model is no longer the stored one retires: it stops embedding and answers
 *   from BM25 alone (a rolling deploy: the instances that started last decide the model).
 * - Leases: a worker claims a batch in one transaction: the chunks after its cursor without a
 *   vector, locked FOR UPDATE SKIP LOCKED (two claimers at once take different chunks), then an
 *   upsert into `embedding_claims` that takes a chunk only if it has no live claim (expired ones
 *   are taken over). The claim carries a token new for each batch; the vectors are stored only
 *   for chunks whose claim still carries it, and the claim ends with the write. So a stalled
 *   instance whose lease was taken over stores nothing over the new holder's work. A held lease
 *   is renewed every third of its length while the batch is being embedded.
 * - Lock order is chunks, then claims (as a chunk delete cascades), so a delete never deadlocks
 *   with a write.
 * - Chunk ids are never reused on PostgreSQL (identity): a vector row belongs to its chunk for
 *   good, and goes with it (ON DELETE CASCADE).
 */

interface Lease {
  token: string;
  renew: NodeJS.Timeout | null;
}

export interface PostgresVectorStoreOptions {
  identity: VectorIdentity;
  clock: Clock;
  /** How long a claimed batch is held without renewal (renewed every third of it). */
  leaseMs: number;
  /** Called after this instance stored vectors (its replica reads them at once). */
  onWrite?: () => void;
}

/** The stored vectors are this model's (and dimensions'). */
export const sameIdentity = (s: StoredState, id: VectorIdentity): boolean =>
  s.model === id.model && (s.dimensions ?? null) === id.dimensions;

/** The vectors of one embedding model on PostgreSQL, shared by every instance (see createPostgresVectorStore). */
export interface PostgresVectorStore {
  /** The model (and requested dimensions) this instance embeds with. */
  readonly identity: VectorIdentity;
  /** The embedding worker's side: claims batches under a lease, stores vectors, releases. */
  readonly backlog: Backlog;
  /** Who claims, in the claims table (for people reading it). */
  readonly owner: string;
  /** The vectors' generation this instance writes and reads (a model change starts a new one); null before `open`. */
  readonly generation: number | null;
  /** Another model was configured by an instance that started later: this one stops embedding. */
  readonly retired: boolean;
  /**
   * Opens the vectors for the configured model: kept when the stored state names it, else
   * thrown away (another model) for a new generation. Two instances starting at once with the
   * same new model reset once: the second sees the first's state under the row lock.
   */
  open(): Promise<'ready' | 'empty' | 'reset'>;
  /** The stored state (model, generation, dimension) as the database has it now. */
  state(): Promise<StoredState>;
  /**
   * The state as another reader saw it (the replica, every poll): an instance that has not
   * written since another rebuilt the vectors follows the newer generation and dimension, and
   * one whose model is no longer the stored one retires, without first claiming a batch for
   * nothing. Generations only grow, so an older read never undoes a newer one.
   */
  observe(s: StoredState): void;
  /** Vectors of a generation with chunk id above `after`, by chunk id. */
  page(gen: number, after: number, limit: number): Promise<VectorRow[]>;
  /** Vectors after the commit cursor, each flagged ready when below `horizon`. */
  afterCursor(gen: number, horizon: string, at: { xact: string; id: number }, limit: number): Promise<CursorRow[]>;
  /** Chunk rows for ids (score 0, set by the caller); only live chunks of the given bases. */
  hydrate(ids: readonly number[], knowledgeBaseIds: readonly string[]): Promise<Map<number, RetrievedChunk>>;
  /** Vectors stored in this instance's generation. */
  embeddedCount(): Promise<number>;
  /** Chunks without a vector of the current model. */
  pendingCount(): Promise<number>;
}

export function createPostgresVectorStore(storage: PostgresEngine, opts: PostgresVectorStoreOptions): PostgresVectorStore {
  const { identity, clock, leaseMs } = opts;
  /** Who claims, in the claims table (for people reading it). */
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  let generation: number | null = null;
  let dim: number | null = null;
  /** Another model was configured by an instance that started later: this one stops embedding. */
  let retired = false;

  const readState = async (q: Queryable, sql = SQL.state): Promise<StoredState> => {
    const row = await q.get<StoredState>(sql);
    if (!row) throw new Error('embedding_index_state has no row (PostgreSQL migration 006 not applied?)');
    return row;
  };

  /** Throws the vectors away and starts a generation for this instance's model. */
  async function newGeneration(tx: Tx, dimension: number | null): Promise<void> {
    const row = await tx.get<{ generation: number }>(SQL.newGeneration, [identity.model, identity.dimensions, dimension]);
    await tx.run(SQL.dropPgvectors);
    await tx.run(SQL.dropVectors);
    await tx.run(SQL.dropClaims);
    generation = row?.generation ?? null;
    dim = dimension;
  }

  /** Follows the stored state: same model, adopt its generation and dimension; another, retire. */
  function adopt(s: StoredState): boolean {
    if (!sameIdentity(s, identity)) {
      retired = true;
      return false;
    }
    generation = s.generation;
    dim = s.dim;
    return true;
  }

  function stopRenewal(batch: Batch): Lease | null {
    const lease = batch.lease as Lease | undefined;
    if (!lease) return null;
    if (lease.renew) clearInterval(lease.renew);
    lease.renew = null;
    return lease;
  }

  const backlog: Backlog = {
    get dimension() {
      return dim;
    },

    async create(dimension) {
      if (!Number.isInteger(dimension) || dimension < 1 || dimension > 8192) throw new Error(`Unusable embedding dimension ${dimension}`);
      await storage.tx(async (tx) => {
        const s = await readState(tx, SQL.stateForUpdate);
        if (!adopt(s)) return;
        if (s.dim === dimension) return; // another instance made it first
        if (s.dim === null) {
          await tx.run(SQL.setDim, [dimension]);
          dim = dimension;
          return;
        }
        await newGeneration(tx, dimension); // the model now answers with another dimension
      });
    },

    async take(cursor, limit, skipped) {
      if (retired || generation === null) return { batch: { chunks: [] }, scannedTo: cursor, done: true };
      const now = clock.now();
      const token = randomUUID();
      const { rows, claimed } = await storage.tx(async (tx) => {
        const found = await tx.all<ChunkRow>(SQL.candidates, [cursor, idList([...skipped]) || '0', now, limit]);
        if (!found.length) return { rows: found, claimed: new Set<number>() };
        const got = await tx.all<{ chunk_id: number }>(SQL.claim, [
          idList(found.map((r) => r.id)),
          owner,
          token,
          now + leaseMs,
          ...CLAIMS.takeParams(token, now + leaseMs),
          ...CLAIMS.freeParams(token, now),
        ]);
        return { rows: found, claimed: new Set(got.map((r) => r.chunk_id)) };
      });
      const chunks: PendingChunk[] = rows
        .filter((r) => claimed.has(r.id))
        .map((r) => ({ id: r.id, knowledgeBaseId: r.knowledge_base_id, input: embeddingInput(r) }));
      const done = rows.length < limit;
      const scannedTo = rows.length ? (rows.at(-1) as ChunkRow).id : cursor;
      if (!chunks.length) return { batch: { chunks }, scannedTo, done };
      const lease: Lease = { token, renew: null };
      lease.renew = setInterval(
        () => {
          CLAIMS.renew(storage, token, clock.now() + leaseMs).catch(() => undefined);
        },
        Math.max(50, Math.floor(leaseMs / 3)),
      );
      lease.renew.unref();
      return { batch: { chunks, lease }, scannedTo, done };
    },

    async write(batch, vectors) {
      const lease = stopRenewal(batch);
      if (!lease || !batch.chunks.length) return 0;
      const ids = batch.chunks.map((c) => c.id);
      const stored = await storage.tx(async (tx) => {
        // Held FOR SHARE: a model change (FOR UPDATE) waits for this write, or this one sees it.
        const s = (await readState(tx, SQL.stateForShare)) as StoredState & { pgvector_dim: number | null };
        if (s.generation !== generation) {
          adopt(s);
          await CLAIMS.release(tx, lease.token);
          return 0;
        }
        const live = new Set((await tx.all<{ id: number }>(SQL.lockChunks, [idList(ids)])).map((r) => r.id));
        const held = new Set((await tx.all<{ chunk_id: number }>(SQL.endClaims, [idList(ids), lease.token])).map((r) => r.chunk_id));
        const values: string[] = [];
        const params: (string | number | Buffer)[] = [];
        const rows: { chunkId: number; knowledgeBaseId: string; vector: Float32Array }[] = [];
        batch.chunks.forEach((c, i) => {
          const v = vectors[i] as Float32Array;
          if (!live.has(c.id) || !held.has(c.id)) return;
          if (v.length !== s.dim) throw new Error(`Vector of dimension ${v.length} for an index of ${String(s.dim)}`);
          values.push('(?, ?, ?, ?)');
          params.push(c.id, c.knowledgeBaseId, s.generation, bytesOf(v));
          rows.push({ chunkId: c.id, knowledgeBaseId: c.knowledgeBaseId, vector: v });
        });
        if (!values.length) return 0;
        await tx.run(SQL.upsertVectors(values), params);
        // The pgvector table (pgvector.ts), when it exists for this dimension: in this transaction,
        // whichever search this instance uses, so the table never lacks a committed vector.
        if (s.pgvector_dim !== null && s.pgvector_dim === s.dim) await writePgvectors(tx, rows);
        return values.length;
      });
      if (stored) opts.onWrite?.();
      return stored;
    },

    async release(batch) {
      const lease = stopRenewal(batch);
      if (lease) await CLAIMS.release(storage, lease.token);
    },

    // Vectors go with their chunks (ON DELETE CASCADE); claims of deleted chunks too.
    collectGarbage: async () => 0,
  };

  return {
    identity,
    backlog,
    owner,
    get generation(): number | null {
      return generation;
    },
    get retired(): boolean {
      return retired;
    },

    async open(): Promise<'ready' | 'empty' | 'reset'> {
      retired = false;
      return storage.tx(
        async (tx) => {
          const s = await readState(tx, SQL.stateForUpdate);
          if (sameIdentity(s, identity)) {
            adopt(s);
            return 'ready';
          }
          const had = s.model !== null || ((await tx.get<{ n: number }>(SQL.anyVector))?.n ?? 0) > 0;
          await newGeneration(tx, null);
          return had ? 'reset' : 'empty';
        },
        { groupCommit: false },
      );
    },

    state: (): Promise<StoredState> => readState(storage),
    observe(s: StoredState): void {
      if (!sameIdentity(s, identity)) {
        retired = true;
        return;
      }
      if (generation === null || s.generation > generation || (s.generation === generation && dim === null)) {
        generation = s.generation;
        dim = s.dim;
      }
    },
    page: (gen: number, after: number, limit: number): Promise<VectorRow[]> => storage.all<VectorRow>(SQL.page, [gen, after, limit]),
    afterCursor: (gen: number, horizon: string, at: { xact: string; id: number }, limit: number): Promise<CursorRow[]> =>
      storage.all<CursorRow>(SQL.afterCursor, [horizon, gen, at.xact, at.id, limit]),

    async hydrate(ids: readonly number[], knowledgeBaseIds: readonly string[]): Promise<Map<number, RetrievedChunk>> {
      const out = new Map<number, RetrievedChunk>();
      if (!ids.length || !knowledgeBaseIds.length) return out;
      const kbs = knowledgeBaseIds.map(() => '?').join(', ');
      const rows = await storage.all<HydratedRow>(SQL.hydrate(kbs), [idList(ids), ...knowledgeBaseIds]);
      for (const r of rows) {
        out.set(r.id, {
          chunkId: r.id,
          documentId: r.document_id,
          knowledgeBaseId: r.knowledge_base_id,
          title: r.title,
          url: r.url,
          headingPath: r.headings ? r.headings.split(' › ') : [],
          anchor: r.anchor,
          page: r.page,
          text: r.body,
          score: 0,
          language: r.language,
        });
      }
      return out;
    },

    async embeddedCount(): Promise<number> {
      if (generation === null) return 0;
      return (await storage.get<{ n: number }>(SQL.countVectors, [generation]))?.n ?? 0;
    },
    async pendingCount(): Promise<number> {
      return (await storage.get<{ n: number }>(SQL.countPending))?.n ?? 0;
    },
  };
}
