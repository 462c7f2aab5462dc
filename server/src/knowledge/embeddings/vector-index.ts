import type { Db } from '../../db/open.js';
import type { RetrievedChunk } from '../retrieval.js';

/**
 * Chunk vectors in a sqlite-vec `vec0` table, `chunk_vectors`, partitioned by knowledge base.
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

export interface VectorIdentity { model: string; dimensions: number | null }
interface StoredIdentity extends VectorIdentity { dim: number }

export interface PendingChunk { id: number; knowledgeBaseId: string; input: string }
export interface EmbeddedChunk { id: number; knowledgeBaseId: string; input: string; vector: Float32Array }
export interface VectorHit { chunkId: number; knowledgeBaseId: string; distance: number }

const SETTINGS_KEY = 'embeddings_index';
const CHUNK_SIZE = 128;
/** Chunk ids looked at per backlog query: bounds each synchronous scan (about 2 ms per 5,000 ids). */
const SCAN_WINDOW = 4096;
/** Longest text sent for one chunk (chunks are ~1,000 characters; this is a guard). */
const MAX_INPUT_CHARS = 8000;

interface ChunkRow { id: number; knowledge_base_id: string; title: string; headings: string; body: string }
interface HydratedRow { id: number; document_id: string; knowledge_base_id: string; title: string; headings: string; body: string; anchor: string | null; url: string | null; page: number | null }

/** The text embedded for a chunk: where it sits (title, headings), then its text. */
export function embeddingInput(c: { title: string; headings: string; body: string }): string {
  const head = !c.headings ? c.title : c.headings.startsWith(c.title) ? c.headings : `${c.title} › ${c.headings}`;
  return `${head}\n\n${c.body}`.slice(0, MAX_INPUT_CHARS);
}

const blobOf = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

