import { contentTerms } from './text.js';
import type { Passage } from './extractive.js';

/**
 * Confidence in [0,1] that the answer comes from the knowledge. It rests on evidence that
 * separates answerable from unanswerable questions: how much of the question the best passage
 * covers (rarer question words count more, through retrieval's own ranking) and how much of it
 * the chosen answer sentences cover. No passage or no answer → 0.
 */
export function estimateConfidence(question: string, passages: readonly Passage[], answerCoverage: number | null): number {
  const top = passages[0];
  if (!top) return 0;
  const terms = contentTerms(question);
  if (!terms.length) return 0.2;
  const haystack = new Set(contentTerms(`${top.title} ${top.headingPath.join(' ')} ${top.text}`));
  const passageCoverage = terms.filter((t) => haystack.has(t)).length / terms.length;
  const answer = answerCoverage ?? passageCoverage;
  // Coverage of one term out of many is weak evidence; full coverage of a long question strong.
  const raw = 0.55 * passageCoverage + 0.45 * answer;
  const lengthFactor = terms.length === 1 ? 0.85 : 1;
  return round(Math.min(1, Math.max(0, raw ** 1.3 * lengthFactor)));
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

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
 * Lexical evidence alone undersells paraphrased questions ("How long do refunds take?" shares
 * one word in three with its answer), while a model told to answer only from the passages and
 * to decline otherwise is a strong judge of whether they hold the answer; so:
 * - cited: it answered and pointed at passages it read: 0.6, up to 1 with good evidence;
 * - uncited: it answered without showing a source (small models often forget): 0.3 up to 0.7,
 *   so with weak evidence it falls below the default threshold of 0.35;
 * - declined: it said the passages do not hold the answer: at most 0.2.
 */
export function modelConfidence(evidence: number, outcome: ModelOutcome): number {
  const e = Math.min(1, Math.max(0, evidence));
  const value = outcome === 'cited' ? 0.6 + 0.4 * e : outcome === 'uncited' ? 0.3 + 0.4 * e : 0.2 * e;
  return round(value);
}
