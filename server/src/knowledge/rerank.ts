/**
 * A second look at BM25's best candidates: a passage that answers a question usually holds the
 * question's rarer words together, in one sentence, often in the same order ("Rhine delta",
 * "first album"), while BM25 counts the words wherever they are. Each candidate's score becomes
 *
 *   bm25 / best bm25 + SENTENCE × (IDF mass of the question's terms in its best sentence)
 *                    + BIGRAM × (share of the question's adjacent term pairs found adjacent)
 *
 * over the top RERANK_DEPTH candidates (weights chosen on the tuning articles of the public
 * SQuAD sample: `npm run bench:quality -- --tuning-only`). Sentence analysis is memoised by
 * chunk text, so popular chunks cost a map lookup.
 */
import { memoByText } from '../lib/memo.js';
import { analyzerFor, isEnglish } from '../text/text.js';
import { STOPWORDS } from '../text/english.js';
import { stem, tokenize } from '../text/tokens.js';
import { familyStem } from '../text/word-forms.js';

/**
 * Candidates BM25 hands over for reranking (the answer path reads the first six). On the tuning
 * articles 8, 10, 15, 20 and 30 give the same recall (0.787-0.788 @1, 0.934-0.937 @5); 10 costs
 * half of 20 (row hydration and sentence analysis per candidate).
 */
export const RERANK_DEPTH = 10;

export interface RerankWeights {
  sentence: number;
  bigram: number;
  depth?: number;
}
export const RERANK_WEIGHTS: RerankWeights = { sentence: 1.5, bigram: 0.4 };

/** One question term: its stem and its inverse document frequency in the index. */
export interface WeightedTerm {
  stem: string;
  idf: number;
}

interface Analysed {
  /** Stems of each sentence (body), with title and headings as one more "sentence". */
  sentences: ReadonlySet<string>[];
  /**
   * For each stem, the sentences holding it (indexes into `sentences`, ascending): a question's
   * few terms find their sentences by lookup instead of testing every sentence.
   */
  sentencesOf: ReadonlyMap<string, readonly number[]>;
  /** Adjacent content-stem pairs of the whole chunk, "a b". */
  bigrams: ReadonlySet<string>;
}

/** Sentence ends: Latin and CJK marks, the danda, the Arabic question mark; Thai ends with a space. */
const SENTENCE_SPLIT_RE = /(?<=[.!?\u0964\u0965\u061f])\s+|(?<=[\u3002\uff01\uff1f])|(?<=[\u0e01-\u0e5b])\s+(?=[\u0e01-\u0e5b])|\n+/;

/** Content-word stems in order, in the text's language (English: word families joined). */
function contentStems(text: string, lang?: string): string[] {
  const out: string[] = [];
  if (lang && !isEnglish(lang)) {
    const a = analyzerFor(lang);
    for (const w of a.words(text)) if (!a.isStopword(w)) out.push(a.stem(w));
    return out;
  }
  for (const t of tokenize(text)) if (!STOPWORDS.has(t)) out.push(familyStem(stem(t)));
  return out;
}

/** Chunk analyses, one memo per language (a chunk's text is in its document's language). */
const analysers = new Map<string, (text: string) => Analysed>();
function analyserFor(lang: string | null | undefined): (text: string) => Analysed {
  const key = lang && !isEnglish(lang) ? lang : 'en';
  let a = analysers.get(key);
  if (!a) analysers.set(key, (a = analyseIn(key)));
  return a;
}

// 10,000 per generation (memo.ts): at most the 20,000 analyses its LRU list held before.
const analyseIn = (lang: string) =>
  memoByText((text: string): Analysed => {
    const sentences: ReadonlySet<string>[] = [];
    const sentencesOf = new Map<string, number[]>();
    const bigrams = new Set<string>();
    for (const sentence of text.split(SENTENCE_SPLIT_RE)) {
      const stems = contentStems(sentence, lang);
      if (!stems.length) continue;
      const set = new Set(stems);
      for (const s of set) {
        const list = sentencesOf.get(s);
        if (list) list.push(sentences.length);
        else sentencesOf.set(s, [sentences.length]);
      }
      sentences.push(set);
      for (let i = 1; i < stems.length; i++) bigrams.add(`${stems[i - 1]} ${stems[i]}`);
    }
    return { sentences, sentencesOf, bigrams };
  }, 10_000);

/** Every content stem of a chunk's title and headings (they count for each of its sentences). */
const contextStemsOf = memoByText((context: string): ReadonlySet<string> => new Set(contentStems(context)), 10_000);
const contextStemsIn = (context: string, lang: string): ReadonlySet<string> =>
  lang === 'en' ? contextStemsOf(context) : new Set(contentStems(context, lang));

/**
 * The IDF mass of `terms` in the chunk's best sentence, a term of the title or headings counting
 * for every sentence. Only sentences holding a term outside the context can beat the others, so
 * only those are summed.
 *
 * One pass over the terms, in order, with a running sum per touched sentence: a sentence first
 * met at term k starts from the context's running mass (the same additions, in the same order,
 * that summing its terms from zero would make), then gains every later term it holds or the
 * context holds. So each sum is bit for bit the in-order sum of testing every sentence
 * (rerank.test.ts compares with that definition), without re-summing every term per touched
 * sentence or a linear "touched already?" search (both grew with the square of a long chunk's
 * sentences).
 */
