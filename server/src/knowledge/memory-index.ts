/**
 * An in-memory BM25 index over the chunks: a read-optimised replica of the FTS5 index for
 * the question path. FTS5 stays the durable store (and the engine for bases too big for
 * memory); this index answers a 10k-chunk query in tens of microseconds instead of ~0.5 ms,
 * because it keeps decoded postings and document lengths in arrays instead of re-reading and
 * re-scoring the FTS segments on every question.
 *
 * Scoring is FTS5's bm25() exactly (same IDF, k1 = 1.2, b = 0.75, column weights summed into
 * one term frequency, document length over all columns), so rankings match the FTS path up to
 * tokenizer details (both lowercase and Porter-stem; this one keeps inner apostrophes).
 *
 * Deleted chunks become tombstones (skipped at query time, dropped when the owner rebuilds).
 */
import { stem, tokenize } from '../answer/text.js';

export interface IndexableChunk { id: number; knowledgeBaseId: string; title: string; headings: string; body: string }

/** Column weights, doubled so weighted frequencies stay integers (title 2, headings 1.5, body 1). */
const WEIGHT2 = { title: 4, headings: 3, body: 2 } as const;
const K1 = 1.2;
const B = 0.75;

/**
 * A term's postings: a frozen typed-array part (6 bytes per posting, after `compact()`) plus
 * a growable tail for chunks added since (8+8 bytes per posting in plain arrays).
 */
interface Postings { frozenDocs: Int32Array | null; frozenFreqs2: Uint16Array | null; docs: number[]; freqs2: number[]; lastDoc: number }

export interface MemoryHit { chunkId: number; knowledgeBaseId: string; score: number }

export class MemoryIndex {
  private readonly terms = new Map<string, Postings>();
  /** Per internal document number: chunk id, knowledge base number, token count, alive. */
  private readonly chunkIds: number[] = [];
  private readonly kbOfDoc: number[] = [];
  private readonly lengths: number[] = [];
  private readonly alive: boolean[] = [];
  private readonly docOfChunk = new Map<number, number>();
  private readonly kbNumbers = new Map<string, number>();
  private readonly kbIds: string[] = [];
  private readonly stems = new Map<string, string>();
  private totalLength = 0;
  private liveDocs = 0;
  private deadDocs = 0;
  /** Highest chunk id added: new chunks (ids only grow) are caught up from here. */
  lastChunkId = 0;
  private scores = new Float64Array(0);

  get size(): number { return this.liveDocs; }
  get tombstones(): number { return this.deadDocs; }
  get vocabularySize(): number { return this.terms.size; }

  /** Stemmed terms of a text, the same way for documents and questions. */
  termsOf(text: string): string[] {
    const out: string[] = [];
    for (const token of tokenize(text)) {
      let s = this.stems.get(token);
      if (s === undefined) {
        s = stem(token);
        if (this.stems.size < 500_000) this.stems.set(token, s);
      }
      out.push(s);
    }
    return out;
  }

  add(chunk: IndexableChunk): void {
    if (this.docOfChunk.has(chunk.id)) return;
    const doc = this.chunkIds.length;
    let kb = this.kbNumbers.get(chunk.knowledgeBaseId);
    if (kb === undefined) {
      kb = this.kbIds.length;
      this.kbIds.push(chunk.knowledgeBaseId);
      this.kbNumbers.set(chunk.knowledgeBaseId, kb);
    }
    // Postings are appended in document order, so a term seen again in this chunk is always
    // the last entry of its list: frequencies accumulate there, no per-chunk map needed.
    let length = 0;
    for (const [text, weight] of [[chunk.title, WEIGHT2.title], [chunk.headings, WEIGHT2.headings], [chunk.body, WEIGHT2.body]] as const) {
      if (!text) continue;
      for (const term of this.termsOf(text)) {
        length++;
        let p = this.terms.get(term);
        if (!p) {
          p = { frozenDocs: null, frozenFreqs2: null, docs: [], freqs2: [], lastDoc: -1 };
          this.terms.set(term, p);
        }
        if (p.lastDoc === doc) {
          const last = p.freqs2.length - 1;
          p.freqs2[last] = (p.freqs2[last] as number) + weight;
        } else {
          p.docs.push(doc);
          p.freqs2.push(weight);
          p.lastDoc = doc;
        }
      }
    }
    this.chunkIds.push(chunk.id);
    this.kbOfDoc.push(kb);
    this.lengths.push(length);
    this.alive.push(true);
    this.docOfChunk.set(chunk.id, doc);
    this.totalLength += length;
    this.liveDocs++;
    if (chunk.id > this.lastChunkId) this.lastChunkId = chunk.id;
  }

