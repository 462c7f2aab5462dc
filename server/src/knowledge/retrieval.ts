import os from 'node:os';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/open.js';
import { stem, STOPWORDS, stripQuestionFrame, tokenize } from '../answer/text.js';
import { onChunksChanged } from './index-events.js';
import { MemoryIndex } from './memory-index.js';
import { questionBigrams, RERANK_DEPTH, RERANK_WEIGHTS, rerank, type RerankWeights, type WeightedTerm } from './rerank.js';

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
/**
 * Indexes up to this many chunks are searched in memory. The index costs about 450 bytes per
 * chunk (measured at 1M synthetic chunks), so the default spends at most an eighth of the
 * machine's RAM on it: 3M chunks on 24 GiB, 500k on 4 GiB.
 */
export const DEFAULT_MEMORY_INDEX_MAX_CHUNKS = Math.floor(os.totalmem() / 8 / 450);
/** New chunks indexed inline by a question; more than this are indexed in the background. */
const INLINE_CATCH_UP = 5_000;
/** Chunks indexed per background slice (one slice ≈ 20-40 ms, then the event loop runs). */
const BACKGROUND_SLICE = 2_000;

/** Priority 1..10 (default 5) scales relevance from 0.6x to 1.5x. */
export function priorityWeight(priority: number): number {
  return 1 + (priority - 5) * 0.1;
}

/**
 * Distinct query terms: stopwords and question frame words ("what year", "the name of") dropped
 * unless nothing else is left, FTS quotes removed.
 */
