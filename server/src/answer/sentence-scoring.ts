/**
 * The extractive answerer's first step: the best few passages read into sentences (split and
 * stemmed once per text, memoised) and every candidate sentence scored by how much of the
 * question it covers (stemmed terms weighted by rarity among the candidates), the passage's
 * retrieval score, whether the passage's headings match the question, how much of the question
 * its whole passage supports, and a little by position.
 */
import { memoByText } from '../lib/memo.js';
import { findTypedSpan, type AnswerType } from './answer-type.js';
import { contentTerms, memoByLanguage } from '../text/text.js';
import { sentenceUnits, type SentenceUnit } from '../text/sentences.js';

export interface Passage {
  id: string;
  title: string;
  url: string | null;
  text: string;
  headingPath: string[];
  /** Relevance normalised to 0..1, best first. */
  score: number;
  /** The document the passage comes from (its title and url stand in when absent). */
  documentId?: string | undefined;
  /** The language of the passage's document (BCP 47); absent = English. */
  language?: string | undefined;
}

/** Only the best few passages are read: lower ones are mostly noise for a short answer. */
const MAX_PASSAGES = 5;

/** `typed`: a sentence holding a span of the type the question asks for (a year for "When…"). */
export const WEIGHTS = { relevance: 1, passage: 0.3, heading: 0.2, support: 0.5, position: 0.05, typed: 0.3 };

export interface Sentence {
  rank: number; // the passage's rank among the passages read
  index: number; // position among the passage's sentence units
  unit: SentenceUnit;
  terms: ReadonlySet<string>;
  score: number;
  matched: number; // question terms the sentence itself contains
  relevance: number; // IDF-weighted share of the question the sentence itself covers
  support: number; // IDF-weighted share of the question its whole passage (title, headings, text) covers
  typed: boolean; // holds a span of the answer type the question asks for, not taken from the question
}

export interface ReadPassage {
  passage: Passage;
  sentences: Sentence[];
  headingTerms: ReadonlySet<string>;
}

/** The question's terms and their rarity among the candidate sentences (scoreSentences). */
export interface QuestionIdf {
  terms: readonly string[];
  idf: ReadonlyMap<string, number>;
}

/** Passages by score (stable: input order breaks ties), the top few with any text. */
export function rankPassages(passages: Passage[]): Passage[] {
  return passages
    .map((passage, order) => ({ passage, order }))
    .filter(({ passage }) => typeof passage.text === 'string' && passage.text.trim() !== '')
    .sort((a, b) => (b.passage.score || 0) - (a.passage.score || 0) || a.order - b.order)
    .slice(0, MAX_PASSAGES)
    .map(({ passage }) => passage);
}

/**
 * Sentence splitting and stemming of a passage, by its text. Popular passages come back for
 * question after question; their analysis is the same every time (read-only once built).
 */
const analyse = memoByLanguage((lang) =>
  memoByText(
    (text) => sentenceUnits(text).map((unit) => ({ unit, terms: new Set(contentTerms(unit.text, lang)) as ReadonlySet<string> })),
    2_000,
  ),
);
export const headingTermsOf = memoByLanguage((lang) => memoByText((text): ReadonlySet<string> => new Set(contentTerms(text, lang)), 2_000));

export function readPassage(passage: Passage, rank: number): ReadPassage {
  const sentences = analyse(passage.text, passage.language).map(({ unit, terms }, index): Sentence => ({
    rank,
    index,
    unit,
    terms,
    score: 0,
    matched: 0,
    relevance: 0,
    support: 0,
    typed: false,
  }));
  const headingTerms = headingTermsOf(`${passage.headingPath.join(' ')} ${passage.title}`, passage.language);
  return { passage, sentences, headingTerms };
}

function isCandidate(s: Sentence): boolean {
  return (s.unit.kind === 'prose' || s.unit.kind === 'list' || s.unit.kind === 'table') && s.terms.size > 0;
}

/** Rarity weight of each question term among the candidate sentences (BM25-style IDF). */
export function idfWeights(question: string[], candidates: Sentence[]): Map<string, number> {
  const n = candidates.length;
  const weights = new Map<string, number>();
  for (const term of question) {
    const df = candidates.filter((s) => s.terms.has(term)).length;
    weights.set(term, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return weights;
}

export function scoreSentences(question: string[], read: ReadPassage[], type: AnswerType | null = null, questionText = ''): Sentence[] {
  const candidates = read.flatMap((r) => r.sentences.filter(isCandidate));
  const idf = idfWeights(question, candidates);
  const totalIdf = question.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0) || 1;
  const support = read.map((r) => {
    // A term counts once if the headings or any sentence of the passage hold it.
    const inPassage = (t: string): boolean => r.headingTerms.has(t) || r.sentences.some((x) => x.terms.has(t));
    return question.reduce((sum, t) => sum + (inPassage(t) ? (idf.get(t) ?? 0) : 0), 0) / totalIdf;
  });
  for (const s of candidates) {
    const r = read[s.rank] as ReadPassage;
    s.support = support[s.rank] ?? 0;
    const hits = question.filter((t) => s.terms.has(t));
    const headingHits = question.filter((t) => r.headingTerms.has(t)).length;
    s.matched = hits.length;
    s.relevance = hits.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0) / totalIdf;
    s.typed = type !== null && hits.length > 0 && findTypedSpan(s.unit.text, type, questionText, r.passage.language) !== null;
    s.score =
      WEIGHTS.relevance * s.relevance +
      WEIGHTS.passage * clamp01(r.passage.score) +
      WEIGHTS.heading * (headingHits / question.length) +
      WEIGHTS.support * s.support +
      WEIGHTS.position / (1 + s.index) +
      (s.typed ? WEIGHTS.typed : 0);
  }
  return candidates;
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
