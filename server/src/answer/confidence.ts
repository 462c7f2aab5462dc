import { memoByText } from '../lib/memo.js';
import { contentTerms, sentenceUnits } from './text.js';
import type { Passage } from './extractive.js';

/**
 * Questions that ask for an amount or a time ("How many…", "How long…", "How old…", "What
 * year…"), and "When…" questions. English only: other languages skip the answer-type check.
 * The captured word frames the question rather than naming its topic.
 */
const AMOUNT_QUESTION_RE = /^\s*(?:how\s+(many|much|long|old|tall|high|far|big|large|fast|hot|cold|deep|wide|heavy|often|soon|thick|warm|strong)\b|(?:in|by|since|until)?\s*(?:what|which)\s+(year|date|day|month|time|percentage|share)\b)/i;
const WHEN_QUESTION_RE = /^\s*when\b/i;
/** What an amount or a time is written with: digits, number words, months, seasons, "a week". */
const AMOUNT_RE = /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|half|third|quarter|dozen|january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter|century|decade|daily|weekly|monthly|yearly|annually|hourly)\b|\ba (?:second|minute|hour|day|week|month|year|decade|century|lifetime)\b/i;
/** "When" is also answered by an occasion: "before and after caring for someone…". */
const OCCASION_RE = /\b(?:before|after|during|until|while|whenever|once)\b/i;
/**
 * Words that frame a question in any topic ("How long does X take?", "What is X called?"):
 * an answer rarely repeats them, so they count neither for nor against the coverage.
 */
const FRAME_TERMS: ReadonlySet<string> = new Set(contentTerms('take takes happen happened come comes make made go goes use used kind type sort call called name named mean means'));
/** Multiplier when such a question's best-matching sentence holds no amount or time. */
const ANSWER_TYPE_MISMATCH = 0.5;
/** Multiplier per question term the best passage lacks (at most MAX_MISSING times). */
const MISSING_TERM = 0.85;
const MAX_MISSING = 4;

/**
 * Confidence in [0,1] that the answer comes from the knowledge, from evidence that separates
 * answerable from unanswerable questions (`npm run bench:quality` measures it: AUROC of this
 * value over labelled answerable and unanswerable questions, 0.757 → 0.775 with the frame words
 * and the last two factors below):
 * - how much of the question the best passage covers, and how much of it the chosen answer
 *   sentences cover (words that only frame the question do not count);
 * - each question term the best passage lacks costs a further 15 %: the terms it holds are
 *   often only the topic ("Yellowstone", "bison") while the missing one is the asked fact
 *   ("population");
 * - a question asking for an amount or a time ("How many…", "When…") whose best-matching
 *   sentence holds no number, date or (for "when") occasion is about the topic, not the asked
 *   fact: halved.
 * No passage or no answer → 0.
 */
/**
 * Where the evidence value above best separates answerable from unanswerable questions: the
 * best balanced accuracy on the calibration half of bench/data/quality (`npm run
 * bench:quality`), 0.5. API.md fixes the default `confidenceThreshold` at 0.35, so the scale
 * is calibrated to put that operating point at 0.35: a monotone piecewise-linear map (0 → 0,
 * 0.5 → 0.35, 1 → 1), which leaves the ranking, and so the AUROC, unchanged.
 */
const OPERATING_POINT = 0.5;
export const DEFAULT_CONFIDENCE_THRESHOLD = 0.35;

export function calibrate(evidence: number): number {
  const p = OPERATING_POINT;
  const t = DEFAULT_CONFIDENCE_THRESHOLD;
  return evidence <= p ? evidence * (t / p) : t + (evidence - p) * ((1 - t) / (1 - p));
}

