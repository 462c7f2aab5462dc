import type { Queryable, SqliteEngine, Tx } from '../../storage/port.js';
import { CHUNK_COLUMNS, type ChunkRow as ChunkColumnsRow } from '../full-text.js';
import type { RetrievedChunk } from '../retrieval.js';

/**
 * Chunk vectors in a sqlite-vec `vec0` table, `chunk_vectors`, partitioned by knowledge base.
 * SQLite only by nature (a PostgreSQL deployment would use pgvector behind the same methods);
 * every statement goes through the storage port, so it waits for open transactions like the rest.
 *
 * - Partitioned: a KNN query reads only the vectors of one knowledge base (one query per
 *   selected base, merged), so a small base in a big shared index costs little, and another
 *   base's (another organization's) vectors are never even read. `chunk_size=128` keeps the
 *   space a partition preallocates small (vec0's default, 1024 slots, costs 1.5 MB per base at
 *   384 dimensions however few chunks it has).
 * - Cosine distance: models differ in whether they normalise their vectors.
 * - Validity: a vector counts only while `chunk_embeddings` has a row for its chunk (written with
 *   the vector, deleted with the chunk by a trigger, migration 006). Vectors of deleted chunks
 *   wait in `chunk_vector_garbage` for `collectGarbage`, and are ignored until then.
 * - Identity: the model, the dimensions asked for and the dimension received are kept in
 *   `settings`; any change empties the index so that everything is embedded again.
 */

export interface VectorIdentity {
  model: string;
  dimensions: number | null;
}
interface StoredIdentity extends VectorIdentity {
  dim: number;
}

export interface PendingChunk {
  id: number;
  knowledgeBaseId: string;
  input: string;
}
export interface EmbeddedChunk {
  id: number;
  knowledgeBaseId: string;
  input: string;
  vector: Float32Array;
}
export interface VectorHit {
  chunkId: number;
  knowledgeBaseId: string;
  distance: number;
}

const SETTINGS_KEY = 'embeddings_index';
const CHUNK_SIZE = 128;
/** Chunk ids looked at per backlog query: bounds each scan (about 2 ms per 5,000 ids). */
const SCAN_WINDOW = 4096;
/** Longest text sent for one chunk (chunks are ~1,000 characters; this is a guard). */
const MAX_INPUT_CHARS = 8000;

interface ChunkRow {
  id: number;
  knowledge_base_id: string;
  title: string;
  headings: string;
  body: string;
}
/** CHUNK_COLUMNS: `language` included, since the answerer reads a vector-only hit with its document's analyzer. */
type HydratedRow = ChunkColumnsRow;

/** The text embedded for a chunk: where it sits (title, headings), then its text. */
export function embeddingInput(c: { title: string; headings: string; body: string }): string {
  const head = !c.headings ? c.title : c.headings.startsWith(c.title) ? c.headings : `${c.title} › ${c.headings}`;
  return `${head}\n\n${c.body}`.slice(0, MAX_INPUT_CHARS);
}

const blobOf = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const inList = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

const SQL = {
  setting: 'SELECT value FROM settings WHERE key = ?',
  tableExists: "SELECT 1 AS found FROM sqlite_master WHERE name = 'chunk_vectors'",
  pendingWindow: `SELECT c.id, c.knowledge_base_id, c.title, c.headings, c.body FROM chunks c
    WHERE c.id > ? AND c.id <= ? AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id)
    ORDER BY c.id LIMIT ?`,
  maxChunkId: 'SELECT max(id) AS n FROM chunks',
  countPending: 'SELECT count(*) AS n FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id)',
  countEmbedded: 'SELECT count(*) AS n FROM chunk_embeddings',
  currentChunk: 'SELECT id, knowledge_base_id, title, headings, body FROM chunks WHERE id = ?',
  markEmbedded: 'INSERT INTO chunk_embeddings (chunk_id) VALUES (?) ON CONFLICT (chunk_id) DO NOTHING',
  unmarkGarbage: 'DELETE FROM chunk_vector_garbage WHERE chunk_id = ?',
  garbageBatch: `SELECT g.chunk_id, CASE WHEN EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = g.chunk_id) THEN 1 ELSE 0 END AS live
    FROM chunk_vector_garbage g LIMIT ?`,
  // The join keeps only vectors whose chunk still exists (and is the chunk they were made from).
  knn: `WITH knn AS (SELECT chunk_id, distance FROM chunk_vectors WHERE embedding MATCH ? AND k = ? AND knowledge_base_id = ?)
    SELECT knn.chunk_id, knn.distance FROM knn JOIN chunk_embeddings e ON e.chunk_id = knn.chunk_id`,
  removeVector: 'DELETE FROM chunk_vectors WHERE chunk_id = ?',
  insertVector: 'INSERT INTO chunk_vectors (chunk_id, knowledge_base_id, embedding) VALUES (?, ?, ?)',
  saveIdentity: 'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
};

