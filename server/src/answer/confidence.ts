/**
 * Confidence, two ways:
 * - an extractive answer's: `estimateConfidence`, a logistic model of "this answer is right"
 *   fitted on public data (bottom of the file, confidence-model.ts);
 * - a model answer's: `modelConfidence`, the lexical retrieval evidence (`lexicalEvidence`)
 *   combined with what the model did (cited, uncited, declined).
 */
import { memoByText } from '../lib/memo.js';
import { CONFIDENCE_MODEL } from './confidence-model.js';
import { oppositeSwaps } from './contrast.js';
import { answerAnalysisOf, composeExtractiveAnswer, type Passage } from './extractive.js';
import { contentTerms, isStopword, languageOfPassages, memoByLanguage, questionTerms, stemmedWords, wordsOf } from '../text/text.js';
import { sentenceUnits } from '../text/sentences.js';

/**
 * Questions that ask for an amount or a time ("How many…", "How long…", "How old…", "What
 * year…"), and "When…" questions. English only: other languages skip the answer-type check.
 * The captured word frames the question rather than naming its topic.
 */
const AMOUNT_QUESTION_RE =
  /^\s*(?:how\s+(many|much|long|old|tall|high|far|big|large|fast|hot|cold|deep|wide|heavy|often|soon|thick|warm|strong)\b|(?:in|by|since|until)?\s*(?:what|which)\s+(year|date|day|month|time|percentage|share)\b)/i;
const WHEN_QUESTION_RE = /^\s*when\b/i;
/** What an amount or a time is written with: digits, number words, months, seasons, "a week". */
const AMOUNT_RE =
  /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|half|third|quarter|dozen|january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter|century|decade|daily|weekly|monthly|yearly|annually|hourly)\b|\ba (?:second|minute|hour|day|week|month|year|decade|century|lifetime)\b/i;
/** "When" is also answered by an occasion: "before and after caring for someone…". */
const OCCASION_RE = /\b(?:before|after|during|until|while|whenever|once)\b/i;
/**
 * Words that frame a question in any topic ("How long does X take?", "What is X called?"):
 * an answer rarely repeats them, so they count neither for nor against the coverage.
 */
const FRAME_TERMS: ReadonlySet<string> = new Set(
  contentTerms('take takes happen happened come comes make made go goes use used kind type sort call called name named mean means'),
);
/** Multiplier when such a question's best-matching sentence holds no amount or time. */
const ANSWER_TYPE_MISMATCH = 0.5;
/** Multiplier per question term the best passage lacks (at most MAX_MISSING times). */
const MISSING_TERM = 0.85;
const MAX_MISSING = 4;

/**
 * Lexical evidence in [0,1] that the passages hold the answer, for model answers (before the
 * model has said a word; it was the extractive confidence before the fitted model; AUROC
 * answerable vs unanswerable 0.775 on bench/data/quality, 0.51 on the public SQuAD sample):
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

/**
 * The question's terms without the words that frame it: the asked dimension of "How long…" /
 * "What year…" and verbs such as "take", "called", "mean".
 */
export function topicalTerms(question: string, lang?: string): string[] {
  const amountQuestion = lang ? null : AMOUNT_QUESTION_RE.exec(question);
  const frame = contentTerms(amountQuestion?.[1] ?? amountQuestion?.[2] ?? '')[0];
  const all = questionTerms(question, lang);
  const topical = all.filter((t) => t !== frame && !FRAME_TERMS.has(t));
  return topical.length ? topical : all;
}

