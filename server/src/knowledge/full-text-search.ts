import { searchTermsFor } from '../text/text.js';
import type { Storage } from '../storage/port.js';
import type { FullTextIndex } from './full-text.js';
import { positiveIdf, priorityWeight, selectTerms, toRetrieved, type KnowledgeSelection, type RetrievedChunk } from './retrieved-chunk.js';
import type { WeightedTerm } from './rerank.js';

/** Questions through the durable full-text index (knowledge bases above the memory cap). */
export interface FullTextSearch {
  /** The best `limit` chunks, priority-weighted, with the question's weighted terms. */
  search(query: string, kbs: readonly KnowledgeSelection[], limit: number): Promise<{ chunks: RetrievedChunk[]; terms: WeightedTerm[] }>;
  /** All chunks, cached until the next change (the memory replica sizes itself by it too). */
  countChunks(): Promise<number>;
  /** The chunks changed: frequencies, counts and languages are read again. */
  invalidate(): void;
}

const DF_CACHE_MAX = 50_000;

export function createFullTextSearch(storage: Storage, fullText: FullTextIndex): FullTextSearch {
  // Document frequencies come from the full-text engine (its own analysis), cached until the index changes.
  let dfCache = new Map<string, number>();
  let totalChunks: number | null = null;
  const df = async (term: string): Promise<number> => {
    let n = dfCache.get(term);
    if (n === undefined) {
      const cache = dfCache;
      n = await fullText.documentFrequency(term);
      if (cache === dfCache) {
        // not invalidated meanwhile
        if (dfCache.size >= DF_CACHE_MAX) dfCache = new Map();
        dfCache.set(term, n);
      }
    }
    return n;
  };
  const countChunks = async (): Promise<number> =>
    totalChunks ?? (totalChunks = (await storage.get<{ n: number }>('SELECT count(*) AS n FROM chunks'))?.n ?? 0);

  /**
   * The languages of the knowledge in these bases (the memory index keeps its own count),
   * cached until the knowledge changes.
   */
  let languageCache = new Map<string, string[]>();
  const languagesOf = async (kbIds: readonly string[]): Promise<string[]> => {
    const key = kbIds.join(',');
    let langs = languageCache.get(key);
    if (!langs) {
      const cache = languageCache;
      const rows = await storage.all<{ language: string }>(
        `SELECT DISTINCT language FROM documents WHERE knowledge_base_id IN (${kbIds.map(() => '?').join(', ')}) AND language IS NOT NULL`,
        [...kbIds],
      );
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
    const total = await countChunks();
    for (const t of terms) frequencies.set(t, await df(t));
    return { terms: selectTerms(terms, (t) => frequencies.get(t) ?? 0, total), total, df: frequencies };
  }

  return {
    async search(query, kbs, limit) {
      const useful = await usefulTerms(
        query,
        kbs.map((k) => k.id),
      );
      if (!useful.terms.length) return { chunks: [], terms: [] };
      const terms = useful.terms.map((t) => ({ stem: t, idf: positiveIdf(useful.total, useful.df.get(t) ?? 0) }));
      const weights = new Map(kbs.map((k) => [k.id, priorityWeight(k.priority)]));
      // With mixed priorities a lower-ranked chunk of a favoured base can overtake: fetch more.
      const want = new Set(weights.values()).size > 1 ? limit * 4 : limit;
      const hits = await fullText.search(
        useful.terms,
        kbs.map((k) => k.id),
        want,
      );
      const chunks = hits
        .map((r) => toRetrieved(r, r.score * (weights.get(r.knowledge_base_id) ?? 1)))
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
      return { chunks, terms };
    },
    countChunks,
    invalidate() {
      languageCache = new Map();
      dfCache = new Map();
      totalChunks = null;
    },
  };
}
