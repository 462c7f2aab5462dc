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