function bestSentenceMass(a: Analysed, contextStems: ReadonlySet<string>, terms: readonly WeightedTerm[]): number {
  const n = a.sentences.length;
  if (!n) return 0;
  const scratch = scratchFor(n);
  const stamp = scratch.nextStamp();
  const { mass, seen, touched } = scratch;
  let touchedCount = 0;
  let contextMass = 0;
  for (const t of terms) {
    if (contextStems.has(t.stem)) {
      contextMass += t.idf;
      for (let j = 0; j < touchedCount; j++) {
        const i = touched[j] as number;
        mass[i] = (mass[i] as number) + t.idf;
      }
      continue;
    }
    const holding = a.sentencesOf.get(t.stem);
    if (!holding) continue;
    for (const i of holding) {
      if (seen[i] !== stamp) {
        seen[i] = stamp;
        mass[i] = contextMass;
        touched[touchedCount++] = i;
      }
      mass[i] = (mass[i] as number) + t.idf;
    }
  }
  // A sentence holding no term beyond the context scores the context's mass alone.
  let best = touchedCount < n ? contextMass : 0;
  for (let j = 0; j < touchedCount; j++) best = Math.max(best, mass[touched[j] as number] as number);
  return best;
}

/** Per-sentence working arrays, reused across calls (grown to the longest chunk seen). */
interface Scratch {
  mass: Float64Array;
  seen: Uint32Array;
  touched: Uint32Array;
  nextStamp(): number;
}
let scratch: Scratch | null = null;
function scratchFor(sentences: number): Scratch {
  if (!scratch || scratch.mass.length < sentences) {
    const size = Math.max(sentences, 2 * (scratch?.mass.length ?? 32));
    let stamp = 0;
    const s: Scratch = {
      mass: new Float64Array(size),
      seen: new Uint32Array(size),
      touched: new Uint32Array(size),
      // A stamp per call marks the sentences touched by that call (no clearing between calls).
      nextStamp: () => {
        if (++stamp === 0xffffffff) {
          s.seen.fill(0);
          stamp = 1;
        }
        return stamp;
      },
    };
    scratch = s;
  }
  return scratch;
}

/** Adjacent pairs of the question's content stems, in question order. */
export function questionBigrams(question: string, lang?: string): string[] {
  const stems = contentStems(question, lang);
  const pairs: string[] = [];
  for (let i = 1; i < stems.length; i++) pairs.push(`${stems[i - 1]} ${stems[i]}`);
  return pairs;
}

/**
 * The search terms on the sentences' terms (word families joined, word-forms.ts): one term per
 * family, at the highest IDF of its searched forms (a question names the thing once).
 */
function joinFamilies(terms: readonly WeightedTerm[]): WeightedTerm[] {
  const byStem = new Map<string, WeightedTerm>();
  for (const t of terms) {
    const s = familyStem(t.stem);
    const had = byStem.get(s);
    if (!had || had.idf < t.idf) byStem.set(s, { stem: s, idf: t.idf });
  }
  return [...byStem.values()];
}

export interface Rerankable {
  text: string;
  title: string;
  headingPath: readonly string[];
  score: number;
  language?: string | null | undefined;
}

/**
 * The candidates reordered by the combined score (stable on ties), each with its new score on
 * the BM25 scale (so callers keep comparing scores as before).
 */
export function rerank<T extends Rerankable>(
  searchTerms: readonly WeightedTerm[],
  questionPairs: readonly string[] | ((lang: string) => readonly string[]),
  candidates: readonly T[],
  weights: RerankWeights = RERANK_WEIGHTS,
): T[] {
  if (candidates.length < 2 || !searchTerms.length) return [...candidates];
  const terms = joinFamilies(searchTerms);
  const best = Math.max(...candidates.map((c) => c.score));
  if (!(best > 0)) return [...candidates];
  const totalIdf = terms.reduce((s, t) => s + t.idf, 0) || 1;
  const scored = candidates.map((c, order) => {
    const lang = c.language && !isEnglish(c.language) ? c.language : 'en';
    const a = analyserFor(lang)(c.text);
    const bigrams = typeof questionPairs === 'function' ? questionPairs(lang) : questionPairs;
    const bestSentence = bestSentenceMass(a, contextStemsIn(`${c.title}\n${c.headingPath.join('\n')}`, lang), terms);
    let shared = 0;
    for (const b of bigrams) if (a.bigrams.has(b)) shared++;
    const pairs = bigrams.length ? shared / bigrams.length : 0;
    const combined = c.score / best + weights.sentence * (bestSentence / totalIdf) + weights.bigram * pairs;
    return { c, order, combined };
  });
  scored.sort((x, y) => y.combined - x.combined || x.order - y.order);
  const top = scored[0]?.combined ?? 1;
  return scored.map(({ c, combined }) => ({ ...c, score: (best * combined) / top }));
}
