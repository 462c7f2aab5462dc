import os from 'node:os';
import { englishQueryWords, searchTermsFor, stripQuestionFrame } from '../text/text.js';
import type { Storage } from '../storage/port.js';
import { chunkChangeFeed, type ChunkChange } from './change-feed.js';
import { CHUNK_COLUMNS, createFullTextIndex, type ChunkRow, type FullTextIndex } from './full-text.js';
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
  /** The language the chunk's document was analysed in (BCP 47); absent means English. */
  language?: string | undefined;
}

/** Most query terms FTS gets; longer questions keep their rarest terms. */
const MAX_QUERY_TERMS = 16;
/**
 * A term in more than half of all chunks has a BM25 IDF of zero (FTS5 clamps it to 1e-6): it
 * cannot change the ranking, yet it makes FTS score nearly every row. Such terms are dropped
 * unless nothing rarer is left.
 */
const MAX_USEFUL_DOC_SHARE = 0.5;
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
 * Distinct English query words (englishQueryWords, text.ts): stopwords and question frame words
 * dropped unless nothing else is left, FTS quotes removed.
 */
export function queryTerms(text: string): string[] {
  return englishQueryWords(text);
}

/**
 * A safe FTS5 query: every term quoted (so punctuation, quotes and FTS operators in user text
 * are just text) and OR-ed.
 */
export function buildFtsQuery(text: string): string | null {
  const terms = queryTerms(text).slice(0, MAX_QUERY_TERMS);
  return terms.length ? terms.map((t) => `"${t}"`).join(' OR ') : null;
}

/** The terms worth searching for, for both engines: rarest first, terms in most chunks dropped. */
function selectTerms(terms: readonly string[], df: (term: string) => number, totalChunks: number): string[] {
  const withDf = terms.map((t) => ({ t, n: df(t) })).filter((x) => x.n > 0).sort((a, b) => a.n - b.n);
  const useful = withDf.filter((x) => x.n <= totalChunks * MAX_USEFUL_DOC_SHARE);
  return (useful.length ? useful : withDf.slice(0, 1)).slice(0, MAX_QUERY_TERMS).map((x) => x.t);
}

export interface RetrieverOptions {
  /** Above this many chunks, questions go to the full-text index (0 = always the full-text index). */
  memoryIndexMaxChunks?: number;
  /** The best-sentence / bigram rerank of BM25's top candidates (rerank.ts); false = plain BM25 order. */
  rerank?: RerankWeights | false;
  /** The durable full-text engine (default: the storage dialect's, full-text.ts). */
  fullText?: FullTextIndex;
}

/** BM25's IDF made positive (a term in most chunks still weighs a little). */
const positiveIdf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

interface ChunkSource { id: number; knowledge_base_id: string; title: string; headings: string; body: string; language: string }

/**
 * Retrieval: the in-memory BM25 replica (memory-index.ts) answers while the chunks fit under the
 * cap, the durable full-text index (full-text.ts) above it. Only database reads are
 * asynchronous: the memory search itself stays synchronous, and a question whose index is
 * current and whose hits are cached does no database work at all.
 *
 * The replica follows the chunks through `chunks.id` (new chunks have higher ids: caught up from
 * the last indexed one) and the change feed (deleted ids; `external` commits rebuild it). On
 * PostgreSQL the feed also names the chunks other instances committed, by a commit cursor
 * (`remote`): the catch-up reads those by id, including any that `id > last` passed over
 * because their transaction committed late. A question still does no database work while
 * nothing changed.
 */
