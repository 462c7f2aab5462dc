import { describe, expect, it } from 'vitest';
import {
  auroc,
  chooseThreshold,
  containsSpan,
  meanReciprocalRank,
  normalizeAnswer,
  rankOf,
  recallAt,
  sweep,
  thresholdRow,
  THRESHOLDS,
  type Judged,
} from './metrics.js';

describe('retrieval metrics', () => {
  it('ranks are 1-based, null when the gold item is missing', () => {
    expect(rankOf([7, 3, 9], 7)).toBe(1);
    expect(rankOf([7, 3, 9], 9)).toBe(3);
    expect(rankOf([7, 3, 9], 4)).toBeNull();
    expect(rankOf([], 4)).toBeNull();
  });

  it('recall@k counts gold items within the first k; missing ones count as misses', () => {
    const ranks = [1, 2, 5, 6, null];
    expect(recallAt(ranks, 1)).toBe(1 / 5);
    expect(recallAt(ranks, 5)).toBe(3 / 5);
    expect(recallAt(ranks, 10)).toBe(4 / 5);
    expect(recallAt([], 5)).toBeNaN();
  });

  it('MRR averages reciprocal ranks, 0 for a miss', () => {
    expect(meanReciprocalRank([1, 2, 4, null])).toBeCloseTo((1 + 0.5 + 0.25 + 0) / 4, 12);
    expect(meanReciprocalRank([1, 1])).toBe(1);
    expect(meanReciprocalRank([null])).toBe(0);
  });
});

describe('AUROC (rank formula, ties one half)', () => {
  it('is 1 for a perfect separation, 0 for a reversed one, 0.5 for all ties', () => {
    expect(auroc([0.9, 0.8], [0.1, 0.2, 0.3])).toBe(1);
    expect(auroc([0.1], [0.5, 0.9])).toBe(0);
    expect(auroc([0.5, 0.5], [0.5, 0.5, 0.5])).toBe(0.5);
  });

  it('matches a pair count on a small mixed case', () => {
    // Pairs (pos, neg): (0.8: beats 0.3, 0.6, ties 0.8 → 2.5), (0.6: beats 0.3, ties 0.6, loses 0.8 → 1.5), (0.2: 0) → 4 / 9.
    expect(auroc([0.8, 0.6, 0.2], [0.3, 0.6, 0.8])).toBeCloseTo(4 / 9, 12);
  });

  it('agrees with the brute-force pair count on random scores with ties', () => {
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 48271) % 2147483647) % 10) / 10; // coarse, so ties happen
    const pos = Array.from({ length: 40 }, rnd);
    const neg = Array.from({ length: 25 }, rnd);
    let pairs = 0;
    for (const p of pos) for (const n of neg) pairs += p > n ? 1 : p === n ? 0.5 : 0;
    expect(auroc(pos, neg)).toBeCloseTo(pairs / (pos.length * neg.length), 12);
  });

  it('is undefined without both classes', () => {
    expect(auroc([], [0.2])).toBeNaN();
    expect(auroc([0.2], [])).toBeNaN();
  });
});

describe('thresholds', () => {
  // 4 answerable (3 answered correctly at most), 2 unanswerable.
  const items: Judged[] = [
    { answerable: true, correct: true, confidence: 0.9 },
    { answerable: true, correct: true, confidence: 0.6 },
    { answerable: true, correct: true, confidence: 0.3 },
    { answerable: true, correct: false, confidence: 0.7 },
    { answerable: false, correct: false, confidence: 0.4 },
    { answerable: false, correct: false, confidence: 0.1 },
  ];

  it('answers at or above the threshold, as the chat service does', () => {
    const r = thresholdRow(items, 0.6);
    expect(r.answeredShare).toBe(3 / 6); // 0.9, 0.6, 0.7
    expect(r.precision).toBe(2 / 3); // 0.7 is answerable but its answer missed the span
    expect(r.recall).toBe(2 / 4);
    expect(r.f1).toBeCloseTo((2 * (2 / 3) * 0.5) / (2 / 3 + 0.5), 12);
    expect(r.accuracy).toBe(5 / 6); // answerable answered: 3, unanswerable fallen back: 2
    expect(r.correctAnswered).toBe(2 / 3);
    expect(r.unanswerableFallback).toBe(1);
    expect(r.answerableFallback).toBe(1 / 4); // 0.3
    expect(r.balancedAccuracy).toBeCloseTo((2 / 3 + 1) / 2, 12);
  });

  it('a threshold above every score falls back on everything', () => {
    const r = thresholdRow(items, 0.95);
    expect(r.answeredShare).toBe(0);
    expect(r.precision).toBeNaN();
    expect(r.recall).toBe(0);
    expect(r.balancedAccuracy).toBe(0.5);
  });

  it('sweeps 0.05..0.95 in steps of 0.05 and picks the best balanced accuracy', () => {
    expect(THRESHOLDS).toHaveLength(19);
    expect(THRESHOLDS[0]).toBe(0.05);
    expect(THRESHOLDS[2]).toBe(0.15);
    expect(THRESHOLDS.at(-1)).toBe(0.95);
    const rows = sweep(items);
    // 0.45..0.6 answer 0.9, 0.6 (+0.7) and drop both unanswerable: balanced (2/3 + 1) / 2.
    // Lower thresholds keep the 0.4 negative; higher ones drop correct answers.
    const best = chooseThreshold(rows);
    expect(best.balancedAccuracy).toBeCloseTo(5 / 6, 12);
    expect(best.threshold).toBe(0.5); // middle of the plateau 0.45, 0.5, 0.55, 0.6
  });
});

describe('answer spans', () => {
  it('normalises as SQuAD does: case, punctuation, articles, spaces', () => {
    expect(normalizeAnswer('  The "Pale Blue Dot."  ')).toBe('pale blue dot');
    expect(normalizeAnswer('Spouter-Inn, 1,300 ft.')).toBe('spouterinn 1300 ft');
    expect(normalizeAnswer('Halemaʻumaʻu')).toBe('halemaʻumaʻu');
  });

  it('finds a gold span inside a longer answer, on word boundaries only', () => {
    expect(containsSpan('It was signed by President Ulysses S. Grant in 1872.', ['Ulysses S. Grant'])).toBe(true);
    expect(containsSpan('Eruptions come every 60 to 110 minutes.', ['roughly every 60 to 110 minutes', 'every 60 to 110 minutes'])).toBe(
      true,
    );
    expect(containsSpan('It is 1,300 feet lower.', ['300 feet'])).toBe(false);
    expect(containsSpan('anything', [])).toBe(false);
  });
});