/** The lexical evidence described above. */
export function lexicalEvidence(question: string, passages: readonly Passage[], answerCoverage: number | null): number {
  const top = passages[0];
  if (!top) return 0;
  const lang = languageOfPassages(passages);
  // The amount and time patterns are English: other languages skip the answer-type check.
  const amountQuestion = lang ? null : AMOUNT_QUESTION_RE.exec(question);
  const frame = contentTerms(amountQuestion?.[1] ?? amountQuestion?.[2] ?? '')[0];
  const all = contentTerms(question, lang);
  const topical = all.filter((t) => t !== frame && !FRAME_TERMS.has(t));
  const terms = topical.length ? topical : all;
  if (!terms.length) return 0.2;
  const context = `${top.title} ${top.headingPath.join(' ')}`;
  const haystack = passageTerms(`${context} ${top.text}`, lang);
  const found = terms.filter((t) => haystack.has(t)).length;
  const passageCoverage = found / terms.length;
  const answer = answerCoverage ?? passageCoverage;
  // Coverage of one term out of many is weak evidence; full coverage of a long question strong.
  const raw = 0.55 * passageCoverage + 0.45 * answer;
  const lengthFactor = terms.length === 1 ? 0.85 : 1;
  const missingFactor = MISSING_TERM ** Math.min(MAX_MISSING, terms.length - found);
  const expected = amountQuestion ? [AMOUNT_RE] : !lang && WHEN_QUESTION_RE.test(question) ? [AMOUNT_RE, OCCASION_RE] : null;
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
const passageTerms = memoByLanguage((lang) => memoByText((text): ReadonlySet<string> => new Set(contentTerms(text, lang))));

/**
 * Whether a stemmed term is in a passage's title, headings or text. The text's terms are looked
 * up by the text itself (a string the retrieval cache hands out again, its hash already known)
 * rather than by a title + text string built and hashed anew for every question.
 */
const bodyTerms = memoByLanguage((lang) => memoByText((text): ReadonlySet<string> => new Set(contentTerms(text, lang)), 2_000));
const contextTerms = memoByLanguage((lang) => memoByText((text): ReadonlySet<string> => new Set(contentTerms(text, lang)), 2_000));
function passageHas(p: Passage): (term: string) => boolean {
  const body = bodyTerms(p.text, p.language);
  const context = contextTerms(`${p.title} ${p.headingPath.join(' ')}`, p.language);
  return (term) => body.has(term) || context.has(term);
}
const sentenceTerms = memoByText((text) =>
  sentenceUnits(text).map((unit) => ({ unit, own: new Set(contentTerms(unit.text)) as ReadonlySet<string> })),
);

/**
 * Retrieval evidence for a model answer: how well the best retrieved passage covers the
 * question (the same measure as above, passage side only), before the model has said a word.
 */
export function retrievalEvidence(question: string, passages: readonly Passage[]): number {
  let best = 0;
  for (const p of passages) best = Math.max(best, lexicalEvidence(question, [p], null));
  return best;
}

// ---------------------------------------------------------------------------
// The extractive answer's confidence: a logistic model of "this answer is right"
// ---------------------------------------------------------------------------

/**
 * Names and numbers of the question ("Chopin", "1830", "Warsaw"): a passage that lacks one is
 * usually about something else, the way adversarial unanswerable questions are built (a
 * paragraph's wording with one name or number changed).
 */
const NOUNS_CAPITALISED: ReadonlySet<string> = new Set(['de', 'lb']);

function namesAndNumbers(question: string, lang?: string): string[] {
  const words = question.match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu) ?? [];
  const out: string[] = [];
  words.forEach((w, i) => {
    const lower = lang ? (wordsOf(w, lang)[0] ?? '') : w.toLowerCase();
    if (isStopword(lower, lang) || lower.length < 2) return; // "I", "The" after a colon
    // German capitalises every noun: there only numbers say "name or number".
    const capitalisedName = i > 0 && /^\p{Lu}/u.test(w) && !NOUNS_CAPITALISED.has(lang?.split('-')[0] ?? '');
    if (/\d/.test(w) || capitalisedName) out.push(...stemmedWords(w, lang));
  });
  return [...new Set(out)];
}

const LEXICAL_WEIGHT = CONFIDENCE_MODEL.weights[CONFIDENCE_MODEL.features.indexOf('lexicalEvidence')] ?? 1;

/** The features CONFIDENCE_MODEL weighs, in its `features` order. */
export const FEATURE_NAMES = [
  'bestSentenceCoverage',
  'answerCoverage',
  'topPassageCoverage',
  'answerFromTopPassage',
  'typeMatch',
  'typedSpan',
  'namesNumbersPresent',
  'namesNumbersInSentence',
  'sentenceMissing',
  'sentenceMargin',
  'questionLength',
  'lexicalEvidence',
  'noOppositeSwap',
  'documentMargin',
] as const;

