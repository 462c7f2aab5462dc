import { describe, expect, it } from 'vitest';
import { gapTerms, jaccard } from './knowledge-gaps.js';

describe('knowledge gap grouping', () => {
  it('reduces a question to its sorted, stemmed content words', () => {
    expect(gapTerms('How do I cancel my subscriptions?')).toEqual(gapTerms('cancelling subscription, how?'));
  });

  it('scores overlap with Jaccard', () => {
    expect(jaccard(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(1);
    expect(jaccard(['a', 'b'], ['c'])).toBe(0);
    expect(jaccard(['a', 'b', 'c', 'd'], ['a', 'b', 'c'])).toBe(0.75);
  });
});
