/**
 * An in-memory BM25 index over the chunks: a read-optimised replica of the FTS5 index for
 * the question path. FTS5 stays the durable store (and the engine for bases too big for
 * memory); this index answers a 10k-chunk query in tens of microseconds instead of ~0.5 ms,
 * because it keeps decoded postings and document lengths in arrays instead of re-reading and
 * re-scoring the FTS segments on every question.
 *
 * Scoring is FTS5's bm25() exactly (same IDF, k1 = 1.2, b = 0.75, column weights summed into
 * one term frequency, document length over all columns), and terms are FTS5's exactly: both index
 * the terms of the chunk's language analyzer (text/, `analyzerFor(language).indexTerms`), so
 * memory-index.test.ts checks every token of a real corpus against the FTS5 index through an
 * `fts5vocab` table, in every language.
 *
 * Deleted chunks become tombstones (skipped at query time, dropped when the owner rebuilds).
 */
import { analyzerFor } from '../text/text.js';

export interface IndexableChunk {
  id: number;
  knowledgeBaseId: string;
  title: string;
  headings: string;
  body: string;
  /** The chunk's document language (BCP 47); its analyzer makes the terms. Default English. */
  language?: string | null | undefined;
}

/** Column weights, doubled so weighted frequencies stay integers (title 2, headings 1.5, body 1). */
const WEIGHT2 = { title: 4, headings: 3, body: 2 } as const;
const K1 = 1.2;
const B = 0.75;

/**
 * A term's postings: a frozen typed-array part (6 bytes per posting, after `compact()`) plus
 * a growable tail for chunks added since (8+8 bytes per posting in plain arrays).
 */
interface Postings {
  frozenDocs: Int32Array | null;
  frozenFreqs2: Uint16Array | null;
  docs: number[];
  freqs2: number[];
  lastDoc: number;
  /** For the MaxScore upper bound: the largest weighted frequency and shortest chunk in the list. */
  maxFreq2: number;
  minLength: number;
}