export function createRetriever(storage: Storage, opts: RetrieverOptions = {}) {
  const memoryMax = opts.memoryIndexMaxChunks ?? DEFAULT_MEMORY_INDEX_MAX_CHUNKS;
  const rerankWeights = opts.rerank === undefined ? RERANK_WEIGHTS : opts.rerank;
  const fullText = opts.fullText ?? createFullTextIndex(storage);
  const feed = chunkChangeFeed(storage);
  const countChunks = async (): Promise<number> => (await storage.get<{ n: number }>('SELECT count(*) AS n FROM chunks'))?.n ?? 0;

  // Document frequencies come from the full-text engine (its own stemming), cached until the index changes.
  let dfCache = new Map<string, number>();
  let totalChunks: number | null = null;
  const df = async (term: string): Promise<number> => {
    let n = dfCache.get(term);
    if (n === undefined) {
      const cache = dfCache;
      n = await fullText.documentFrequency(term);
      if (cache === dfCache) { // not invalidated meanwhile
        if (dfCache.size >= DF_CACHE_MAX) dfCache = new Map();
        dfCache.set(term, n);
      }
    }
    return n;
  };

  /**
   * The languages of the knowledge in these bases (the full-text path: the memory index keeps
   * its own count), cached until the knowledge changes.
   */
  let languageCache = new Map<string, string[]>();
  const languagesOf = async (kbIds: readonly string[]): Promise<string[]> => {
    const key = kbIds.join(',');
    let langs = languageCache.get(key);
    if (!langs) {
      const cache = languageCache;
      const rows = await storage.all<{ language: string }>(
        `SELECT DISTINCT language FROM documents WHERE knowledge_base_id IN (${kbIds.map(() => '?').join(', ')}) AND language IS NOT NULL`, [...kbIds]);
      langs = rows.map((r) => r.language);
      if (cache === languageCache && languageCache.size < 1_000) languageCache.set(key, langs);
    }
    return langs;
  };

  /** The terms worth searching for: rarest first, terms in most chunks dropped. */
  async function usefulTerms(text: string, kbIds: readonly string[]): Promise<{ terms: string[]; total: number; df: Map<string, number> }> {
    const terms = searchTermsFor(text, await languagesOf(kbIds));
    const frequencies = new Map<string, number>();
    if (!terms.length) return { terms: [], total: 0, df: frequencies };
    const total = totalChunks ?? (totalChunks = await countChunks());
    for (const t of terms) frequencies.set(t, await df(t));
    return { terms: selectTerms(terms, (t) => frequencies.get(t) ?? 0, total), total, df: frequencies };
  }

  // --- The in-memory engine -------------------------------------------------------------
  const chunksAfter = 'SELECT id, knowledge_base_id, title, headings, body, language FROM chunks WHERE id > ? ORDER BY id LIMIT ?';
  // One statement per hit count (IN with placeholders; the adapters cache statements by text,
  // so the same string is handed back each time).
  const hydrateSql = new Map<number, string>();
  const hydrate = (ids: number[]): Promise<ChunkRow[]> => {
    let sql = hydrateSql.get(ids.length);
    if (!sql) hydrateSql.set(ids.length, sql = `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN (${ids.map(() => '?').join(', ')})`);
    return storage.all<ChunkRow>(sql, ids);
  };
  /**
   * Recently returned chunk rows by id. A chunk's row never changes while its id lives (new
   * content gets new chunks); a deleted id is evicted at once, since SQLite may reuse it.
   */
  const rowCache = new Map<number, ChunkRow>();
  const ROW_CACHE_MAX = 4_000;
  /** Bumped by every change: rows read before it may be stale and are not cached. */
  let generation = 0;
  /** Rows by id: from the cache without touching the database when every hit is cached. */
  const chunkRows = (ids: number[]): Map<number, ChunkRow> | Promise<Map<number, ChunkRow>> => {
    const out = new Map<number, ChunkRow>();
    const missing: number[] = [];
    for (const id of ids) {
      const row = rowCache.get(id);
      if (row) out.set(id, row);
      else missing.push(id);
    }
    if (!missing.length) return out;
    const seen = generation;
    return hydrate(missing).then((rows) => {
      for (const row of rows) {
        out.set(row.id, row);
        if (seen !== generation) continue;
        if (rowCache.size >= ROW_CACHE_MAX) rowCache.delete(rowCache.keys().next().value as number);
        rowCache.set(row.id, row);
      }
      return out;
    });
  };
  /** The index questions use; null until it holds every chunk. */
  let memory: MemoryIndex | null = null;
  /** An index being filled in the background (first build, or a rebuild to drop tombstones). */
  let building: { index: MemoryIndex; removedMeanwhile: number[] } | null = null;
  let memoryDisabled = memoryMax <= 0;
  let readyOnce = false;
  let memoryDirty = false;
  /** The catch-up in flight: questions meanwhile share it (one reader of new chunks at a time). */
  let catchingUp: Promise<MemoryIndex | null> | null = null;
  /** Chunks deleted while a catch-up read was in flight: applied after its rows are added. */
  let removedDuringCatchUp: number[] | null = null;

  const addRows = (index: MemoryIndex, rows: readonly ChunkSource[]): void => {
    for (const r of rows) index.add({ id: r.id, knowledgeBaseId: r.knowledge_base_id, title: r.title, headings: r.headings, body: r.body, language: r.language });
  };
  const addChunks = async (index: MemoryIndex, max: number): Promise<number> => {
    const rows = await storage.all<ChunkSource>(chunksAfter, [index.lastChunkId, max]);
    addRows(index, rows);
    return rows.length;
  };
  /**
   * Chunks the PostgreSQL feed read by its commit cursor (change-feed.ts), not yet in the index:
   * among them those `id > last` passed over because their transaction committed late. Kept
   * until the next catch-up reads them (a rebuild reads them anyway).
   */
  const pendingAdds = new Set<number>();
  const chunksByIds = 'SELECT id, knowledge_base_id, title, headings, body, language FROM chunks WHERE id = ANY(CAST(string_to_array(?, \',\') AS bigint[]))';
  const addPending = async (index: MemoryIndex): Promise<void> => {
    if (!pendingAdds.size) return;
    const ids = [...pendingAdds];
    pendingAdds.clear();
    for (let i = 0; i < ids.length; i += 1_000) addRows(index, await storage.all<ChunkSource>(chunksByIds, [ids.slice(i, i + 1_000).join(',')]));
  };
  function buildInBackground(): void {
    if (building || memoryDisabled) return;
    const b = { index: new MemoryIndex(), removedMeanwhile: [] as number[] };
    building = b;
    const step = async (): Promise<void> => {
      if (building !== b) return; // reset meanwhile (another connection's commit)
      let added: number;
      try {
        added = await addChunks(b.index, BACKGROUND_SLICE);
      } catch {
        // The database closed meanwhile (shutdown): nothing to build.
        if (building === b) building = null;
        return;
      }
      if (building !== b) return;
      if (added === BACKGROUND_SLICE) {
        if (b.index.size > memoryMax) {
          // Too big for memory after all: questions stay on the full-text index.
          building = null;
          memory = null;
          memoryDisabled = true;
          return;
        }
        setImmediate(() => void step());
        return;
      }
      for (const id of b.removedMeanwhile) b.index.remove(id);
      b.index.compact();
      memory = b.index;
      memoryDirty = true; // chunks committed after the last slice are caught up by the next question
      building = null;
    };
    setImmediate(() => void step());
  }

  /** The memory index, caught up with new chunks, or null when the full-text index must answer. */
  function currentMemory(): MemoryIndex | null | Promise<MemoryIndex | null> {
    feed.poll();
    if (memoryDisabled) return null;
    if (memory && !memoryDirty) return memory; // the common case: no database work
    return (catchingUp ??= catchUp().finally(() => { catchingUp = null; }));
  }
  async function catchUp(): Promise<MemoryIndex | null> {
    if (!memory) {
      const total = totalChunks ?? (totalChunks = await countChunks());
      if (memory || memoryDisabled) return memory;
      if (total > memoryMax) {
        memoryDisabled = true;
        return null;
      }
      if (total > INLINE_CATCH_UP) {
        buildInBackground();
        return null;
      }
      const index = new MemoryIndex();
      removedDuringCatchUp = [];
      memoryDirty = false;
      pendingAdds.clear(); // the full read below holds every committed chunk
      await addChunks(index, INLINE_CATCH_UP + 1);
      await addPending(index); // committed during the read, behind its ids
      for (const id of removedDuringCatchUp) index.remove(id);
      removedDuringCatchUp = null;
      if (memory || memoryDisabled) return memory; // a reset or a background build won meanwhile
      index.compact();
      memory = index;
      return memory;
    }
    const index = memory;
    // New chunks have higher ids than every indexed one: catch up from the last.
    removedDuringCatchUp = [];
    memoryDirty = false;
    if (pendingAdds.size > INLINE_CATCH_UP) {
      // A bulk import elsewhere: rebuilt in the background, the full-text index answers meanwhile.
      memory = null;
      removedDuringCatchUp = null;
      pendingAdds.clear();
      buildInBackground();
      return null;
    }
    const added = await addChunks(index, INLINE_CATCH_UP);
    await addPending(index);
    for (const id of removedDuringCatchUp) index.remove(id);
    removedDuringCatchUp = null;
    if (memory !== index) return memory; // reset meanwhile
    if (added === INLINE_CATCH_UP) {
      // A bulk import: index the rest in the background, the full-text index answers meanwhile.
      memory = null;
      buildInBackground();
      return null;
    }
    if (index.size > memoryMax) {
      memory = null;
      memoryDisabled = true;
      return null;
    }
    if (index.tombstones > Math.max(1_000, index.size / 4)) buildInBackground();
    return index;
  }

  // Writes through any knowledge store on this database reach this retriever (change-feed.ts).
  feed.subscribe((change: ChunkChange) => {
    if (change.kind === 'external') reset();
    else if (change.kind === 'local') invalidate(change.removedChunkIds);
    else {
      for (const id of change.removedChunkIds) pendingAdds.delete(id);
      const before = pendingAdds.size;
      // With no index built or being built, the first catch-up reads every chunk anyway.
      if (!memoryDisabled && (memory || building || catchingUp)) {
        for (const id of change.addedChunkIds) if (!memory?.has(id)) pendingAdds.add(id);
      }
      // Most are this instance's own chunks, already caught up: nothing to do for those.
      if (pendingAdds.size > before || change.removedChunkIds.length) invalidate(change.removedChunkIds);
    }
  });
  /** Another connection's commit: the replica cannot know what changed, so it is rebuilt. */
  function reset(): void {
    generation++;
    languageCache = new Map();
    rowCache.clear();
    dfCache = new Map();
    totalChunks = null;
    memory = null;
    building = null;
    memoryDirty = false;
    memoryDisabled = memoryMax <= 0;
    pendingAdds.clear();
  }
  function invalidate(removedChunkIds: readonly number[]): void {
    generation++;
    languageCache = new Map();
    dfCache = new Map();
    totalChunks = null;
    memoryDirty = true;
    memoryDisabled = memoryMax <= 0; // a base that shrank may fit in memory again
    for (const id of removedChunkIds) {
      memory?.remove(id);
      rowCache.delete(id);
    }
    removedDuringCatchUp?.push(...removedChunkIds);
    building?.removedMeanwhile.push(...removedChunkIds);
  }

  async function retrieveFromMemory(index: MemoryIndex, query: string, kbs: readonly KnowledgeSelection[], limit: number): Promise<{ chunks: RetrievedChunk[]; terms: WeightedTerm[] }> {
    const terms = searchTermsFor(query, index.languagesOf(kbs.map((k) => k.id)));
    const searchTerms = selectTerms(terms, (t) => index.documentFrequency(t), index.size);
    const weighted = searchTerms.map((t) => ({ stem: t, idf: positiveIdf(index.size, index.documentFrequency(t)) }));
    if (!searchTerms.length) return { chunks: [], terms: weighted };
    const hits = index.search(searchTerms, new Map(kbs.map((k) => [k.id, priorityWeight(k.priority)])), limit);
    if (!hits.length) return { chunks: [], terms: weighted };
    const found = chunkRows(hits.map((h) => h.chunkId));
    const rows = found instanceof Promise ? await found : found;
    const chunks: RetrievedChunk[] = [];
    for (const h of hits) {
      const r = rows.get(h.chunkId);
      if (r) chunks.push(toRetrieved(r, h.score));
    }
    return { chunks, terms: weighted };
  }

  async function retrieveFromFullText(query: string, kbs: readonly KnowledgeSelection[], limit: number): Promise<{ chunks: RetrievedChunk[]; terms: WeightedTerm[] }> {
    const useful = await usefulTerms(query, kbs.map((k) => k.id));
    if (!useful.terms.length) return { chunks: [], terms: [] };
    const terms = useful.terms.map((t) => ({ stem: t, idf: positiveIdf(useful.total, useful.df.get(t) ?? 0) }));
    const weights = new Map(kbs.map((k) => [k.id, priorityWeight(k.priority)]));
    // With mixed priorities a lower-ranked chunk of a favoured base can overtake: fetch more.
    const want = new Set(weights.values()).size > 1 ? limit * 4 : limit;
    const hits = await fullText.search(useful.terms, kbs.map((k) => k.id), want);
    const chunks = hits
      .map((r) => toRetrieved(r, r.score * (weights.get(r.knowledge_base_id) ?? 1)))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
    return { chunks, terms };
  }

  return {
    /**
     * Best chunks across the selected knowledge bases, priority-weighted, best first: BM25's top
     * RERANK_DEPTH candidates, reranked by their best sentence and shared word pairs (rerank.ts).
     */
    async retrieve(query: string, kbs: readonly KnowledgeSelection[], limit: number): Promise<RetrievedChunk[]> {
      if (!kbs.length || limit <= 0) return [];
      const depth = rerankWeights ? Math.max(limit, rerankWeights.depth ?? RERANK_DEPTH) : limit;
      const current = currentMemory();
      const index = current instanceof Promise ? await current : current;
      const { chunks, terms } = index ? await retrieveFromMemory(index, query, kbs, depth) : await retrieveFromFullText(query, kbs, depth);
      if (!rerankWeights || chunks.length < 2) return chunks.slice(0, limit);
      const pairs = new Map<string, readonly string[]>();
      const pairsIn = (lang: string): readonly string[] => {
        let p = pairs.get(lang);
        if (!p) pairs.set(lang, p = questionBigrams(lang === 'en' ? stripQuestionFrame(query) : query, lang));
        return p;
      };
      return rerank(terms, pairsIn, chunks, rerankWeights).slice(0, limit);
    },
    /** Starts filling the memory index in the background (server start), so the first questions are fast too. */
    warmUp(): void {
      if (!memory) buildInBackground();
    },
    /**
     * True once questions are answered by their final engine: the memory index is built, or the
     * full-text index answers by design (above the cap, or the memory index turned off).
     */
    ready(): boolean {
      if (!memory && !memoryDisabled && !building) kick();
      // Latched: a later rebuild (a bulk import) keeps answering through the full-text index
      // meanwhile, and a load balancer must not take the instance out for it.
      readyOnce ||= memoryDisabled || memory !== null;
      return readyOnce;
    },
    /** Which engine answers now (tests and the bench report it); starts a pending catch-up. */
    engine(): 'memory' | 'fts' {
      kick();
      return memory && !memoryDisabled ? 'memory' : 'fts';
    },
    /** Which engine answers, once pending catch-up is done (tests). */
    async settledEngine(): Promise<'memory' | 'fts'> {
      return (await currentMemory()) ? 'memory' : 'fts';
    },
  };

  /** Starts the catch-up or build a question would start, without waiting for it. */
  function kick(): void {
    const pending = currentMemory();
    if (pending instanceof Promise) pending.catch(() => undefined);
  }
}

export type Retriever = ReturnType<typeof createRetriever>;

function toRetrieved(r: ChunkRow, score: number): RetrievedChunk {
  return {
    chunkId: r.id, documentId: r.document_id, knowledgeBaseId: r.knowledge_base_id, title: r.title, url: r.url,
    headingPath: r.headings ? r.headings.split(' › ') : [], anchor: r.anchor, page: r.page, text: r.body, score, language: r.language,
  };
}

/** A chunk's link: its document url plus the heading anchor, when both exist. */
export function chunkUrl(c: Pick<RetrievedChunk, 'url' | 'anchor'>): string | null {
  if (!c.url) return null;
  return c.anchor && !c.url.includes('#') ? `${c.url}#${c.anchor}` : c.url;
}
