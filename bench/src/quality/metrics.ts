/**
 * Retrieval and calibration metrics, pure functions over plain numbers so they can be tested on
 * hand-made inputs.
 */

/** 1-based rank of `gold` in a ranked list of ids, or null when it is absent. */
export function rankOf<T>(ranked: readonly T[], gold: T): number | null {
  const i = ranked.indexOf(gold);
  return i < 0 ? null : i + 1;
}

/** Share of queries whose gold item is within the first k (null = not retrieved). */
export function recallAt(ranks: readonly (number | null)[], k: number): number {
  if (!ranks.length) return NaN;
  return ranks.filter((r) => r !== null && r <= k).length / ranks.length;
}

/** Mean reciprocal rank; a query whose gold item was not retrieved counts 0. */
export function meanReciprocalRank(ranks: readonly (number | null)[]): number {
  if (!ranks.length) return NaN;
  return ranks.reduce<number>((sum, r) => sum + (r === null ? 0 : 1 / r), 0) / ranks.length;
}

/**
 * Area under the ROC curve of a score separating positives from negatives, by ranks
 * (Mann-Whitney U): the probability that a random positive scores above a random negative,
 * ties counting one half. Tied scores get their mean rank.
 */
export function auroc(positives: readonly number[], negatives: readonly number[]): number {
  const p = positives.length;
  const n = negatives.length;
  if (!p || !n) return NaN;
  const all = [...positives.map((s) => ({ s, pos: true })), ...negatives.map((s) => ({ s, pos: false }))].sort((a, b) => a.s - b.s);
  let rankSumPos = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j + 1 < all.length && (all[j + 1] as { s: number }).s === (all[i] as { s: number }).s) j++;
    const midRank = (i + j) / 2 + 1; // ranks are 1-based
    for (let k = i; k <= j; k++) if ((all[k] as { pos: boolean }).pos) rankSumPos += midRank;
    i = j + 1;
  }
  return (rankSumPos - (p * (p + 1)) / 2) / (p * n);
}

/** One question's outcome for calibration. */
export interface Judged {
  answerable: boolean;
  /** The (unthresholded) answer contains a gold span; always false for unanswerable questions. */
  correct: boolean;
  confidence: number;
}

export interface ThresholdRow {
  threshold: number;
  /** Questions answered (confidence ≥ threshold) / all questions. */
  answeredShare: number;
  /** Answered with a gold span / answered. */
  precision: number;
  /** Answered with a gold span / answerable questions. */
  recall: number;
  f1: number;
  /** Right decision: answerable → answer, unanswerable → fallback; over all questions. */
  accuracy: number;
  /** Mean of the answer rate on answerable-and-correct and the fallback rate on unanswerable questions. */
  balancedAccuracy: number;
  /** Fallback rate on unanswerable questions. */
  unanswerableFallback: number;
  /** Fallback rate on answerable questions (issue 14: at most 15 % at the default threshold). */
  answerableFallback: number;
  /** Answer rate on answerable questions whose answer holds a gold span. */
  correctAnswered: number;
}

/** The chat service answers when `confidence >= threshold` and falls back below it. */
export function thresholdRow(items: readonly Judged[], threshold: number): ThresholdRow {
  let answered = 0;
  let answeredCorrect = 0;
  let rightDecisions = 0;
  let answerable = 0;
  let correct = 0;
  let correctAnswered = 0;
  let unanswerable = 0;
  let unanswerableFellBack = 0;
  let answerableFellBack = 0;
  for (const q of items) {
    const answers = q.confidence >= threshold;
    if (answers) answered++;
    if (answers && q.correct) answeredCorrect++;
    if (answers === q.answerable) rightDecisions++;
    if (q.answerable) {
      answerable++;
      if (!answers) answerableFellBack++;
    }
    if (q.correct) {
      correct++;
      if (answers) correctAnswered++;
    }
    if (!q.answerable) {
      unanswerable++;
      if (!answers) unanswerableFellBack++;
    }
  }
  const precision = answered ? answeredCorrect / answered : NaN;
  const recall = answerable ? answeredCorrect / answerable : NaN;
  const tpr = correct ? correctAnswered / correct : NaN;
  const tnr = unanswerable ? unanswerableFellBack / unanswerable : NaN;
  return {
    threshold,
    answeredShare: items.length ? answered / items.length : NaN,
    precision,
    recall,
    f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0,
    accuracy: items.length ? rightDecisions / items.length : NaN,
    balancedAccuracy: (tpr + tnr) / 2,
    unanswerableFallback: tnr,
    answerableFallback: answerable ? answerableFellBack / answerable : NaN,
    correctAnswered: tpr,
  };
}

/** Thresholds 0.05, 0.10 … 0.95 (rounded, so 0.15 is 0.15). */
export const THRESHOLDS: readonly number[] = Array.from({ length: 19 }, (_, i) => Math.round((i + 1) * 5) / 100);

export function sweep(items: readonly Judged[], thresholds: readonly number[] = THRESHOLDS): ThresholdRow[] {
  return thresholds.map((t) => thresholdRow(items, t));
}

/**
 * The threshold with the best balanced accuracy (answer the answerable questions the answerer
 * gets right, fall back on the unanswerable ones; both classes weigh the same whatever their
 * sizes). Among thresholds within `tolerance` of the best, the middle one of the longest run is
 * taken, so a flat optimum does not pick its noisy edge.
 */
export function chooseThreshold(rows: readonly ThresholdRow[], tolerance = 0.01): ThresholdRow {
  const valid = rows.filter((r) => Number.isFinite(r.balancedAccuracy));
  if (!valid.length) throw new Error('no threshold has a balanced accuracy');
  const best = Math.max(...valid.map((r) => r.balancedAccuracy));
  let bestRun: ThresholdRow[] = [];
  let run: ThresholdRow[] = [];
  for (const r of rows) {
    if (Number.isFinite(r.balancedAccuracy) && r.balancedAccuracy >= best - tolerance) run.push(r);
    else run = [];
    if (run.length > bestRun.length) bestRun = [...run];
  }
  return bestRun[Math.floor((bestRun.length - 1) / 2)] as ThresholdRow;
}

/**
 * Normalised for span matching as SQuAD's evaluation script does: lowercase, punctuation
 * deleted ("1,300" → "1300"), articles dropped, spaces collapsed.
 */
export function normalizeAnswer(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s]/gu, '')
    .replace(/\b(?:a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether `answer` contains one of the gold spans (whole words, normalised). */
export function containsSpan(answer: string, gold: readonly string[]): boolean {
  const hay = ` ${normalizeAnswer(answer)} `;
  return gold.some((g) => {
    const needle = normalizeAnswer(g);
    return needle !== '' && hay.includes(` ${needle} `);
  });
}

/** Languages written without spaces between words: a gold span is found as a substring. */
const UNSPACED = new Set(['zh', 'ja', 'th', 'km', 'lo', 'my']);

/**
 * containsSpan in a language: whole words where words are spaced, a plain substring (after the
 * same normalisation) where they are not (Chinese, Thai, ...).
 */
export function containsSpanIn(answer: string, gold: readonly string[], language: string): boolean {
  if (!UNSPACED.has(language)) return containsSpan(answer, gold);
  const hay = normalizeAnswer(answer).replace(/\s+/g, '');
  return gold.some((g) => {
    const needle = normalizeAnswer(g).replace(/\s+/g, '');
    return needle !== '' && hay.includes(needle);
  });
}
