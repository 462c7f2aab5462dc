import { describe, expect, it } from 'vitest';
import { memoByText } from './memo.js';

describe('memoByText', () => {
  it('computes each text once while it is among the last `max` distinct texts, and forgets older ones', () => {
    const computed: string[] = [];
    const memo = memoByText((t) => {
      computed.push(t);
      return t.length;
    }, 10);
    for (let i = 0; i < 100; i++) expect(memo(`text ${i}`)).toBe(`text ${i}`.length);
    expect(computed).toHaveLength(100);
    computed.length = 0;
    // The last max texts are always kept; a text used again moves to the young generation.
    for (let i = 90; i < 100; i++) memo(`text ${i}`);
    expect(computed).toEqual([]);
    // An old text is computed again: the memo did not keep all 100.
    memo('text 0');
    expect(computed).toEqual(['text 0']);
  });

  it('never misses on a working set of max texts used round-robin, as an LRU list of max would not either', () => {
    let computed = 0;
    const memo = memoByText((t) => {
      computed++;
      return t;
    }, 100);
    for (let round = 0; round < 5; round++) for (let i = 0; i < 100; i++) memo(`passage ${i}`);
    expect(computed).toBe(100);
  });

  it('keeps an entry used in every window of max new texts, however many pass by', () => {
    let hot = 0;
    const memo = memoByText((t) => {
      if (t === 'hot') hot++;
      return t;
    }, 4);
    for (let i = 0; i < 1_000; i++) {
      memo('hot');
      memo(`cold ${i}`);
    }
    expect(hot).toBe(1);
  });
});
