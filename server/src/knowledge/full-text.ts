/**
 * The durable full-text index over the chunks, behind one small interface because it is
 * dialect-specific by nature (storage/README.md): SQLite FTS5 (an external-content table
 * `chunks_fts`, BM25) or PostgreSQL tsvector (a generated `tsv` column with a GIN index).
 *
 * The retriever uses it for bases too big for the in-memory index and for term statistics;
 * the knowledge store gives it the chunks of the transaction that writes them (FTS5 writes their
 * entries after the commit, many transactions at a time: full-text-backlog.ts).
 */
import type { Queryable, SqliteEngine, Storage, Tx } from '../storage/port.js';
import { analyzerFor } from '../text/text.js';
import { fullTextBacklog } from './full-text-backlog.js';

/** BM25 column weights: a hit in a title or heading says more than one in the body. */
export const COLUMN_WEIGHTS = { title: 2.0, headings: 1.5, body: 1.0 } as const;

/** What a new chunk gives the index; `language` (its document's) picks the analyzer. */
export interface FullTextChunk {
  id: number;
  title: string;
  headings: string;
  body: string;
  language?: string | null | undefined;
}

/**
 * A chunk's columns as the analyzer of its language cuts them: the terms every engine indexes
 * (FTS5 and tsvector store them as given, the memory index computes the same), so the engines
 * agree by construction whatever the language.
 */
export function analyzedColumns(c: FullTextChunk): { title: string[]; headings: string[]; body: string[] } {
  const a = analyzerFor(c.language);
  return { title: a.indexTerms(c.title), headings: a.indexTerms(c.headings), body: a.indexTerms(c.body) };
}

/** A chunk as the question path returns it (the url falls back to its document's). */
export interface ChunkRow {
  id: number;
  document_id: string;
  knowledge_base_id: string;
  title: string;
  headings: string;
  body: string;
  anchor: string | null;
  url: string | null;
  page: number | null;
  language: string;
}

/** A full-text match: the chunk and its relevance (higher is better). */
export interface FullTextHit extends ChunkRow {
  score: number;
}

export interface FullTextIndex {
  readonly engine: 'fts5' | 'tsvector';
  /**
   * Index entries for chunks just inserted through `tx`. tsvector writes them in that
   * transaction; FTS5 records their ids in it and writes the entries after the commit, and
   * its reads wait for them (`settled`), so a committed chunk is never missed by a search.
   * Deleted chunks need no call: SQLite's `chunks_ad` trigger and PostgreSQL's generated
   * column follow the rows.
   */
  add(tx: Tx, chunks: readonly FullTextChunk[]): Promise<void>;
  /** Resolves once the entries of every chunk committed before the call are in the index. */
  settled(): Promise<void>;
  /** Chunks holding `term` as this engine stems it. */
  documentFrequency(term: string): Promise<number>;
  /** The best `limit` chunks of the given bases holding any of `terms`, best first. */
  search(terms: readonly string[], knowledgeBaseIds: readonly string[], limit: number): Promise<FullTextHit[]>;
}

/** The chunk columns the question path reads, from `c` (chunks) joined to `d` (documents). */
export const CHUNK_COLUMNS =
  'c.id, c.document_id, c.knowledge_base_id, c.title, c.headings, c.body, c.anchor, coalesce(c.url, d.url) AS url, c.page, c.language';

/** The index for a storage's engine. */
export function createFullTextIndex(storage: Storage): FullTextIndex {
  return storage.pick({ sqlite: createFts5Index, postgres: createTsvectorIndex });
}

/** Rank-then-filter fetches this many times `limit` before falling back to a filtered scan. */
const OVERFETCH = 8;
const BM25 = `bm25(chunks_fts, ${COLUMN_WEIGHTS.title}, ${COLUMN_WEIGHTS.headings}, ${COLUMN_WEIGHTS.body})`;
const ftsQueryOf = (terms: readonly string[]): string => terms.map((t) => `"${t.replace(/"/g, '')}"`).join(' OR ');

/**
 * SQLite FTS5. Reads go through the storage (they wait for an open transaction instead of
 * seeing its uncommitted rows on the shared connection); the SQL is SQLite's own.
 */
