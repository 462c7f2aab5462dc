/**
 * The offline ("extractive") answerer: builds a short answer out of the best sentences of
 * the retrieved passages, with no model call.
 *
 * Sentences are scored by how much of the question they cover (stemmed terms weighted by
 * rarity among the candidates), the passage's retrieval score, whether the passage's
 * headings match the question, and a little by position. The best few are chosen greedily
 * without near-duplicates, widened with the context they need (the sentence an "It ..."
 * refers to, the steps after a "To do X:"), put back in document order and rendered as
 * prose paragraphs, lists and code blocks.
 *
 * Modules: sentence-scoring.ts reads and scores, sentence-choice.ts picks and widens,
 * extractive-render.ts lays the answer out; this one decides between a factoid answer and the
 * full composition.
 */
import { answerTypeOf, findTypedSpan, type AnswerType } from './answer-type.js';
import { languageOfPassages, questionTerms, termCoverage } from '../text/text.js';
import { truncateAtWord } from '../text/truncate.js';
import { endsSentence, displayText, layout, renderBlock } from './extractive-render.js';
import { addContext, byPosition, CONNECTOR_RE, continuationOf, pickSentences } from './sentence-choice.js';
import {
  idfWeights,
  rankPassages,
  readPassage,
  scoreSentences,
  type Passage,
  type QuestionIdf,
  type ReadPassage,
  type Sentence,
} from './sentence-scoring.js';

/** The answerer's input, defined with the scoring that reads it; every caller imports it from here. */
export type { Passage } from './sentence-scoring.js';

export interface ExtractiveAnswer {
  text: string;
  usedPassageIds: string[];
  /** termCoverage of the question by the answer text. */
  coverage: number;
}

function empty(): ExtractiveAnswer {
  return { text: '', usedPassageIds: [], coverage: 0 };
}

/**
 * Questions that want steps or a list rather than one fact: "How do I…", "How can we…",
 * "What are the steps…", "Which options are there?", "List…". They get the full composition
 * (several sentences, the steps or code block a sentence introduces).
 */
const PROCEDURAL_RE =
  /^\s*(?:how\s+(?:do|can|could|should|would|to)\b|how\s+does\s+(?:one|a user)\b|what\s+(?:are|were)\s+the\s+steps\b|steps?\b|list\b|(?:which|what)\b(?:\s+[\w-]+){1,3}\s+(?:are\s+there|exist|are\s+available)\b)|\b(?:steps?|set\s*up|install|configure)\b/i;

export function isProcedural(question: string): boolean {
  return PROCEDURAL_RE.test(question);
}

/**
 * A factoid answer: the best sentence, with the one its pronoun leans on (`antecedent`) when both
 * fit in `antecedentChars`; a second one joins when it scores at least `second` of the best and
 * all fit in `pairChars`. Chosen on the tuning articles (tune-answer.ts, explore.ts): gold span in
 * 70.5 % of answerable questions at 205 characters mean with an unbounded antecedent and a
 * 200-character pair; the antecedent bought 0.4 points for 11 characters, a 250-character pair
 * 0.6 for 5, so the antecedent now stays within 200 characters and the pair within 250: 70.9 %
 * at 200 characters. A 300-character pair reaches 71.8 % at 211 characters, past the
 * 200-character target; the sentence weights barely move it (68-69 %).
 */
export const FACTOID = { maxChars: 400, second: 0.7, pairChars: 250, antecedent: true, antecedentChars: 200 };

/**
 * The factoid answer: the best sentence alone (with the sentence its pronoun leans on), the
 * span of the asked type in **bold**. Null when the best sentence is a list item, a table row
 * or introduces steps: the full composition renders those.
 */
