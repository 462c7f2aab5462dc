import os from 'node:os';
import { searchTermsFor } from '../text/text.js';
import { stripQuestionFrame } from '../text/english.js';
import type { Storage } from '../storage/port.js';
import { chunkChangeFeed, type ChunkChange } from './change-feed.js';
import { createChunkRows } from './chunk-rows.js';
import { createFullTextIndex, type FullTextIndex } from './full-text.js';
import { createFullTextSearch } from './full-text-search.js';
import type { MemoryIndex } from './memory-index.js';
import { createMemoryReplica } from './memory-replica.js';
import { questionBigrams, RERANK_DEPTH, RERANK_WEIGHTS, rerank, type RerankWeights, type WeightedTerm } from './rerank.js';
import { positiveIdf, priorityWeight, selectTerms, toRetrieved, type KnowledgeSelection, type RetrievedChunk } from './retrieved-chunk.js';

export { buildFtsQuery, chunkUrl, priorityWeight, type KnowledgeSelection, type RetrievedChunk } from './retrieved-chunk.js';

/**
 * Indexes up to this many chunks are searched in memory. The index costs about 450 bytes per
 * chunk (measured at 1M synthetic chunks), so the default spends at most an eighth of the
 * machine's RAM on it: 3M chunks on 24 GiB, 500k on 4 GiB.
 */
export const DEFAULT_MEMORY_INDEX_MAX_CHUNKS = Math.floor(os.totalmem() / 8 / 450);

export interface RetrieverOptions {
  /** Above this many chunks, questions go to the full-text index (0 = always the full-text index). */
  memoryIndexMaxChunks?: number;
  /** The best-sentence / bigram rerank of BM25's top candidates (rerank.ts); false = plain BM25 order. */
  rerank?: RerankWeights | false;
  /** The durable full-text engine (default: the storage dialect's, full-text.ts). */
  fullText?: FullTextIndex;
}

/** Questions to the knowledge (see createRetriever). */
export interface Retriever {
  /**
   * Best chunks across the selected knowledge bases, priority-weighted, best first: BM25's top
   * RERANK_DEPTH candidates, reranked by their best sentence and shared word pairs (rerank.ts).
   */
  retrieve(query: string, kbs: readonly KnowledgeSelection[], limit: number): Promise<RetrievedChunk[]>;
  /** Starts filling the memory index in the background (server start), so the first questions are fast too. */
  warmUp(): void;
  /**
   * True once questions are answered by their final engine: the memory index is built, or the
   * full-text index answers by design (above the cap, or the memory index turned off).
   */
  ready(): boolean;
  /** Which engine answers now (tests and the bench report it); starts a pending catch-up. */
  engine(): 'memory' | 'fts';
  /** Which engine answers, once pending catch-up is done (tests). */
  settledEngine(): Promise<'memory' | 'fts'>;
}

/**
 * Retrieval: the in-memory BM25 replica (memory-replica.ts, memory-index.ts) answers while the
 * chunks fit under the cap, the durable full-text index (full-text-search.ts) above it. Only
 * database reads are asynchronous: the memory search itself stays synchronous, and a question
 * whose index is current and whose hits are cached (chunk-rows.ts) does no database work at all.
 * Writes through any knowledge store on this database reach it through the change feed
 * (change-feed.ts).
 */
export function createRetriever(storage: Storage, opts: RetrieverOptions = {}): Retriever {
  const memoryMax = opts.memoryIndexMaxChunks ?? DEFAULT_MEMORY_INDEX_MAX_CHUNKS;
  const rerankWeights = opts.rerank === undefined ? RERANK_WEIGHTS : opts.rerank;
  const feed = chunkChangeFeed(storage);
  const fullText = createFullTextSearch(storage, opts.fullText ?? createFullTextIndex(storage));
  const rows = createChunkRows(storage);
  const replica = createMemoryReplica(storage, { memoryMax, countChunks: fullText.countChunks, poll: () => feed.poll() });

  function invalidate(removed: readonly number[]): void {
    rows.invalidate(removed);
    fullText.invalidate();
    replica.invalidate(removed);
  }
  feed.subscribe((change: ChunkChange) => {
    if (change.kind === 'external') {
      // Another connection's commit: the replica cannot know what changed, so it is rebuilt.
      rows.clear();
      fullText.invalidate();
      replica.reset();
    } else if (change.kind === 'local') {
      invalidate(change.removedChunkIds);
    } else if (replica.noteRemoteCommit(change.addedChunkIds, change.removedChunkIds)) {
      invalidate(change.removedChunkIds);
    }
  });

  async function retrieveFromMemory(
    index: MemoryIndex,
    query: string,
    kbs: readonly KnowledgeSelection[],
    limit: number,
  ): Promise<{ chunks: RetrievedChunk[]; terms: WeightedTerm[] }> {
    const terms = searchTermsFor(query, index.languagesOf(kbs.map((k) => k.id)));
    const searchTerms = selectTerms(terms, (t) => index.documentFrequency(t), index.size);
    const weighted = searchTerms.map((t) => ({ stem: t, idf: positiveIdf(index.size, index.documentFrequency(t)) }));
    if (!searchTerms.length) return { chunks: [], terms: weighted };
    const hits = index.search(searchTerms, new Map(kbs.map((k) => [k.id, priorityWeight(k.priority)])), limit);
    if (!hits.length) return { chunks: [], terms: weighted };
    const found = rows.get(hits.map((h) => h.chunkId));
    const byId = found instanceof Promise ? await found : found;
    const chunks: RetrievedChunk[] = [];
    for (const h of hits) {
      const r = byId.get(h.chunkId);
      if (r) chunks.push(toRetrieved(r, h.score));
    }
    return { chunks, terms: weighted };
  }

  return {
    async retrieve(query, kbs, limit) {
      if (!kbs.length || limit <= 0) return [];
      const depth = rerankWeights ? Math.max(limit, rerankWeights.depth ?? RERANK_DEPTH) : limit;
      const current = replica.current();
      const index = current instanceof Promise ? await current : current;
      const { chunks, terms } = index ? await retrieveFromMemory(index, query, kbs, depth) : await fullText.search(query, kbs, depth);
      if (!rerankWeights || chunks.length < 2) return chunks.slice(0, limit);
      const pairs = new Map<string, readonly string[]>();
      const pairsIn = (lang: string): readonly string[] => {
        let p = pairs.get(lang);
        if (!p) pairs.set(lang, (p = questionBigrams(lang === 'en' ? stripQuestionFrame(query) : query, lang)));
        return p;
      };
      return rerank(terms, pairsIn, chunks, rerankWeights).slice(0, limit);
    },
    warmUp: () => replica.warmUp(),
    ready: () => replica.ready(),
    engine: () => replica.engine(),
    async settledEngine() {
      return (await replica.current()) ? 'memory' : 'fts';
    },
  };
}