/** The SQLite vector index (sqlite-vec's vec0 table) of one embedding model. */
export interface VectorIndex {
  /** The model (and requested dimensions) the vectors belong to. */
  readonly identity: VectorIdentity;
  /** Vector dimension once the index exists; null while it waits for the first vectors. */
  readonly dimension: number | null;
  /** True when queries can use the index (it exists for the configured model). */
  readonly ready: boolean;
  /**
   * Opens the index for the configured model: kept when the stored identity matches, else
   * emptied (a model change), to be rebuilt at the dimension of the first vectors.
   */
  open(): Promise<'ready' | 'empty' | 'reset'>;
  /** Creates the vec0 table for `dimension` (dropping what was there) and records the identity. */
  create(dimension: number): Promise<void>;
  /** Forgets every vector (the model answered with another dimension). */
  reset(): Promise<void>;
  /** Chunks without a current vector, by id, after `afterId`; scans at most one window of ids. */
  pendingAfter(afterId: number, limit: number): Promise<{ chunks: PendingChunk[]; scannedTo: number; done: boolean }>;
  /**
   * Stores vectors in one transaction. A chunk deleted or changed since its text was read is
   * skipped (its id may now belong to another chunk). Returns how many were stored.
   */
  write(items: readonly EmbeddedChunk[]): Promise<number>;
  /** Removes vectors of deleted chunks (up to `max`); returns how many garbage rows were handled. */
  collectGarbage(max?: number): Promise<number>;
  /** Nearest valid vectors in the given bases, closest first. */
  search(query: Float32Array, knowledgeBaseIds: readonly string[], k: number): Promise<VectorHit[]>;
  /** Chunk rows for ids (score 0, set by the caller); only live chunks of the given bases. */
  hydrate(ids: readonly number[], knowledgeBaseIds: readonly string[]): Promise<Map<number, RetrievedChunk>>;
  /** Chunks still waiting for a vector (a count over all chunks: for status and tests). */
  pendingCount(): Promise<number>;
  /** Chunks with a current vector. */
  embeddedCount(): Promise<number>;
}