export function createVectorIndex(db: Db, identity: VectorIdentity) {
  let dim: number | null = null;
  let knn: ReturnType<typeof prepareKnn> | null = null;

  const readSetting = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const tableExists = (): boolean => !!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'chunk_vectors'").get();
  const pendingWindow = db.prepare<[number, number, number], ChunkRow>(`
    SELECT c.id, c.knowledge_base_id, c.title, c.headings, c.body FROM chunks c
    WHERE c.id > ? AND c.id <= ? AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id)
    ORDER BY c.id LIMIT ?`);
  const maxChunkId = db.prepare<[], { n: number | null }>('SELECT max(id) AS n FROM chunks');
  const countPending = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id)');
  const countEmbedded = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM chunk_embeddings');
  const currentChunk = db.prepare<[number], ChunkRow>('SELECT id, knowledge_base_id, title, headings, body FROM chunks WHERE id = ?');
  const markEmbedded = db.prepare('INSERT OR REPLACE INTO chunk_embeddings (chunk_id) VALUES (?)');
  const unmarkGarbage = db.prepare('DELETE FROM chunk_vector_garbage WHERE chunk_id = ?');
  const garbageBatch = db.prepare<[number], { chunk_id: number; live: number }>(`
    SELECT g.chunk_id, EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = g.chunk_id) AS live FROM chunk_vector_garbage g LIMIT ?`);
  const hydrateRows = db.prepare<[string, string], HydratedRow>(`
    SELECT c.id, c.document_id, c.knowledge_base_id, c.title, c.headings, c.body, c.anchor, coalesce(c.url, d.url) AS url, c.page
    FROM chunks c JOIN documents d ON d.id = c.document_id JOIN chunk_embeddings e ON e.chunk_id = c.id
    WHERE c.id IN (SELECT value FROM json_each(?)) AND c.knowledge_base_id IN (SELECT value FROM json_each(?))`);

  function prepareKnn() {
    return {
      // The join keeps only vectors whose chunk still exists (and is the chunk they were made from).
      search: db.prepare<[Buffer, number, string], { chunk_id: number; distance: number }>(`
        WITH knn AS (SELECT chunk_id, distance FROM chunk_vectors WHERE embedding MATCH ? AND k = ? AND knowledge_base_id = ?)
        SELECT knn.chunk_id, knn.distance FROM knn JOIN chunk_embeddings e ON e.chunk_id = knn.chunk_id`),
      remove: db.prepare('DELETE FROM chunk_vectors WHERE chunk_id = ?'),
      insert: db.prepare('INSERT INTO chunk_vectors (chunk_id, knowledge_base_id, embedding) VALUES (?, ?, ?)'),
    };
  }

  function stored(): StoredIdentity | null {
    const row = readSetting.get(SETTINGS_KEY);
    if (!row) return null;
    try {
      return JSON.parse(row.value) as StoredIdentity;
    } catch {
      return null;
    }
  }

  const dropAll = (): void => {
    db.exec('DROP TABLE IF EXISTS chunk_vectors');
    db.exec('DELETE FROM chunk_embeddings; DELETE FROM chunk_vector_garbage');
    db.prepare('DELETE FROM settings WHERE key = ?').run(SETTINGS_KEY);
    dim = null;
    knn = null;
  };

  return {
    identity,
    /** Vector dimension once the index exists; null while it waits for the first vectors. */
    get dimension(): number | null {
      return dim;
    },
    /** True when queries can use the index (it exists for the configured model). */
    get ready(): boolean {
      return knn !== null;
    },

    /**
     * Opens the index for the configured model: kept when the stored identity matches, else
     * emptied (a model change), to be rebuilt at the dimension of the first vectors.
     */
    open(): 'ready' | 'empty' | 'reset' {
      const s = stored();
      if (s && s.model === identity.model && (s.dimensions ?? null) === identity.dimensions && tableExists()) {
        dim = s.dim;
        knn = prepareKnn();
        return 'ready';
      }
      const hadVectors = !!s || tableExists() || countEmbedded.get()!.n > 0;
      db.transaction(dropAll)();
      return hadVectors ? 'reset' : 'empty';
    },

    /** Creates the vec0 table for `dimension` (dropping what was there) and records the identity. */
    create(dimension: number): void {
      if (!Number.isInteger(dimension) || dimension < 1 || dimension > 8192) throw new Error(`Unusable embedding dimension ${dimension}`);
      db.transaction(() => {
        dropAll();
        db.exec(`CREATE VIRTUAL TABLE chunk_vectors USING vec0(
          chunk_id integer primary key, knowledge_base_id text partition key,
          embedding float[${dimension}] distance_metric=cosine, chunk_size=${CHUNK_SIZE})`);
        db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(SETTINGS_KEY, JSON.stringify({ ...identity, dim: dimension } satisfies StoredIdentity));
      })();
      dim = dimension;
      knn = prepareKnn();
    },

    /** Forgets every vector (the model answered with another dimension). */
    reset(): void {
      db.transaction(dropAll)();
    },

    /** Chunks without a current vector, by id, after `afterId`; scans at most one window of ids. */
    pendingAfter(afterId: number, limit: number): { chunks: PendingChunk[]; scannedTo: number; done: boolean } {
      const max = maxChunkId.get()?.n ?? 0;
      const to = Math.min(max, afterId + SCAN_WINDOW);
      const rows = afterId >= max ? [] : pendingWindow.all(afterId, to, limit);
      const chunks = rows.map((r) => ({ id: r.id, knowledgeBaseId: r.knowledge_base_id, input: embeddingInput(r) }));
      const scannedTo = rows.length === limit ? (rows.at(-1) as ChunkRow).id : to;
      return { chunks, scannedTo, done: scannedTo >= max };
    },

    /**
     * Stores vectors in one transaction. A chunk deleted or changed since its text was read is
     * skipped (its id may now belong to another chunk). Returns how many were stored.
     */
    write(items: readonly EmbeddedChunk[]): number {
      const k = knn;
      if (!k || dim === null) throw new Error('The vector index has no table yet');
      return db.transaction(() => {
        let n = 0;
        for (const item of items) {
          const row = currentChunk.get(item.id);
          if (!row || row.knowledge_base_id !== item.knowledgeBaseId || embeddingInput(row) !== item.input) continue;
          if (item.vector.length !== dim) throw new Error(`Vector of dimension ${item.vector.length} for an index of ${dim}`);
          const id = BigInt(item.id); // vec0 wants integer keys; better-sqlite3 binds numbers as REAL
          k.remove.run(id);
          k.insert.run(id, item.knowledgeBaseId, blobOf(item.vector));
          markEmbedded.run(item.id);
          unmarkGarbage.run(item.id);
          n++;
        }
        return n;
      })();
    },

    /** Removes vectors of deleted chunks (up to `max`); returns how many garbage rows were handled. */
    collectGarbage(max = 2000): number {
      return db.transaction(() => {
        const rows = garbageBatch.all(max);
        for (const r of rows) {
          // A garbage id whose chunk id was re-used and embedded again holds a live vector: keep it.
          if (knn && !r.live) knn.remove.run(BigInt(r.chunk_id));
          unmarkGarbage.run(r.chunk_id);
        }
        return rows.length;
      })();
    },

    /** Nearest valid vectors in the given bases, closest first. */
    search(query: Float32Array, knowledgeBaseIds: readonly string[], k: number): VectorHit[] {
      if (!knn || query.length !== dim) return [];
      const blob = blobOf(query);
      const hits: VectorHit[] = [];
      for (const kb of new Set(knowledgeBaseIds)) {
        for (const r of knn.search.all(blob, k, kb)) hits.push({ chunkId: r.chunk_id, knowledgeBaseId: kb, distance: r.distance });
      }
      return hits.sort((a, b) => a.distance - b.distance || a.chunkId - b.chunkId).slice(0, k);
    },

    /** Chunk rows for ids (score 0, set by the caller); only live chunks of the given bases. */
    hydrate(ids: readonly number[], knowledgeBaseIds: readonly string[]): Map<number, RetrievedChunk> {
      const out = new Map<number, RetrievedChunk>();
      if (!ids.length) return out;
      for (const r of hydrateRows.all(JSON.stringify(ids), JSON.stringify(knowledgeBaseIds))) {
        out.set(r.id, {
          chunkId: r.id, documentId: r.document_id, knowledgeBaseId: r.knowledge_base_id, title: r.title, url: r.url,
          headingPath: r.headings ? r.headings.split(' › ') : [], anchor: r.anchor, page: r.page, text: r.body, score: 0,
        });
      }
      return out;
    },

    /** Chunks still waiting for a vector (a count over all chunks: for status and tests). */
    pendingCount(): number {
      return countPending.get()!.n;
    },
    embeddedCount(): number {
      return countEmbedded.get()!.n;
    },
  };
}

export type VectorIndex = ReturnType<typeof createVectorIndex>;
