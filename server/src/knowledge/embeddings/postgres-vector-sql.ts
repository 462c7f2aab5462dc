import { leaseKind } from '../../storage/leases.js';
import { CHUNK_COLUMNS, type ChunkRow as ChunkColumnsRow } from '../full-text.js';
import { PGVECTOR_DIM_SQL, PGVECTOR_TABLE } from './pgvector-table.js';

/**
 * The SQL of the dense vectors on PostgreSQL (migration 006; how they are used: postgres-store.ts):
 * the rows' shapes, the float32 byte format, the claims' lease kind and every statement, so that
 * the store reads as what it does.
 */

export interface StoredState {
  generation: number;
  model: string | null;
  dimensions: number | null;
  dim: number | null;
}
export interface VectorRow {
  chunk_id: number;
  knowledge_base_id: string;
  vector: Buffer;
}
export interface CursorRow extends VectorRow {
  xact: string;
  ready: number;
}

/** A chunk of the next batch, as the candidates statement returns it. */
export interface ChunkRow {
  id: number;
  knowledge_base_id: string;
  title: string;
  headings: string;
  body: string;
}
/** CHUNK_COLUMNS: `language` included, since the answerer reads a vector-only hit with its document's analyzer. */
export type HydratedRow = ChunkColumnsRow;

/** Float32 little-endian bytes of a vector, and back (copied: a Buffer from pg may be unaligned). */
export const bytesOf = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
export function vectorOf(b: Buffer): Float32Array {
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Float32Array(copy.buffer);
}

/** Ids as one text parameter (the port binds scalars): `CAST(string_to_array(?, ',') AS bigint[])`. */
export const idList = (ids: readonly number[]): string => ids.join(',');
const IDS = "CAST(string_to_array(?, ',') AS bigint[])";

/**
 * A chunk's claim (storage/leases.ts): the batch's token is the holder, new for every batch, so it
 * fences alone; `owner` names the instance for people reading the table. A released claim's row goes.
 */
export const CLAIMS = leaseKind({
  table: 'embedding_claims',
  key: 'chunk_id',
  owner: 'token',
  epoch: null,
  expires: 'expires_at',
  deleteOnRelease: true,
});

export const SQL = {
  state: 'SELECT generation, model, dimensions, dim FROM embedding_index_state WHERE id = 1',
  stateForUpdate: 'SELECT generation, model, dimensions, dim FROM embedding_index_state WHERE id = 1 FOR UPDATE',
  // With the pgvector table's dimension (null without the table): a write fills it too when it matches.
  stateForShare: `SELECT generation, model, dimensions, dim, ${PGVECTOR_DIM_SQL} AS pgvector_dim FROM embedding_index_state WHERE id = 1 FOR SHARE`,
  newGeneration:
    'UPDATE embedding_index_state SET generation = generation + 1, model = ?, dimensions = ?, dim = ? WHERE id = 1 RETURNING generation',
  setDim: 'UPDATE embedding_index_state SET dim = ? WHERE id = 1',
  dropVectors: 'DELETE FROM chunk_dense_vectors',
  // Made for one dimension (pgvector.ts): dropped first, before the rows it references are locked.
  dropPgvectors: `DROP TABLE IF EXISTS ${PGVECTOR_TABLE}`,
  dropClaims: 'DELETE FROM embedding_claims',
  // The chunks of the next batch: no vector, no live claim; locked so that concurrent claimers skip them.
  candidates: `SELECT c.id, c.knowledge_base_id, c.title, c.headings, c.body FROM chunks c
    WHERE c.id > ? AND NOT (c.id = ANY(${IDS}))
      AND NOT EXISTS (SELECT 1 FROM chunk_dense_vectors v WHERE v.chunk_id = c.id)
      AND NOT EXISTS (SELECT 1 FROM embedding_claims l WHERE l.chunk_id = c.id AND l.expires_at > ?)
    ORDER BY c.id LIMIT ? FOR UPDATE OF c SKIP LOCKED`,
  // Takes a chunk unless a live claim holds it (one committed since the candidates' snapshot included).
  // Parameters: ids, owner, token, until, then CLAIMS.takeParams and CLAIMS.freeParams.
  claim: `INSERT INTO embedding_claims (chunk_id, owner, token, expires_at) SELECT unnest(${IDS}), ?, ?, ?
    ON CONFLICT (chunk_id) DO UPDATE SET owner = excluded.owner, ${CLAIMS.take}
    WHERE ${CLAIMS.freeOn('embedding_claims')}
    RETURNING chunk_id`,
  lockChunks: `SELECT id FROM chunks WHERE id = ANY(${IDS}) ORDER BY id FOR KEY SHARE`,
  endClaims: `DELETE FROM embedding_claims WHERE chunk_id = ANY(${IDS}) AND ${CLAIMS.heldBy} RETURNING chunk_id`,
  countVectors: 'SELECT count(*) AS n FROM chunk_dense_vectors WHERE generation = ?',
  countPending: 'SELECT count(*) AS n FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_dense_vectors v WHERE v.chunk_id = c.id)',
  /** Every vector of a generation, by chunk id (loaded in pages). */
  page: `SELECT chunk_id, knowledge_base_id, vector FROM chunk_dense_vectors
    WHERE generation = ? AND chunk_id > ? ORDER BY chunk_id LIMIT ?`,
  /** After the (xact_id, chunk_id) cursor, flagged ready below the horizon (as the chunk change feed). */
  afterCursor: `SELECT chunk_id, knowledge_base_id, vector, CAST(xact_id AS TEXT) AS xact,
      CASE WHEN xact_id < CAST(? AS xid8) THEN 1 ELSE 0 END AS ready
    FROM chunk_dense_vectors WHERE generation = ? AND (xact_id, chunk_id) > (CAST(? AS xid8), ?)
    ORDER BY xact_id, chunk_id LIMIT ?`,
  // Whether any vector is stored, whatever its generation (open: a reset, or a first start).
  anyVector: 'SELECT count(*) AS n FROM chunk_dense_vectors',
  /** One row per `(?, ?, ?, ?)` of `values`: chunk id, knowledge base, generation, vector bytes. */
  upsertVectors: (values: readonly string[]): string =>
    `INSERT INTO chunk_dense_vectors (chunk_id, knowledge_base_id, generation, vector) VALUES ${values.join(', ')}
          ON CONFLICT (chunk_id) DO UPDATE SET knowledge_base_id = excluded.knowledge_base_id, generation = excluded.generation,
            vector = excluded.vector, xact_id = pg_current_xact_id()`,
  /** Chunk rows for ids (as IDS), of the knowledge bases bound by `kbs` (`?, ?`). */
  hydrate: (kbs: string): string => `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
        WHERE c.id = ANY(${IDS}) AND c.knowledge_base_id IN (${kbs})`,
};