export function createVectorIndex(storage: SqliteEngine, identity: VectorIdentity): VectorIndex {
  let dim: number | null = null;
  /** True once the vec0 table exists for the configured model (queries may use it). */
  let usable = false;

  async function stored(q: Queryable): Promise<StoredIdentity | null> {
    const row = await q.get<{ value: string }>(SQL.setting, [SETTINGS_KEY]);
    if (!row) return null;
    try {
      return JSON.parse(row.value) as StoredIdentity;
    } catch {
      return null;
    }
  }
  const tableExists = async (q: Queryable): Promise<boolean> => !!(await q.get(SQL.tableExists));

  const dropAll = async (tx: Tx): Promise<void> => {
    usable = false;
    await tx.run('DROP TABLE IF EXISTS chunk_vectors');
    await tx.run('DELETE FROM chunk_embeddings');
    await tx.run('DELETE FROM chunk_vector_garbage');
    await tx.run('DELETE FROM settings WHERE key = ?', [SETTINGS_KEY]);
    dim = null;
  };

  return {
    identity,
    get dimension(): number | null {
      return dim;
    },
    get ready(): boolean {
      return usable;
    },

    async open(): Promise<'ready' | 'empty' | 'reset'> {
      const s = await stored(storage);
      const exists = await tableExists(storage);
      if (s && s.model === identity.model && (s.dimensions ?? null) === identity.dimensions && exists) {
        dim = s.dim;
        usable = true;
        return 'ready';
      }
      const hadVectors = !!s || exists || ((await storage.get<{ n: number }>(SQL.countEmbedded))?.n ?? 0) > 0;
      await storage.tx(dropAll, { groupCommit: false });
      return hadVectors ? 'reset' : 'empty';
    },

    async create(dimension: number): Promise<void> {
      if (!Number.isInteger(dimension) || dimension < 1 || dimension > 8192) throw new Error(`Unusable embedding dimension ${dimension}`);
      // Schema changes commit alone: they must not share a group commit's savepoints.
      await storage.tx(
        async (tx) => {
          await dropAll(tx);
          await tx.run(`CREATE VIRTUAL TABLE chunk_vectors USING vec0(
          chunk_id integer primary key, knowledge_base_id text partition key,
          embedding float[${dimension}] distance_metric=cosine, chunk_size=${CHUNK_SIZE})`);
          await tx.run(SQL.saveIdentity, [SETTINGS_KEY, JSON.stringify({ ...identity, dim: dimension } satisfies StoredIdentity)]);
        },
        { groupCommit: false },
      );
      dim = dimension;
      usable = true;
    },

    async reset(): Promise<void> {
      await storage.tx(dropAll, { groupCommit: false });
    },

    async pendingAfter(afterId: number, limit: number): Promise<{ chunks: PendingChunk[]; scannedTo: number; done: boolean }> {
      const max = (await storage.get<{ n: number | null }>(SQL.maxChunkId))?.n ?? 0;
      const to = Math.min(max, afterId + SCAN_WINDOW);
      const rows = afterId >= max ? [] : await storage.all<ChunkRow>(SQL.pendingWindow, [afterId, to, limit]);
      const chunks = rows.map((r) => ({ id: r.id, knowledgeBaseId: r.knowledge_base_id, input: embeddingInput(r) }));
      const scannedTo = rows.length === limit ? (rows.at(-1) as ChunkRow).id : to;
      return { chunks, scannedTo, done: scannedTo >= max };
    },

    async write(items: readonly EmbeddedChunk[]): Promise<number> {
      if (!usable || dim === null) throw new Error('The vector index has no table yet');
      const d = dim;
      return storage.tx(async (tx) => {
        let n = 0;
        for (const item of items) {
          const row = await tx.get<ChunkRow>(SQL.currentChunk, [item.id]);
          if (!row || row.knowledge_base_id !== item.knowledgeBaseId || embeddingInput(row) !== item.input) continue;
          if (item.vector.length !== d) throw new Error(`Vector of dimension ${item.vector.length} for an index of ${d}`);
          const id = BigInt(item.id); // vec0 wants integer keys; better-sqlite3 binds numbers as REAL
          await tx.run(SQL.removeVector, [id]);
          await tx.run(SQL.insertVector, [id, item.knowledgeBaseId, blobOf(item.vector)]);
          await tx.run(SQL.markEmbedded, [item.id]);
          await tx.run(SQL.unmarkGarbage, [item.id]);
          n++;
        }
        return n;
      });
    },

    async collectGarbage(max = 2000): Promise<number> {
      return storage.tx(async (tx) => {
        const rows = await tx.all<{ chunk_id: number; live: number }>(SQL.garbageBatch, [max]);
        for (const r of rows) {
          // A garbage id whose chunk id was re-used and embedded again holds a live vector: keep it.
          if (usable && !r.live) await tx.run(SQL.removeVector, [BigInt(r.chunk_id)]);
          await tx.run(SQL.unmarkGarbage, [r.chunk_id]);
        }
        return rows.length;
      });
    },

    async search(query: Float32Array, knowledgeBaseIds: readonly string[], k: number): Promise<VectorHit[]> {
      if (!usable || query.length !== dim) return [];
      const blob = blobOf(query);
      const hits: VectorHit[] = [];
      for (const kb of new Set(knowledgeBaseIds)) {
        for (const r of await storage.all<{ chunk_id: number; distance: number }>(SQL.knn, [blob, k, kb]))
          hits.push({ chunkId: r.chunk_id, knowledgeBaseId: kb, distance: r.distance });
      }
      return hits.sort((a, b) => a.distance - b.distance || a.chunkId - b.chunkId).slice(0, k);
    },

    async hydrate(ids: readonly number[], knowledgeBaseIds: readonly string[]): Promise<Map<number, RetrievedChunk>> {
      const out = new Map<number, RetrievedChunk>();
      if (!ids.length || !knowledgeBaseIds.length) return out;
      const rows = await storage.all<HydratedRow>(
        `SELECT ${CHUNK_COLUMNS}
        FROM chunks c JOIN documents d ON d.id = c.document_id JOIN chunk_embeddings e ON e.chunk_id = c.id
        WHERE c.id IN (${inList(ids.length)}) AND c.knowledge_base_id IN (${inList(knowledgeBaseIds.length)})`,
        [...ids, ...knowledgeBaseIds],
      );
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

    async pendingCount(): Promise<number> {
      return (await storage.get<{ n: number }>(SQL.countPending))?.n ?? 0;
    },
    async embeddedCount(): Promise<number> {
      return (await storage.get<{ n: number }>(SQL.countEmbedded))?.n ?? 0;
    },
  };
}