function factoidAnswer(
  question: string,
  candidates: Sentence[],
  read: ReadPassage[],
  type: AnswerType | null,
  maxLength: number,
  questionIdf: QuestionIdf,
): ExtractiveAnswer | null {
  const [best, next] = pickSentences(candidates, Math.min(maxLength, FACTOID.maxChars), read, questionIdf);
  if (!best || best.unit.kind !== 'prose' || /:\s*$/.test(best.unit.text)) return null;
  const selected = [best];
  const prev = (read[best.rank] as ReadPassage).sentences[best.index - 1];
  if (
    FACTOID.antecedent &&
    prev &&
    CONNECTOR_RE.test(displayText(best.unit)) &&
    prev.unit.kind === 'prose' &&
    prev.unit.text.length + 1 + best.unit.text.length <= FACTOID.antecedentChars
  )
    selected.unshift(prev);
  if (
    next &&
    next.unit.kind === 'prose' &&
    next.score >= best.score * FACTOID.second &&
    selected.reduce((n, s) => n + s.unit.text.length + 1, 0) + next.unit.text.length <= FACTOID.pairChars
  ) {
    selected.push(next);
    selected.sort(byPosition);
  }
  // A sentence that introduces what follows ("…vary by operating system:", "To do that, go to…")
  // needs it: the full composition adds it.
  if (selected.some((s) => /:\s*$/.test(s.unit.text) || continuationOf(s, read))) return null;
  const parts = selected.map((s) => displayText(s.unit));
  const last = parts.length - 1;
  const span = type ? findTypedSpan(parts[last] as string, type, question, (read[best.rank] as ReadPassage).passage.language) : null;
  if (span) parts[last] = `${(parts[last] as string).slice(0, span.start)}**${span.text}**${(parts[last] as string).slice(span.end)}`;
  const text = truncateAtWord(parts.map((p, i) => (i < last && !endsSentence(p) ? `${p}.` : p)).join(' '), maxLength);
  if (!text) return null;
  return {
    text,
    usedPassageIds: [(read[best.rank] as ReadPassage).passage.id],
    coverage: termCoverage(question, text, (read[best.rank] as ReadPassage).passage.language),
  };
}

/** What the last composeExtractiveAnswer call saw, for the confidence model (same passages array). */
export interface AnswerAnalysis {
  question: string;
  /** The chosen (best) sentence's IDF-weighted coverage of the question, its passage's support and rank. */
  relevance: number;
  support: number;
  rank: number;
  /** The best sentence holds a span of the asked type. */
  typed: boolean;
  /** Stemmed terms of the best sentence with its passage's title and headings. */
  sentenceTerms: ReadonlySet<string>;
  /** The best sentence as written. */
  sentence: string;
  /** The next-best sentence of the same passage / the best sentence's score (0 when none). */
  runnerUpInPassage: number;
  /** The answer's text ('' until composed). */
  answerText: string;
  type: AnswerType | null;
  factoid: boolean;
}
const analyses = new WeakMap<readonly Passage[], AnswerAnalysis>();

/** The analysis composeExtractiveAnswer left for these passages and this question, if any. */
export function answerAnalysisOf(question: string, passages: readonly Passage[]): AnswerAnalysis | null {
  const a = analyses.get(passages);
  return a && a.question === question ? a : null;
}

/**
 * Answers `question` from `passages` by extraction: a factoid question gets its best sentence
 * with the asked span in bold; a procedural one ("How do I…") the best sentences with the
 * steps or code they introduce. Returns an empty answer when nothing in the passages shares a
 * content term with the question. Deterministic.
 */
export function composeExtractiveAnswer(question: string, passages: Passage[], opts: { maxLength: number }): ExtractiveAnswer {
  if (!Array.isArray(passages) || passages.length === 0) return empty();
  const lang = languageOfPassages(passages);
  const terms = questionTerms(question, lang);
  if (terms.length === 0) return empty();
  const read = rankPassages(passages).map(readPassage);
  const maxLength = Math.max(0, Math.floor(opts.maxLength));
  const procedural = isProcedural(question);
  const type = procedural ? null : answerTypeOf(question, lang);
  const candidates = scoreSentences(terms, read, type, question);
  const questionIdf: QuestionIdf = { terms, idf: idfWeights(terms, candidates) };
  const chosen = pickSentences(candidates, maxLength, read, questionIdf);
  const best = chosen[0];
  if (!best) return empty();
  let samePassageNext = 0;
  for (const s of candidates) if (s.matched > 0 && s !== best && s.rank === best.rank) samePassageNext = Math.max(samePassageNext, s.score);
  const analysis: AnswerAnalysis = {
    question,
    relevance: best.relevance,
    support: best.support,
    rank: best.rank,
    typed: best.typed,
    type,
    sentenceTerms: new Set([...best.terms, ...(read[best.rank] as ReadPassage).headingTerms]),
    sentence: best.unit.text,
    answerText: '',
    runnerUpInPassage: best.score > 0 ? samePassageNext / best.score : 0,
    factoid: false,
  };
  analyses.set(passages, analysis);

  if (!procedural) {
    const factoid = factoidAnswer(question, candidates, read, type, maxLength, questionIdf);
    if (factoid) {
      analysis.factoid = true;
      analysis.answerText = factoid.text;
      return factoid;
    }
  }
  const selected = addContext(chosen, read);
  const text = truncateAtWord(layout(selected).map(renderBlock).join('\n\n'), maxLength);
  if (!text) return empty();
  analysis.answerText = text;
  const usedPassageIds = [...new Set(selected.map((s) => (read[s.rank] as ReadPassage).passage.id))];
  return { text, usedPassageIds, coverage: termCoverage(question, text, lang) };
}