/** Question terms beyond which a longer question says no more (questionLength). */
const MAX_QUESTION_TERMS = 8;

/**
 * Evidence about the extractive answer to `question` from `passages` (scores normalised, best
 * first), as numbers for the model. Few, each oriented so that more means "more likely right",
 * and fitted with non-negative weights (fit-confidence.ts), so the model stays sensible on
 * questions unlike those it was fitted on (a question the knowledge does not cover at all):
 * - bestSentenceCoverage: IDF-weighted share of the question the chosen sentence covers
 *   (title and headings of its passage count; extractive.ts);
 * - answerCoverage: share of the question's topical terms (topicalTerms: "how long", "take"
 *   aside) in the answer text;
 * - topPassageCoverage: share of the question's terms in the best passage;
 * - answerFromTopPassage: the sentence comes from the first passage;
 * - typeMatch / typedSpan: 0 when the question asks for a date, number, person or place and
 *   the chosen sentence holds none, else 1 / 1 when it holds one (not copied from the question);
 * - namesNumbersPresent: 3 - names and numbers of the question absent from the chosen passage;
 * - namesNumbersInSentence: the same for the chosen sentence (with its title and headings): an
 *   adversarial question often names something the passage mentions elsewhere;
 * - sentenceMissing: 1 / (1 + question terms the chosen sentence, title and headings lack);
 * - sentenceMargin: 1 - the next-best sentence of the same passage / the chosen one (a sentence
 *   that stands out vs one of several alike);
 * - questionLength: the question's terms, at most 8 (a longer question pins its answer down);
 * - lexicalEvidence: the hand-made coverage measure the confidence was before (lexicalEvidence
 *   above: every topical term the best passage lacks costs 15 %, an amount question without an
 *   amount is halved);
 * - noOppositeSwap: 0 when the chosen sentence holds the opposite of a question word and not the
 *   word itself ("after" asked, "until" said: contrast.ts), the commonest adversarial edit.
 * - documentMargin: 1 - the best passage of another document / the best passage (scores are
 *   relative to the best): a question whose page stands out is one the knowledge answers from
 *   that page. Left out while the model was fitted on SQuAD alone (it measures how distinct a
 *   paragraph is in a crowded article as much as the question), it is the strongest single
 *   feature on help centers (AUROC right vs rest 0.72 on the tuning products, where the others
 *   reach 0.66), and adding it lifts the tuning products left out of the fit one at a time from
 *   0.68 to 0.72 (issue 26; fit-confidence.ts).
 */
export function confidenceFeatures(
  question: string,
  passages: readonly Passage[],
  answerCoverage: number | null,
  opts: { everyFeature?: boolean } = {},
): number[] {
  const top = passages[0];
  if (!top) return FEATURE_NAMES.map(() => 0);
  let analysis = answerAnalysisOf(question, passages);
  if (!analysis) {
    composeExtractiveAnswer(question, passages as Passage[], { maxLength: 1000 });
    analysis = answerAnalysisOf(question, passages);
  }
  const lang = languageOfPassages(passages);
  const terms = topicalTerms(question, lang);
  const chosen = passages[analysis?.rank ?? 0] ?? top;
  const topHas = passageHas(top);
  const chosenHas = chosen === top ? topHas : passageHas(chosen);
  const found = terms.filter(topHas).length;
  const names = namesAndNumbers(question, lang);
  const missingNames = names.filter((n) => !chosenHas(n)).length;
  const topical = terms;
  const answerTerms = analysis?.answerText ? new Set(stemmedWords(analysis.answerText, lang)) : null;
  // Frame words ("how long", "take") are not the topic: an answer need not repeat them.
  const answerShare =
    answerTerms && topical.length ? topical.filter((t) => answerTerms.has(t)).length / topical.length : (answerCoverage ?? 0);
  const sentence = analysis?.sentenceTerms;
  const missingInSentence = sentence ? names.filter((n) => !sentence.has(n)).length : names.length;
  const offBy = sentence ? terms.filter((t) => !sentence.has(t)).length : terms.length;
  return [
    analysis?.relevance ?? 0,
    answerShare,
    terms.length ? found / terms.length : 0,
    analysis?.rank === 0 ? 1 : 0,
    analysis?.type && !analysis.typed ? 0 : 1,
    analysis?.typed ? 1 : 0,
    3 - Math.min(3, missingNames),
    3 - Math.min(3, missingInSentence),
    1 / (1 + offBy),
    1 - Math.min(1, analysis?.runnerUpInPassage ?? 1),
    Math.min(MAX_QUESTION_TERMS, terms.length),
    // Fitted to weight 0 today: not computed then (it costs as much as the rest together);
    // the fitting script asks for every feature.
    LEXICAL_WEIGHT || opts.everyFeature ? lexicalEvidence(question, passages, answerCoverage) : 0,
    analysis && oppositeSwaps(question, analysis.sentence) > 0 ? 0 : 1,
    documentMargin(passages),
  ];
}