export function estimateConfidence(question: string, passages: readonly Passage[], answerCoverage: number | null): number {
  const top = passages[0];
  if (!top) return 0;
  const amountQuestion = AMOUNT_QUESTION_RE.exec(question);
  const frame = contentTerms(amountQuestion?.[1] ?? amountQuestion?.[2] ?? '')[0];
  const all = contentTerms(question);
  const topical = all.filter((t) => t !== frame && !FRAME_TERMS.has(t));
  const terms = topical.length ? topical : all;
  if (!terms.length) return 0.2;
  const context = `${top.title} ${top.headingPath.join(' ')}`;
  const haystack = passageTerms(`${context} ${top.text}`);
  const found = terms.filter((t) => haystack.has(t)).length;
  const passageCoverage = found / terms.length;
  const answer = answerCoverage ?? passageCoverage;
  // Coverage of one term out of many is weak evidence; full coverage of a long question strong.
  const raw = 0.55 * passageCoverage + 0.45 * answer;
  const lengthFactor = terms.length === 1 ? 0.85 : 1;
  const missingFactor = MISSING_TERM ** Math.min(MAX_MISSING, terms.length - found);
  const expected = amountQuestion ? [AMOUNT_RE] : WHEN_QUESTION_RE.test(question) ? [AMOUNT_RE, OCCASION_RE] : null;
  const typeFactor = expected && !bestSentenceMatches(terms, context, top.text, expected) ? ANSWER_TYPE_MISMATCH : 1;
  return round(calibrate(Math.min(1, Math.max(0, raw ** 1.3 * lengthFactor * missingFactor * typeFactor))));
}

/**
 * Whether a sentence of `text` that matches the most question terms (title and headings count
 * for every sentence) holds what the question asks for (one of `expected`).
 */
function bestSentenceMatches(terms: readonly string[], context: string, text: string, expected: readonly RegExp[]): boolean {
  const shared = new Set(contentTerms(context));
  let best = -1;
  let holds = false;
  for (const { unit, own } of sentenceTerms(text)) {
    const matched = terms.filter((t) => own.has(t) || shared.has(t)).length;
    const has = expected.some((re) => re.test(unit.text));
    if (matched > best) {
      best = matched;
      holds = has;
    } else if (matched === best) {
      holds ||= has;
    }
  }
  return holds;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

/** Stemmed terms of a passage and of its sentences, by text (popular passages come back). */
const passageTerms = memoByText((text): ReadonlySet<string> => new Set(contentTerms(text)));
const sentenceTerms = memoByText((text) => sentenceUnits(text).map((unit) => ({ unit, own: new Set(contentTerms(unit.text)) as ReadonlySet<string> })));

/**
 * Retrieval evidence for a model answer: how well the best retrieved passage covers the
 * question (the same measure as above, passage side only), before the model has said a word.
 */
export function retrievalEvidence(question: string, passages: readonly Passage[]): number {
  let best = 0;
  for (const p of passages) best = Math.max(best, estimateConfidence(question, [p], null));
  return best;
}

export type ModelOutcome = 'cited' | 'uncited' | 'declined';

/**
 * Confidence in a model's answer: retrieval evidence combined with what the model did.
 * Lexical evidence alone undersells paraphrased questions ("When do I get my cash?" shares no
 * word with "Refunds go back … within 5 business days"), while a model told to answer only from
 * the passages and to decline otherwise is a strong judge of whether they hold the answer; so:
 * - cited: it answered and pointed at passages it read: 0.6, up to 1 with good evidence;
 * - uncited: it answered without showing a source (small models often forget): 0.3 up to 0.7,
 *   so with weak evidence (below 0.125) it falls below the default threshold of 0.35;
 * - declined: it said the passages do not hold the answer: at most 0.2.
 */
export function modelConfidence(evidence: number, outcome: ModelOutcome): number {
  const e = Math.min(1, Math.max(0, evidence));
  const value = outcome === 'cited' ? 0.6 + 0.4 * e : outcome === 'uncited' ? 0.3 + 0.4 * e : 0.2 * e;
  return round(value);
}
