/**
 * The durable full-text index over the chunks, behind one small interface because it is
 * dialect-specific by nature (storage/README.md): SQLite FTS5 (an external-content table
 * `chunks_fts`, BM25) or PostgreSQL tsvector (a generated `tsv` column with a GIN index).
 *
 * The retriever uses it for bases too big for the in-memory index and for term statistics;
 * the knowledge store writes its entries in the transaction that writes the chunks.
 */
import type { Queryable, Storage, Tx } from '../storage/port.js';
import type { SqliteStorage } from '../storage/sqlite.js';

/** BM25 column weights: a hit in a title or heading says more than one in the body. */
export const COLUMN_WEIGHTS = { title: 2.0, headings: 1.5, body: 1.0 } as const;

/** What a new chunk gives the index. */
export interface FullTextChunk { id: number; title: string; headings: string; body: string }

/** A chunk as the question path returns it (the url falls back to its document's). */
export interface ChunkRow { id: number; document_id: string; knowledge_base_id: string; title: string; headings: string; body: string; anchor: string | null; url: string | null; page: number | null }

/** A full-text match: the chunk and its relevance (higher is better). */
export interface FullTextHit extends ChunkRow { score: number }

export interface FullTextIndex {
  readonly engine: 'fts5' | 'tsvector';
  /**
   * Index entries for chunks just inserted through `tx` (same transaction: a chunk is never
   * searchable without its entry, or the reverse). Deleted chunks need no call: SQLite's
   * `chunks_ad` trigger and PostgreSQL's generated column follow the rows.
   */
  add(tx: Tx, chunks: readonly FullTextChunk[]): Promise<void>;
  /** Chunks holding `term` as this engine stems it. */
  documentFrequency(term: string): Promise<number>;
  /** The best `limit` chunks of the given bases holding any of `terms`, best first. */
  search(terms: readonly string[], knowledgeBaseIds: readonly string[], limit: number): Promise<FullTextHit[]>;
}

/** The chunk columns the question path reads, from `c` (chunks) joined to `d` (documents). */
export const CHUNK_COLUMNS = 'c.id, c.document_id, c.knowledge_base_id, c.title, c.headings, c.body, c.anchor, coalesce(c.url, d.url) AS url, c.page';

/** The index for a storage's dialect. */
export function createFullTextIndex(storage: Storage): FullTextIndex {
  if (storage.dialect === 'sqlite') return createFts5Index(storage as SqliteStorage);
  return createTsvectorIndex(storage);
}

/** Rank-then-filter fetches this many times `limit` before falling back to a filtered scan. */
const OVERFETCH = 8;
const BM25 = `bm25(chunks_fts, ${COLUMN_WEIGHTS.title}, ${COLUMN_WEIGHTS.headings}, ${COLUMN_WEIGHTS.body})`;
const ftsQueryOf = (terms: readonly string[]): string => terms.map((t) => `"${t.replace(/"/g, '')}"`).join(' OR ');

/**
 * SQLite FTS5. Reads go through the storage (they wait for an open transaction instead of
 * seeing its uncommitted rows on the shared connection); the SQL is SQLite's own.
 */