/** 1 - the best score of a passage from another document than the first passage's, relative to it. */
export function documentMargin(passages: readonly Passage[]): number {
  const top = passages[0];
  if (!top || top.score <= 0) return 0;
  const documentOf = (p: Passage): string => p.documentId ?? `${p.title}\n${p.url ?? ''}`;
  const own = documentOf(top);
  const other = passages.find((p) => documentOf(p) !== own);
  return other ? Math.max(0, 1 - other.score / top.score) : 1;
}

/**
 * Below half of the question's terms in the best passage, or of its topical terms in the
 * answer, the probability shrinks with the square of the shortfall. The fitting data never
 * shows such a case (every SQuAD question is about a paragraph of the corpus), so the model
 * cannot learn that a knowledge base about software does not answer "Which team won the 1998
 * world cup?" or "Do you sell gift cards?" (one word of three, "card", in a Teams connector
 * passage: a linear gate left it at 0.37, answered); this floor says it. Squared or linear
 * changes nothing measurable on the tuning articles (AUROC within 0.003).
 */
export const COVERAGE_FLOOR = 0.5;
export function coverageGate(features: readonly number[]): number {
  const passage = features[FEATURE_NAMES.indexOf('topPassageCoverage')] ?? 0;
  const answer = features[FEATURE_NAMES.indexOf('answerCoverage')] ?? 0;
  return Math.min(1, Math.min(passage, answer) / COVERAGE_FLOOR) ** 2;
}

/** The model's probability that the answer is right (coverage gate included), before calibration. */
export function answerProbability(features: readonly number[]): number {
  const m = CONFIDENCE_MODEL;
  let z = m.intercept;
  features.forEach((x, i) => {
    z += (m.weights[i] ?? 0) * ((x - (m.means[i] ?? 0)) / (m.scales[i] || 1));
  });
  return coverageGate(features) / (1 + Math.exp(-z));
}

/**
 * Confidence in [0,1] that the extractive answer is right: a logistic regression over the
 * evidence of confidenceFeatures, fitted on the tuning articles of a public SQuAD 2.0 sample by
 * bench/src/quality/fit-confidence.ts (its numbers are confidence-model.ts), then mapped
 * monotonically so the fitted operating point lands on the default threshold 0.35 (calibrate).
 * No passage → 0.
 */
export function estimateConfidence(question: string, passages: readonly Passage[], answerCoverage: number | null): number {
  if (!passages[0]) return 0;
  return round(calibrateProbability(answerProbability(confidenceFeatures(question, passages, answerCoverage))));
}

/** Piecewise-linear and monotone: 0 → 0, the model's operating point → 0.35, 1 → 1. */
export function calibrateProbability(p: number): number {
  const op = CONFIDENCE_MODEL.operatingPoint;
  const t = DEFAULT_CONFIDENCE_THRESHOLD;
  const x = Math.min(1, Math.max(0, p));
  return x <= op ? x * (t / op) : t + (x - op) * ((1 - t) / (1 - op));
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
