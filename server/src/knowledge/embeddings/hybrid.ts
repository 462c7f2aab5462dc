import { priorityWeight, type KnowledgeSelection, type RetrievedChunk, type Retriever } from '../retrieval.js';
import type { VectorHit } from './vector-index.js';

/** What the chat service and the search route need: BM25 alone, or BM25 fused with vectors. */
export interface ChunkSearch {
  retrieve(query: string, kbs: readonly KnowledgeSelection[], limit: number): RetrievedChunk[] | Promise<RetrievedChunk[]>;
}

/** The dense side, when embeddings are configured (see index.ts). */
export interface DenseSide {
  /** False until the index has vectors for the configured model. */
  readonly ready: boolean;
  /** The question's vector, or null (endpoint failing): BM25 alone then. Never rejects. */
  embedQuery(query: string): Promise<Float32Array | null>;
  search(query: Float32Array, knowledgeBaseIds: readonly string[], k: number): Promise<VectorHit[]>;
  hydrate(ids: readonly number[], knowledgeBaseIds: readonly string[]): Promise<Map<number, RetrievedChunk>>;
}

/** Reciprocal rank fusion constant (Cormack et al. 2009): damps the head of each list. */
export const RRF_K = 60;

/** How deep each list is read before fusing: a chunk ranked low by one side can still rise. */
export function fusionDepth(limit: number): number {
  return Math.min(100, Math.max(20, limit * 3));
}

interface Candidate {
  chunkId: number;
  knowledgeBaseId: string;
  lexical: RetrievedChunk | null;
  lexRank: number | null;
  denseRank: number | null;
  similarity: number;
  fused: number;
}

/**
 * Reciprocal rank fusion of BM25 and vector hits, then the knowledge bases' priority weights
 * (as BM25 applies them). Ranks come from each side's own unweighted order, so a priority
 * counts once. Ties go to chunks both sides found, then to BM25's.
 */
export function fuse(
  lexical: readonly RetrievedChunk[],
  dense: readonly VectorHit[],
  weights: ReadonlyMap<string, number>,
  k = RRF_K,
): Candidate[] {
  const byId = new Map<number, Candidate>();
  const weightOf = (kb: string): number => weights.get(kb) ?? 1;
  const lexOrder = [...lexical].sort((a, b) => b.score / weightOf(b.knowledgeBaseId) - a.score / weightOf(a.knowledgeBaseId));
  lexOrder.forEach((c, i) => {
    byId.set(c.chunkId, {
      chunkId: c.chunkId,
      knowledgeBaseId: c.knowledgeBaseId,
      lexical: c,
      lexRank: i + 1,
      denseRank: null,
      similarity: 0,
      fused: 0,
    });
  });
  [...dense]
    .sort((a, b) => a.distance - b.distance)
    .forEach((h, i) => {
      const similarity = Math.max(0, 1 - h.distance);
      const c = byId.get(h.chunkId);
      if (c) {
        c.denseRank = i + 1;
        c.similarity = similarity;
      } else {
        byId.set(h.chunkId, {
          chunkId: h.chunkId,
          knowledgeBaseId: h.knowledgeBaseId,
          lexical: null,
          lexRank: null,
          denseRank: i + 1,
          similarity,
          fused: 0,
        });
      }
    });
  const both = (c: Candidate): number => (c.lexRank !== null && c.denseRank !== null ? 1 : 0);
  for (const c of byId.values()) {
    c.fused = ((c.lexRank ? 1 / (k + c.lexRank) : 0) + (c.denseRank ? 1 / (k + c.denseRank) : 0)) * weightOf(c.knowledgeBaseId);
  }
  return [...byId.values()].sort(
    (a, b) =>
      b.fused - a.fused ||
      both(b) - both(a) ||
      (b.lexical?.score ?? -1) - (a.lexical?.score ?? -1) ||
      b.similarity - a.similarity ||
      a.chunkId - b.chunkId,
  );
}

/**
 * Retrieval over BM25 and, when embeddings are on and indexed, vectors.
 *
 * Off (no dense side, or its index not built yet): BM25's own result, nothing else done.
 * On: the question's embedding request goes out first, BM25 runs while it is in flight, then a
 * KNN per selected base; both lists (`fusionDepth` deep) are fused by RRF. When the embedding
 * fails, BM25's result stands.
 *
 * Scores stay on BM25's scale, which the chat service and the extractive answerer read
 * relative to the best (`score / top`): a chunk BM25 found keeps its BM25 score (times the
 * priority weight); a chunk only the vectors found gets the best BM25 score times its fused
 * score relative to the fused best, i.e. it stands to the best lexical match as it stands in
 * the fused ranking to the best hit. With no lexical match at all the score is the cosine
 * similarity (times the weight). The list is in fused order, which is not always descending
 * score: fusion may put a chunk both sides found above a better BM25-only one.
 */
export function createHybridRetriever(opts: { bm25: Pick<Retriever, 'retrieve'>; dense?: DenseSide | null | undefined }): ChunkSearch {
  const { bm25, dense } = opts;

  async function hybrid(side: DenseSide, query: string, kbs: readonly KnowledgeSelection[], limit: number): Promise<RetrievedChunk[]> {
    const depth = fusionDepth(limit);
    const vectorPromise = side.embedQuery(query);
    // Let the request reach the socket (http assigns it on the next tick) before BM25 holds the thread.
    await new Promise<void>((resolve) => process.nextTick(resolve));
    const lexical = await bm25.retrieve(query, kbs, depth);
    const vector = await vectorPromise;
    if (!vector || !side.ready) return lexical.slice(0, limit);
    const kbIds = kbs.map((k) => k.id);
    const weights = new Map(kbs.map((k) => [k.id, priorityWeight(k.priority)]));
    const hits = await side.search(vector, kbIds, depth);
    if (!hits.length) return lexical.slice(0, limit);

    const ranked = fuse(lexical, hits, weights);
    // Vector-only hits are read from the database (only those that could make the cut).
    const head = ranked.slice(0, limit * 2);
    const rows = await side.hydrate(
      head.filter((c) => !c.lexical).map((c) => c.chunkId),
      kbIds,
    );
    const kept = head.filter((c) => c.lexical || rows.has(c.chunkId)).slice(0, limit);
    const bestLexical = lexical.reduce((m, c) => Math.max(m, c.score), 0);
    const bestFused = kept[0]?.fused ?? 1;
    return kept.map((c) => {
      if (c.lexical) return c.lexical;
      const row = rows.get(c.chunkId) as RetrievedChunk;
      const score = bestLexical > 0 ? bestLexical * (c.fused / bestFused) : c.similarity * (weights.get(c.knowledgeBaseId) ?? 1);
      return { ...row, score };
    });
  }

  return {
    /** Best chunks across the selected knowledge bases, best first (see above for the order). */
    retrieve(query, kbs, limit) {
      if (!dense?.ready || !kbs.length) return bm25.retrieve(query, kbs, limit);
      return hybrid(dense, query, kbs, limit);
    },
  };
}