export function createFts5Index(storage: SqliteStorage): FullTextIndex {
  const select = `SELECT ${CHUNK_COLUMNS}, f.rank FROM f JOIN chunks c ON c.id = f.rowid JOIN documents d ON d.id = c.document_id`;
  // Fast path: FTS ranks the whole index with its own top-k sort, then the knowledge-base
  // filter applies to the few best rows. Right whenever the selected bases hold a fair share
  // of the index (one organization per server, the common case).
  const topThenFilter = `WITH f AS (SELECT rowid, ${BM25} AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?)
    ${select} WHERE c.knowledge_base_id IN (SELECT value FROM json_each(?)) ORDER BY f.rank`;
  // Exhaustive path: every match is filtered first; for small bases in a big shared index.
  const filterThenTop = `WITH f AS (SELECT rowid, ${BM25} AS rank FROM chunks_fts WHERE chunks_fts MATCH ?)
    ${select} WHERE c.knowledge_base_id IN (SELECT value FROM json_each(?)) ORDER BY f.rank LIMIT ?`;
  const matchCount = 'SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?';
  type RankedRow = ChunkRow & { rank: number };
  const toHit = ({ rank, ...row }: RankedRow): FullTextHit => ({ ...row, score: -rank });

  return {
    engine: 'fts5',
    async add(tx, chunks) {
      // Written here, not by a trigger: twice the ingestion speed (migration 007).
      for (const c of chunks) await tx.run('INSERT INTO chunks_fts (rowid, title, headings, body) VALUES (?, ?, ?, ?)', [c.id, c.title, c.headings, c.body]);
    },
    async documentFrequency(term) {
      return (await storage.get<{ n: number }>(matchCount, [ftsQueryOf([term])]))?.n ?? 0;
    },
    async search(terms, knowledgeBaseIds, limit) {
      if (!terms.length || !knowledgeBaseIds.length || limit <= 0) return [];
      const fts = ftsQueryOf(terms);
      const kbJson = JSON.stringify(knowledgeBaseIds);
      const fetchCount = limit * OVERFETCH;
      let rows = await storage.all<RankedRow>(topThenFilter, [fts, fetchCount, kbJson]);
      if (rows.length < limit) {
        // Too few survived the filter: unless FTS had nothing more to give, scan exhaustively.
        const maybeMore = ((await storage.get<{ n: number }>(matchCount, [fts]))?.n ?? 0) > fetchCount;
        if (maybeMore) rows = await storage.all<RankedRow>(filterThenTop, [fts, kbJson, limit]);
      }
      return rows.map(toHit);
    },
  };
}

/**
 * PostgreSQL full-text search over the schema's generated column (storage/postgres/migrations,
 * 001_baseline.sql): `chunks.tsv` = title (weight A) || headings (B) || body (D), stemmed by the
 * 'english' configuration, with a GIN index. Entries follow the rows, so `add` has nothing to do.
 *
 * Not BM25 (ts_rank has no IDF, and 'english' folds no diacritics): above the memory cap,
 * rankings differ from SQLite's; below it the memory index (BM25, the same on both dialects)
 * answers. Tested in postgres.test.ts.
 */
export function createTsvectorIndex(storage: Queryable): FullTextIndex {
  // Terms arrive lower-cased and stripped of quotes; each becomes one lexeme, OR-ed.
  const tsquery = (terms: readonly string[]): string => terms.map((t) => `plainto_tsquery('english', ${quoteLiteral(t)})`).join(' || ');
  return {
    engine: 'tsvector',
    async add() {
      // The generated `tsv` column indexes the row as it is inserted.
    },
    async documentFrequency(term) {
      return (await storage.get<{ n: number }>("SELECT count(*) AS n FROM chunks WHERE tsv @@ plainto_tsquery('english', ?)", [term]))?.n ?? 0;
    },
    async search(terms, knowledgeBaseIds, limit) {
      if (!terms.length || !knowledgeBaseIds.length || limit <= 0) return [];
      const q = tsquery(terms);
      const kbs = knowledgeBaseIds.map(() => '?').join(', ');
      // Weights {D, C, B, A}: body 0.5, headings 0.75, title 1.0 keep COLUMN_WEIGHTS' ratios.
      return storage.all<FullTextHit>(`SELECT ${CHUNK_COLUMNS}, ts_rank('{0.5, 0.5, 0.75, 1.0}', c.tsv, ${q}) AS score
        FROM chunks c JOIN documents d ON d.id = c.document_id
        WHERE c.tsv @@ (${q}) AND c.knowledge_base_id IN (${kbs}) ORDER BY score DESC, c.id LIMIT ?`, [...knowledgeBaseIds, limit]);
    },
  };
}

/** A SQL string literal (terms come from the tokenizer, but quoting keeps this safe for any text). */
function quoteLiteral(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}
