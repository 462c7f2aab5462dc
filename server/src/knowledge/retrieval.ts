import type { Db } from '../db/open.js';
import { STOPWORDS, tokenize } from '../answer/text.js';

export interface KnowledgeSelection { id: string; priority: number }

export interface RetrievedChunk {
  chunkId: number;
  documentId: string;
  knowledgeBaseId: string;
  title: string;
  url: string | null;
  headingPath: string[];
  anchor: string | null;
  /** 1-based PDF page the chunk came from, when known. */
  page: number | null;
  text: string;
  /** BM25 relevance (higher is better) times the knowledge base's priority weight. */
  score: number;
}

/** Most query terms FTS gets; longer questions keep their rarest terms. */
const MAX_QUERY_TERMS = 16;
/** BM25 column weights: a hit in a title or heading says more than one in the body. */
const COLUMN_WEIGHTS = { title: 2.0, headings: 1.5, body: 1.0 };
/**
 * A term in more than half of all chunks has a BM25 IDF of zero (FTS5 clamps it to 1e-6): it
 * cannot change the ranking, yet it makes FTS score nearly every row. Such terms are dropped
 * unless nothing rarer is left.
 */
const MAX_USEFUL_DOC_SHARE = 0.5;
/** Rank-then-filter fetches this many times `limit` before falling back to a filtered scan. */
const OVERFETCH = 8;
const DF_CACHE_MAX = 50_000;

/** Priority 1..10 (default 5) scales relevance from 0.6x to 1.5x. */
export function priorityWeight(priority: number): number {
  return 1 + (priority - 5) * 0.1;
}

/** Distinct query terms: stopwords dropped unless nothing else is left, FTS quotes removed. */
export function queryTerms(text: string): string[] {
  const tokens = [...new Set(tokenize(text).map((t) => t.replace(/"/g, '')).filter(Boolean))];
  const content = tokens.filter((t) => !STOPWORDS.has(t));
  return content.length ? content : tokens;
}

/**
 * A safe FTS5 query: every term quoted (so punctuation, quotes and FTS operators in user text
 * are just text) and OR-ed.
 */
export function buildFtsQuery(text: string): string | null {
  const terms = queryTerms(text).slice(0, MAX_QUERY_TERMS);
  return ftsQueryOf(terms);
}

const ftsQueryOf = (terms: readonly string[]): string | null => (terms.length ? terms.map((t) => `"${t}"`).join(' OR ') : null);

interface Row { id: number; document_id: string; knowledge_base_id: string; title: string; headings: string; body: string; anchor: string | null; url: string | null; page: number | null; rank: number }

const SELECT_CHUNK = `SELECT c.id, c.document_id, c.knowledge_base_id, c.title, c.headings, c.body, c.anchor, coalesce(c.url, d.url) AS url, c.page, f.rank
  FROM f JOIN chunks c ON c.id = f.rowid JOIN documents d ON d.id = c.document_id`;
const BM25 = `bm25(chunks_fts, ${COLUMN_WEIGHTS.title}, ${COLUMN_WEIGHTS.headings}, ${COLUMN_WEIGHTS.body})`;

export function createRetriever(db: Db) {
  // Fast path: FTS ranks the whole index with its own top-k sort, then the knowledge-base
  // filter applies to the few best rows. Right whenever the selected bases hold a fair share
  // of the index (one organization per server, the common case).
  const topThenFilter = db.prepare<[string, number, string], Row>(`
    WITH f AS (SELECT rowid, ${BM25} AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?)
    ${SELECT_CHUNK} WHERE c.knowledge_base_id IN (SELECT value FROM json_each(?)) ORDER BY f.rank`);
  // Exhaustive path: every match is filtered first; for small bases in a big shared index.
  const filterThenTop = db.prepare<[string, string, number], Row>(`
    WITH f AS (SELECT rowid, ${BM25} AS rank FROM chunks_fts WHERE chunks_fts MATCH ?)
    ${SELECT_CHUNK} WHERE c.knowledge_base_id IN (SELECT value FROM json_each(?)) ORDER BY f.rank LIMIT ?`);
  const docFrequency = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?');
  const chunkCount = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM chunks');

  // Document frequencies come from FTS itself (its own stemming), cached until the index changes.
  let dfCache = new Map<string, number>();
  let totalChunks: number | null = null;
  const df = (term: string): number => {
    let n = dfCache.get(term);
    if (n === undefined) {
      n = docFrequency.get(`"${term}"`)?.n ?? 0;
      if (dfCache.size >= DF_CACHE_MAX) dfCache = new Map();
      dfCache.set(term, n);
    }
    return n;
  };

  /** The terms worth searching for: rarest first, terms in most chunks dropped. */
  function usefulTerms(text: string): string[] {
    const terms = queryTerms(text);
    if (!terms.length) return [];
    totalChunks ??= chunkCount.get()?.n ?? 0;
    const withDf = terms.map((t) => ({ t, n: df(t) })).filter((x) => x.n > 0).sort((a, b) => a.n - b.n);
    if (!withDf.length) return [];
    const useful = withDf.filter((x) => x.n <= totalChunks! * MAX_USEFUL_DOC_SHARE);
    return (useful.length ? useful : withDf.slice(0, 1)).slice(0, MAX_QUERY_TERMS).map((x) => x.t);
  }

  return {
    /** Best chunks across the selected knowledge bases, priority-weighted, best first. */
    retrieve(query: string, kbs: readonly KnowledgeSelection[], limit: number): RetrievedChunk[] {
      if (!kbs.length) return [];
      const fts = ftsQueryOf(usefulTerms(query));
      if (!fts) return [];
      const weights = new Map(kbs.map((k) => [k.id, priorityWeight(k.priority)]));
      // With mixed priorities a lower-ranked chunk of a favoured base can overtake: fetch more.
      const want = new Set(weights.values()).size > 1 ? limit * 4 : limit;
      const kbJson = JSON.stringify(kbs.map((k) => k.id));
      const fetchCount = want * OVERFETCH;
      let rows = topThenFilter.all(fts, fetchCount, kbJson);
      if (rows.length < want) {
        // Too few survived the filter: unless FTS had nothing more to give, scan exhaustively.
        const maybeMore = (docFrequency.get(fts)?.n ?? 0) > fetchCount;
        if (maybeMore) rows = filterThenTop.all(fts, kbJson, want);
      }
      return rows
        .map((r) => ({
          chunkId: r.id, documentId: r.document_id, knowledgeBaseId: r.knowledge_base_id, title: r.title, url: r.url,
          headingPath: r.headings ? r.headings.split(' › ') : [], anchor: r.anchor, page: r.page, text: r.body,
          score: -r.rank * (weights.get(r.knowledge_base_id) ?? 1),
        }))
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
    },
    /** The index changed (documents added or removed): document frequencies are stale. */
    invalidate(): void {
      dfCache = new Map();
      totalChunks = null;
    },
  };
}

export type Retriever = ReturnType<typeof createRetriever>;

/** A chunk's link: its document url plus the heading anchor, when both exist. */
export function chunkUrl(c: Pick<RetrievedChunk, 'url' | 'anchor'>): string | null {
  if (!c.url) return null;
  return c.anchor && !c.url.includes('#') ? `${c.url}#${c.anchor}` : c.url;
}