export function createFts5Index(storage: SqliteEngine): FullTextIndex {
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

  const backlog = fullTextBacklog(storage, writeFts5Entries);

  return {
    engine: 'fts5',
    async add(tx, chunks) {
      await backlog.owe(
        tx,
        chunks.map((c) => c.id),
      );
    },
    settled: () => backlog.settled(),
    async documentFrequency(term) {
      await backlog.settled();
      return (await storage.get<{ n: number }>(matchCount, [ftsQueryOf([term])]))?.n ?? 0;
    },
    async search(terms, knowledgeBaseIds, limit) {
      if (!terms.length || !knowledgeBaseIds.length || limit <= 0) return [];
      await backlog.settled();
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
 * FTS5 entries of committed chunks, in the transaction given (full-text-backlog.ts). Written
 * here, not by a trigger: twice the ingestion speed (migration 007). The table's `ascii`
 * tokenizer splits only at the spaces between the analyzer's terms (migration 030).
 */
async function writeFts5Entries(tx: Tx, chunks: readonly FullTextChunk[]): Promise<void> {
  for (const c of chunks) {
    const t = analyzedColumns(c);
    await tx.run('INSERT INTO chunks_fts (rowid, title, headings, body) VALUES (?, ?, ?, ?)', [
      c.id,
      t.title.join(' '),
      t.headings.join(' '),
      t.body.join(' '),
    ]);
  }
}

/**
 * PostgreSQL full-text search over `chunks.tsv` (migration 009): the analyzer's terms written as
 * a tsvector literal (title weight A, headings B, body D, with positions), so PostgreSQL's own
 * parser and dictionaries never touch them; questions are a tsquery literal of the same terms.
 * GIN-indexed.
 *
 * Not BM25 (ts_rank has no IDF): above the memory cap, rankings differ from SQLite's; below it
 * the memory index (BM25, the same on both dialects) answers. Tested in postgres.test.ts.
 */
export function createTsvectorIndex(storage: Queryable): FullTextIndex {
  return {
    engine: 'tsvector',
    settled: () => Promise.resolve(),
    async add(tx, chunks) {
      if (!chunks.length) return;
      const rows = chunks.map((c) => ({ id: c.id, tsv: tsvectorLiteral(analyzedColumns(c)) }));
      await tx.run(
        `UPDATE chunks AS c SET tsv = CAST(v.tsv AS tsvector)
        FROM json_to_recordset(CAST(? AS json)) AS v(id bigint, tsv text) WHERE c.id = v.id`,
        [JSON.stringify(rows)],
      );
    },
    async documentFrequency(term) {
      return (
        (await storage.get<{ n: number }>('SELECT count(*) AS n FROM chunks WHERE tsv @@ CAST(? AS tsquery)', [tsqueryLiteral([term])]))
          ?.n ?? 0
      );
    },
    async search(terms, knowledgeBaseIds, limit) {
      if (!terms.length || !knowledgeBaseIds.length || limit <= 0) return [];
      const kbs = knowledgeBaseIds.map(() => '?').join(', ');
      // Weights {D, C, B, A}: body 0.5, headings 0.75, title 1.0 keep COLUMN_WEIGHTS' ratios.
      return storage.all<FullTextHit>(
        `SELECT ${CHUNK_COLUMNS}, ts_rank('{0.5, 0.5, 0.75, 1.0}', c.tsv, q.q) AS score
        FROM chunks c JOIN documents d ON d.id = c.document_id, (SELECT CAST(? AS tsquery) AS q) q
        WHERE c.tsv @@ q.q AND c.knowledge_base_id IN (${kbs}) ORDER BY score DESC, c.id LIMIT ?`,
        [tsqueryLiteral(terms), ...knowledgeBaseIds, limit],
      );
    },
  };
}

/** PostgreSQL keeps positions up to 16,383 and lexemes under 2 KB. */
const MAX_POSITION = 16_383;
const MAX_LEXEME_BYTES = 2_046;
const quoteLexeme = (t: string): string => `'${t.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** A tsvector literal of analysed columns: `'term':1A,4A 'other':2B 'body':3`. */
export function tsvectorLiteral(cols: { title: readonly string[]; headings: readonly string[]; body: readonly string[] }): string {
  const positions = new Map<string, string[]>();
  let pos = 0;
  for (const [terms, weight] of [
    [cols.title, 'A'],
    [cols.headings, 'B'],
    [cols.body, ''],
  ] as const) {
    for (const t of terms) {
      pos = Math.min(pos + 1, MAX_POSITION);
      if (Buffer.byteLength(t) > MAX_LEXEME_BYTES) continue;
      let list = positions.get(t);
      if (!list) positions.set(t, (list = []));
      if (list.length < 256) list.push(`${pos}${weight}`);
    }
  }
  return [...positions].map(([t, ps]) => `${quoteLexeme(t)}:${ps.join(',')}`).join(' ');
}

/** A tsquery literal OR-ing terms. */
export function tsqueryLiteral(terms: readonly string[]): string {
  return terms.map(quoteLexeme).join(' | ');
}