  remove(chunkId: number): void {
    const doc = this.docOfChunk.get(chunkId);
    if (doc === undefined || !this.alive[doc]) return;
    this.alive[doc] = false;
    this.docOfChunk.delete(chunkId);
    this.totalLength -= this.lengths[doc] as number;
    this.liveDocs--;
    this.deadDocs++;
  }

  /** Live documents containing a stemmed term (tombstones included: an upper bound, like FTS5 before a merge). */
  documentFrequency(term: string): number {
    const p = this.terms.get(term);
    return p ? p.docs.length + (p.frozenDocs?.length ?? 0) : 0;
  }

  /** Moves postings into typed arrays: about a third of the memory of plain number arrays. */
  compact(): void {
    for (const p of this.terms.values()) {
      if (p.docs.length < 4) continue;
      const frozen = p.frozenDocs?.length ?? 0;
      const docs = new Int32Array(frozen + p.docs.length);
      const freqs = new Uint16Array(frozen + p.docs.length);
      if (p.frozenDocs && p.frozenFreqs2) {
        docs.set(p.frozenDocs);
        freqs.set(p.frozenFreqs2);
      }
      docs.set(p.docs, frozen);
      freqs.set(p.freqs2.map((f) => Math.min(f, 65_535)), frozen);
      p.frozenDocs = docs;
      p.frozenFreqs2 = freqs;
      p.docs = [];
      p.freqs2 = [];
    }
  }

  /**
   * The best `limit` chunks for stemmed query terms in the weighted knowledge bases (weight =
   * priority multiplier; bases not listed are skipped), score = bm25 × weight, best first.
   */
  search(terms: readonly string[], kbWeights: ReadonlyMap<string, number>, limit: number): MemoryHit[] {
    const n = this.liveDocs;
    if (!n || !terms.length || limit <= 0) return [];
    const weightOfKb = new Float64Array(this.kbIds.length);
    for (const [id, w] of kbWeights) {
      const kb = this.kbNumbers.get(id);
      if (kb !== undefined) weightOfKb[kb] = w;
    }
    if (this.scores.length < this.chunkIds.length) this.scores = new Float64Array(Math.max(this.chunkIds.length, this.scores.length * 2));
    const scores = this.scores;
    const touched: number[] = [];
    const avgdl = this.totalLength / n;
    const alive = this.alive;
    const kbOfDoc = this.kbOfDoc;
    const lengths = this.lengths;
    const accumulate = (docs: ArrayLike<number>, freqs2: ArrayLike<number>, idf: number): void => {
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i] as number;
        if (!alive[doc] || weightOfKb[kbOfDoc[doc] as number] === 0) continue;
        const f = (freqs2[i] as number) / 2;
        const s = idf * (f * (K1 + 1)) / (f + K1 * (1 - B + B * (lengths[doc] as number) / avgdl));
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] = (scores[doc] as number) + s;
      }
    };
    for (const term of new Set(terms)) {
      const p = this.terms.get(term);
      if (!p) continue;
      const df = this.documentFrequency(term);
      let idf = Math.log((n - df + 0.5) / (df + 0.5));
      if (idf <= 0) idf = 1e-6; // FTS5's clamp
      if (p.frozenDocs && p.frozenFreqs2) accumulate(p.frozenDocs, p.frozenFreqs2, idf);
      accumulate(p.docs, p.freqs2, idf);
    }
    const hits: MemoryHit[] = [];
    for (const doc of touched) {
      const kb = this.kbOfDoc[doc] as number;
      hits.push({ chunkId: this.chunkIds[doc] as number, knowledgeBaseId: this.kbIds[kb] as string, score: (scores[doc] as number) * (weightOfKb[kb] as number) });
      scores[doc] = 0;
    }
    return topK(hits, limit);
  }
}

/** The k best hits, best first; ties by lower chunk id (stable across runs). */
function topK(hits: MemoryHit[], k: number): MemoryHit[] {
  const better = (a: MemoryHit, b: MemoryHit): boolean => a.score > b.score || (a.score === b.score && a.chunkId < b.chunkId);
  if (hits.length <= k * 4) return hits.sort((a, b) => (better(a, b) ? -1 : 1)).slice(0, k);
  // Keep a sorted window of k: cheaper than sorting thousands of touched documents.
  const best: MemoryHit[] = [];
  for (const h of hits) {
    if (best.length === k && !better(h, best[k - 1] as MemoryHit)) continue;
    let i = best.length < k ? best.length : k - 1;
    if (best.length < k) best.push(h);
    while (i > 0 && better(h, best[i - 1] as MemoryHit)) {
      best[i] = best[i - 1] as MemoryHit;
      i--;
    }
    best[i] = h;
  }
  return best;
}