export function queryTerms(text: string): string[] {
  const framed = tokenize(stripQuestionFrame(text));
  const tokens = [...new Set((framed.length ? framed : tokenize(text)).map((t) => t.replace(/"/g, '')).filter(Boolean))];
  const content = tokens.filter((t) => !STOPWORDS.has(t));
  const chosen = content.length ? content : tokens;
  // FTS5 splits words at apostrophes, so "powell's" quoted would be the phrase "powell s" and
  // match only the possessive: possessives lose their 's, other apostrophes split the word.
  // A lone Latin letter ("U.S." → u, s) matches everything and means nothing.
  const terms = chosen.flatMap((t) => t.replace(/'s$/, '').split("'")).filter((t) => t && !/^[a-z]$/.test(t));
  return [...new Set(terms.length ? terms : chosen)];
}

/**
 * A safe FTS5 query: every term quoted (so punctuation, quotes and FTS operators in user text
 * are just text) and OR-ed.
 */
export function buildFtsQuery(text: string): string | null {
  const terms = queryTerms(text).slice(0, MAX_QUERY_TERMS);
  return ftsQueryOf(terms);
}

/** The terms worth searching for, for both engines: rarest first, terms in most chunks dropped. */
function selectTerms(terms: readonly string[], df: (term: string) => number, totalChunks: number): string[] {
  const withDf = terms.map((t) => ({ t, n: df(t) })).filter((x) => x.n > 0).sort((a, b) => a.n - b.n);
  const useful = withDf.filter((x) => x.n <= totalChunks * MAX_USEFUL_DOC_SHARE);
  return (useful.length ? useful : withDf.slice(0, 1)).slice(0, MAX_QUERY_TERMS).map((x) => x.t);
}

const ftsQueryOf = (terms: readonly string[]): string | null => (terms.length ? terms.map((t) => `"${t}"`).join(' OR ') : null);

interface Row { id: number; document_id: string; knowledge_base_id: string; title: string; headings: string; body: string; anchor: string | null; url: string | null; page: number | null; rank: number }

const SELECT_CHUNK = `SELECT c.id, c.document_id, c.knowledge_base_id, c.title, c.headings, c.body, c.anchor, coalesce(c.url, d.url) AS url, c.page, f.rank
  FROM f JOIN chunks c ON c.id = f.rowid JOIN documents d ON d.id = c.document_id`;
const BM25 = `bm25(chunks_fts, ${COLUMN_WEIGHTS.title}, ${COLUMN_WEIGHTS.headings}, ${COLUMN_WEIGHTS.body})`;

export interface RetrieverOptions {
  /** Above this many chunks, questions go to FTS5 (0 = always FTS5). */
  memoryIndexMaxChunks?: number;
  /** The best-sentence / bigram rerank of BM25's top candidates (rerank.ts); false = plain BM25 order. */
  rerank?: RerankWeights | false;
}

/** BM25's IDF made positive (a term in most chunks still weighs a little). */
const positiveIdf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

interface ChunkSource { id: number; knowledge_base_id: string; title: string; headings: string; body: string }

export function createRetriever(db: Db, opts: RetrieverOptions = {}) {
  const memoryMax = opts.memoryIndexMaxChunks ?? DEFAULT_MEMORY_INDEX_MAX_CHUNKS;
  const rerankWeights = opts.rerank === undefined ? RERANK_WEIGHTS : opts.rerank;
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
    return selectTerms(terms, df, totalChunks);
  }

  // --- The in-memory engine -------------------------------------------------------------
  const chunksAfter = db.prepare<[number, number], ChunkSource>('SELECT id, knowledge_base_id, title, headings, body FROM chunks WHERE id > ? ORDER BY id LIMIT ?');
  // One statement per hit count (IN with placeholders): no JSON to build and parse per question.
  const hydrateBySize = new Map<number, Statement<number[], Omit<Row, 'rank'>>>();
  const hydrate = (ids: number[]): Omit<Row, 'rank'>[] => {
    let stmt = hydrateBySize.get(ids.length);
    if (!stmt) {
      stmt = db.prepare<number[], Omit<Row, 'rank'>>(`SELECT c.id, c.document_id, c.knowledge_base_id, c.title, c.headings, c.body, c.anchor,
        coalesce(c.url, d.url) AS url, c.page FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN (${ids.map(() => '?').join(', ')})`);
      hydrateBySize.set(ids.length, stmt);
    }
    return stmt.all(...ids);
  };
  /**
   * Recently returned chunk rows by id. A chunk's row never changes while its id lives (new
   * content gets new chunks); a deleted id is evicted at once, since SQLite may reuse it.
   */
  const rowCache = new Map<number, Omit<Row, 'rank'>>();
  const ROW_CACHE_MAX = 4_000;
  const chunkRows = (ids: number[]): Map<number, Omit<Row, 'rank'>> => {
    const out = new Map<number, Omit<Row, 'rank'>>();
    const missing: number[] = [];
    for (const id of ids) {
      const row = rowCache.get(id);
      if (row) out.set(id, row);
      else missing.push(id);
    }
    if (missing.length) {
      for (const row of hydrate(missing)) {
        out.set(row.id, row);
        if (rowCache.size >= ROW_CACHE_MAX) rowCache.delete(rowCache.keys().next().value as number);
        rowCache.set(row.id, row);
      }
    }
    return out;
  };
  /** The index questions use; null until it holds every chunk. */
  let memory: MemoryIndex | null = null;
  /** An index being filled in the background (first build, or a rebuild to drop tombstones). */
  let building: { index: MemoryIndex; removedMeanwhile: number[] } | null = null;
  let memoryDisabled = memoryMax <= 0;
  let readyOnce = false;

  const addChunks = (index: MemoryIndex, max: number): number => {
    const rows = chunksAfter.all(index.lastChunkId, max);
    for (const r of rows) index.add({ id: r.id, knowledgeBaseId: r.knowledge_base_id, title: r.title, headings: r.headings, body: r.body });
    return rows.length;
  };
  function buildInBackground(): void {
    if (building || memoryDisabled) return;
    building = { index: new MemoryIndex(), removedMeanwhile: [] };
    const step = (): void => {
      const b = building;
      if (!b) return;
      if (!db.open) { // the server closed meanwhile
        building = null;
        return;
      }
      if (addChunks(b.index, BACKGROUND_SLICE) === BACKGROUND_SLICE) {
        if (b.index.size > memoryMax) {
          // Too big for memory after all: questions stay on FTS5.
          building = null;
          memory = null;
          memoryDisabled = true;
          return;
        }
        setImmediate(step);
        return;
      }
      for (const id of b.removedMeanwhile) b.index.remove(id);
      b.index.compact();
      memory = b.index;
      building = null;
    };
    setImmediate(step);
  }
  /** The memory index, caught up with new chunks, or null when FTS5 must answer. */
  function currentMemory(): MemoryIndex | null {
    checkOtherConnections();
    if (memoryDisabled) return null;
    if (!memory) {
      totalChunks ??= chunkCount.get()?.n ?? 0;
      if (totalChunks > memoryMax) {
        memoryDisabled = true;
        return null;
      }
      if (totalChunks <= INLINE_CATCH_UP) {
        const index = new MemoryIndex();
        addChunks(index, INLINE_CATCH_UP + 1);
        index.compact();
        memory = index;
      } else {
        buildInBackground();
        return null;
      }
    }
    if (memoryDirty) {
      // New chunks have higher ids than every indexed one: catch up from the last.
      const added = addChunks(memory, INLINE_CATCH_UP);
      if (added === INLINE_CATCH_UP) {
        // A bulk import: index the rest in the background, FTS5 answers meanwhile.
        memory = null;
        buildInBackground();
        return null;
      }
      memoryDirty = false;
      if (memory.size > memoryMax) {
        memory = null;
        memoryDisabled = true;
        return null;
      }
      if (memory.tombstones > Math.max(1_000, memory.size / 4)) buildInBackground();
    }
    return memory;
  }
  let memoryDirty = false;
  // Writes through any knowledge store on this handle reach this retriever.
  onChunksChanged(db, (removed) => invalidate(removed));
  // Another connection's commit (a second process, a backup restore) is seen through
  // data_version: the replica cannot know what changed, so it is rebuilt.
  const dataVersion = db.prepare<[], { data_version: number }>('PRAGMA data_version');
  let seenDataVersion = dataVersion.get()?.data_version ?? 0;
  function checkOtherConnections(): void {
    const v = dataVersion.get()?.data_version ?? 0;
    if (v === seenDataVersion) return;
    seenDataVersion = v;
    rowCache.clear();
    dfCache = new Map();
    totalChunks = null;
    memory = null;
    building = null;
    memoryDisabled = memoryMax <= 0;
  }
  function invalidate(removedChunkIds: readonly number[] = []): void {
    dfCache = new Map();
    totalChunks = null;
    memoryDirty = true;
    memoryDisabled = memoryMax <= 0; // a base that shrank may fit in memory again
    for (const id of removedChunkIds) {
      memory?.remove(id);
      rowCache.delete(id);
    }
    building?.removedMeanwhile.push(...removedChunkIds);
  }

  function retrieveFromMemory(index: MemoryIndex, query: string, kbs: readonly KnowledgeSelection[], limit: number): { chunks: RetrievedChunk[]; terms: WeightedTerm[] } {
    const terms = [...new Set(index.termsOf(queryTerms(query).join(' ')))];
    const searchTerms = selectTerms(terms, (t) => index.documentFrequency(t), index.size);
    const weighted = searchTerms.map((t) => ({ stem: t, idf: positiveIdf(index.size, index.documentFrequency(t)) }));
    const chunks = searchMemory(index, searchTerms, kbs, limit);
    return { chunks, terms: weighted };
  }

  function searchMemory(index: MemoryIndex, searchTerms: string[], kbs: readonly KnowledgeSelection[], limit: number): RetrievedChunk[] {
    if (!searchTerms.length) return [];
    const hits = index.search(searchTerms, new Map(kbs.map((k) => [k.id, priorityWeight(k.priority)])), limit);
    if (!hits.length) return [];
    const rows = chunkRows(hits.map((h) => h.chunkId));
    const out: RetrievedChunk[] = [];
    for (const h of hits) {
      const r = rows.get(h.chunkId);
      if (r) out.push(toRetrieved(r, h.score));
    }
    return out;
  }

  function retrieveFromFts(query: string, kbs: readonly KnowledgeSelection[], limit: number): { chunks: RetrievedChunk[]; terms: WeightedTerm[] } {
    const useful = usefulTerms(query);
    const fts = ftsQueryOf(useful);
    if (!fts) return { chunks: [], terms: [] };
    const n = totalChunks ?? 0;
    const terms = useful.map((t) => ({ stem: stem(t), idf: positiveIdf(n, df(t)) }));
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
    const chunks = rows
      .map((r) => toRetrieved(r, -r.rank * (weights.get(r.knowledge_base_id) ?? 1)))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
    return { chunks, terms };
  }

  return {
    /**
     * Best chunks across the selected knowledge bases, priority-weighted, best first: BM25's top
     * RERANK_DEPTH candidates, reranked by their best sentence and shared word pairs (rerank.ts).
     */
    retrieve(query: string, kbs: readonly KnowledgeSelection[], limit: number): RetrievedChunk[] {
      if (!kbs.length || limit <= 0) return [];
      const depth = rerankWeights ? Math.max(limit, rerankWeights.depth ?? RERANK_DEPTH) : limit;
      const index = currentMemory();
      const { chunks, terms } = index ? retrieveFromMemory(index, query, kbs, depth) : retrieveFromFts(query, kbs, depth);
      if (!rerankWeights || chunks.length < 2) return chunks.slice(0, limit);
      return rerank(terms, questionBigrams(stripQuestionFrame(query)), chunks, rerankWeights).slice(0, limit);
    },
    /** Starts filling the memory index in the background (server start), so the first questions are fast too. */
    warmUp(): void {
      if (!memory) buildInBackground();
    },
    /** True once questions are answered by their final engine: the memory index is built, or FTS5 answers by design (above the cap, or the memory index turned off). */
    ready(): boolean {
      if (!memory && !memoryDisabled && !building) currentMemory();
      // Latched: a later rebuild (a bulk import) keeps answering through FTS5 meanwhile, and a
      // load balancer must not take the instance out for it.
      readyOnce ||= memoryDisabled || memory !== null;
      return readyOnce;
    },
    /** Which engine answers now (tests and the bench report it). */
    engine(): 'memory' | 'fts' {
      return currentMemory() ? 'memory' : 'fts';
    },
  };
}

export type Retriever = ReturnType<typeof createRetriever>;

function toRetrieved(r: Omit<Row, 'rank'>, score: number): RetrievedChunk {
  return {
    chunkId: r.id, documentId: r.document_id, knowledgeBaseId: r.knowledge_base_id, title: r.title, url: r.url,
    headingPath: r.headings ? r.headings.split(' › ') : [], anchor: r.anchor, page: r.page, text: r.body, score,
  };
}

/** A chunk's link: its document url plus the heading anchor, when both exist. */
export function chunkUrl(c: Pick<RetrievedChunk, 'url' | 'anchor'>): string | null {
  if (!c.url) return null;
  return c.anchor && !c.url.includes('#') ? `${c.url}#${c.anchor}` : c.url;
}