export interface MemoryHit {
  chunkId: number;
  knowledgeBaseId: string;
  score: number;
}

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
  /** Live chunks per language, per knowledge base number: the languages a question is analysed in. */
  private readonly languagesOfKb: Map<string, number>[] = [];
  private readonly languageOfDoc: string[] = [];
  private totalLength = 0;
  private liveDocs = 0;
  private deadDocs = 0;
  /**
   * Highest live chunk id: new chunks are caught up from here (SQLite gives a new row an id
   * above every existing one, though it may reuse the id of a deleted highest row).
   */
  lastChunkId = 0;

  get size(): number {
    return this.liveDocs;
  }
  get tombstones(): number {
    return this.deadDocs;
  }
  get vocabularySize(): number {
    return this.terms.size;
  }

  /** Terms of a text as the full-text engines index it in `language` (the same for documents and questions). */
  termsOf(text: string, language?: string | null): string[] {
    return analyzerFor(language).indexTerms(text);
  }

  /** The languages of the live chunks of these knowledge bases. */
  languagesOf(knowledgeBaseIds: Iterable<string>): Set<string> {
    const out = new Set<string>();
    for (const id of knowledgeBaseIds) {
      const kb = this.kbNumbers.get(id);
      const langs = kb === undefined ? undefined : this.languagesOfKb[kb];
      if (langs) for (const [lang, n] of langs) if (n > 0) out.add(lang);
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
      this.languagesOfKb.push(new Map());
    }
    const language = chunk.language || 'en';
    const langs = this.languagesOfKb[kb] as Map<string, number>;
    langs.set(language, (langs.get(language) ?? 0) + 1);
    this.languageOfDoc.push(language);
    const analyzer = analyzerFor(language);
    const columns = [
      [analyzer.indexTerms(chunk.title), WEIGHT2.title],
      [analyzer.indexTerms(chunk.headings), WEIGHT2.headings],
      [analyzer.indexTerms(chunk.body), WEIGHT2.body],
    ] as const;
    const length = columns[0][0].length + columns[1][0].length + columns[2][0].length;
    // Postings are appended in document order, so a term seen again in this chunk is always
    // the last entry of its list: frequencies accumulate there, no per-chunk map needed.
    for (const [terms, weight] of columns) {
      for (const term of terms) {
        let p = this.terms.get(term);
        if (!p) {
          p = { frozenDocs: null, frozenFreqs2: null, docs: [], freqs2: [], lastDoc: -1, maxFreq2: 0, minLength: Infinity };
          this.terms.set(term, p);
        }
        let f2: number;
        if (p.lastDoc === doc) {
          const last = p.freqs2.length - 1;
          f2 = (p.freqs2[last] as number) + weight;
          p.freqs2[last] = f2;
        } else {
          p.docs.push(doc);
          p.freqs2.push(weight);
          p.lastDoc = doc;
          f2 = weight;
          if (length < p.minLength) p.minLength = length;
        }
        if (f2 > p.maxFreq2) p.maxFreq2 = f2;
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

  /** Whether a chunk is indexed (and not deleted). */
  has(chunkId: number): boolean {
    return this.docOfChunk.has(chunkId);
  }

  remove(chunkId: number): void {
    const doc = this.docOfChunk.get(chunkId);
    if (doc === undefined || !this.alive[doc]) return;
    this.alive[doc] = false;
    this.docOfChunk.delete(chunkId);
    const langs = this.languagesOfKb[this.kbOfDoc[doc] as number];
    const language = this.languageOfDoc[doc] as string;
    langs?.set(language, (langs.get(language) ?? 1) - 1);
    if (chunkId === this.lastChunkId) {
      // SQLite hands the highest deleted rowid out again: catch-up must start below it.
      let last = doc;
      while (last >= 0 && !this.alive[last]) last--;
      this.lastChunkId = last >= 0 ? (this.chunkIds[last] as number) : 0;
    }
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
      freqs.set(
        p.freqs2.map((f) => Math.min(f, 65_535)),
        frozen,
      );
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
    let maxWeight = 0;
    for (const [id, w] of kbWeights) {
      const kb = this.kbNumbers.get(id);
      if (kb !== undefined) weightOfKb[kb] = w;
      if (w > maxWeight) maxWeight = w;
    }
    const avgdl = this.totalLength / n;
    const cursors: Cursor[] = [];
    for (const term of new Set(terms)) {
      const p = this.terms.get(term);
      if (!p) continue;
      const df = this.documentFrequency(term);
      if (!df) continue;
      let idf = Math.log((n - df + 0.5) / (df + 0.5));
      if (idf <= 0) idf = 1e-6; // FTS5's clamp
      // bm25 grows with frequency and shrinks with length: the best frequency in the shortest
      // chunk bounds every posting of the list (MaxScore needs only a bound, not the max).
      const fMax = p.maxFreq2 / 2;
      const upperBound = (maxWeight * idf * (fMax * (K1 + 1))) / (fMax + K1 * (1 - B + (B * p.minLength) / avgdl));
      cursors.push(new Cursor(p, idf, upperBound));
    }
    if (!cursors.length) return [];
    // MaxScore (Turtle & Flood 1995): lists in ascending bound order; once the k-th best score
    // beats the summed bounds of the cheapest lists, documents found only in those cannot
    // enter the top k, so those lists are only probed (skipping), never walked.
    cursors.sort((a, b) => a.upperBound - b.upperBound);
    const prefixBound: number[] = [];
    cursors.reduce((acc, c, i) => (prefixBound[i] = acc + c.upperBound), 0);
    const heap = new TopHeap(limit);
    let firstEssential = 0;
    const alive = this.alive;
    const kbOfDoc = this.kbOfDoc;
    const lengths = this.lengths;
    const tfPart = (f2: number, doc: number): number => {
      const f = f2 / 2;
      return (f * (K1 + 1)) / (f + K1 * (1 - B + (B * (lengths[doc] as number)) / avgdl));
    };
    for (;;) {
      let doc = Infinity;
      for (let i = firstEssential; i < cursors.length; i++) {
        const d = (cursors[i] as Cursor).doc();
        if (d < doc) doc = d;
      }
      if (doc === Infinity) break;
      const weight = alive[doc] ? (weightOfKb[kbOfDoc[doc] as number] as number) : 0;
      let score = 0;
      for (let i = firstEssential; i < cursors.length; i++) {
        const c = cursors[i] as Cursor;
        if (c.doc() === doc) {
          if (weight) score += c.idf * tfPart(c.freq2(), doc);
          c.next();
        }
      }
      if (!weight) continue;
      score *= weight;
      for (let i = firstEssential - 1; i >= 0; i--) {
        if (heap.full && score + (prefixBound[i] as number) <= heap.threshold) break;
        const c = cursors[i] as Cursor;
        if (c.seek(doc) === doc) score += weight * c.idf * tfPart(c.freq2(), doc);
      }
      if (heap.offer(this.chunkIds[doc] as number, kbOfDoc[doc] as number, score) && heap.full) {
        while (firstEssential < cursors.length && (prefixBound[firstEssential] as number) <= heap.threshold) firstEssential++;
      }
    }
    return heap.sorted().map((h) => ({ chunkId: h.chunkId, knowledgeBaseId: this.kbIds[h.kb] as string, score: h.score }));
  }
}

/** A position in one term's postings (frozen typed part, then the plain tail), in document order. */
class Cursor {
  private pos = 0;
  private readonly frozen: number;
  private readonly total: number;
  private readonly fd: Int32Array | null;
  private readonly ff: Uint16Array | null;
  private readonly td: number[];
  private readonly tf: number[];
  constructor(
    p: Postings,
    readonly idf: number,
    readonly upperBound: number,
  ) {
    this.fd = p.frozenDocs;
    this.ff = p.frozenFreqs2;
    this.td = p.docs;
    this.tf = p.freqs2;
    this.frozen = p.frozenDocs?.length ?? 0;
    this.total = this.frozen + p.docs.length;
  }
  private docAt(i: number): number {
    return i < this.frozen ? ((this.fd as Int32Array)[i] as number) : (this.td[i - this.frozen] as number);
  }
  doc(): number {
    return this.pos < this.total ? this.docAt(this.pos) : Infinity;
  }
  freq2(): number {
    return this.pos < this.frozen ? ((this.ff as Uint16Array)[this.pos] as number) : (this.tf[this.pos - this.frozen] as number);
  }
  next(): void {
    this.pos++;
  }
  /** Moves to the first posting at or after `target` (galloping, then binary search). */
  seek(target: number): number {
    if (this.pos >= this.total || this.docAt(this.pos) >= target) return this.doc();
    let step = 1;
    let lo = this.pos;
    let hi = this.pos + 1;
    while (hi < this.total && this.docAt(hi) < target) {
      lo = hi;
      step *= 2;
      hi = lo + step;
    }
    if (hi > this.total) hi = this.total;
    while (lo + 1 < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.docAt(mid) < target) lo = mid;
      else hi = mid;
    }
    this.pos = hi;
    return this.doc();
  }
}

interface HeapEntry {
  chunkId: number;
  kb: number;
  score: number;
}

/**
 * The k best scores seen so far (a min-heap on score). Documents arrive in ascending chunk
 * order, so on equal scores the one already kept (the lower chunk id) stays.
 */
class TopHeap {
  private readonly items: HeapEntry[] = [];
  constructor(private readonly k: number) {}
  get full(): boolean {
    return this.items.length >= this.k;
  }
  get threshold(): number {
    return this.full ? (this.items[0] as HeapEntry).score : 0;
  }
  offer(chunkId: number, kb: number, score: number): boolean {
    const items = this.items;
    if (this.full) {
      if (score <= (items[0] as HeapEntry).score) return false;
      items[0] = { chunkId, kb, score };
      this.siftDown(0);
    } else {
      items.push({ chunkId, kb, score });
      let i = items.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(items[i] as HeapEntry, items[parent] as HeapEntry)) break;
        [items[i], items[parent]] = [items[parent] as HeapEntry, items[i] as HeapEntry];
        i = parent;
      }
    }
    return true;
  }
  /** a ranks below b: lower score, or equal score and a later chunk. */
  private worse(a: HeapEntry, b: HeapEntry): boolean {
    return a.score < b.score || (a.score === b.score && a.chunkId > b.chunkId);
  }
  private siftDown(start: number): void {
    const items = this.items;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < items.length && this.worse(items[l] as HeapEntry, items[m] as HeapEntry)) m = l;
      if (r < items.length && this.worse(items[r] as HeapEntry, items[m] as HeapEntry)) m = r;
      if (m === i) return;
      [items[i], items[m]] = [items[m] as HeapEntry, items[i] as HeapEntry];
      i = m;
    }
  }
  sorted(): HeapEntry[] {
    return [...this.items].sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
  }
}
