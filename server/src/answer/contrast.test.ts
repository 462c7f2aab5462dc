import { describe, expect, it } from 'vitest';
import { oppositeSwaps } from './contrast.js';

describe('oppositeSwaps', () => {
  it('counts a question word the sentence replaces with its opposite', () => {
    expect(
      oppositeSwaps(
        'What was a major source of water pollution after the early 1980s?',
        'Until the early 1980s, industry was a major source of water pollution.',
      ),
    ).toBe(1);
    expect(
      oppositeSwaps(
        'Where are the variant forms of the name in ancient languages derived from?',
        'The variant forms of the name in modern languages are all derived from the Gaulish name.',
      ),
    ).toBe(1);
    expect(oppositeSwaps('What water runs out of the sea?', 'Rhine water runs into the sea in five places.')).toBe(1);
  });

  it('is 0 when the sentence says the word too, or when the question names both sides', () => {
    expect(oppositeSwaps('What happened after the war?', 'After the war, and before the treaty, trade resumed.')).toBe(0);
    expect(oppositeSwaps('Which is larger, the upper or the lower lake?', 'The lower lake is larger.')).toBe(0);
    expect(oppositeSwaps('When did the band start touring?', 'The band started touring in 1999.')).toBe(0);
  });

  it('compares words as written: "later" is not the opposite of "early"', () => {
    expect(oppositeSwaps('What did the early settlers grow?', 'Later settlers grew wheat.')).toBe(0);
    expect(oppositeSwaps('What did the early settlers grow?', 'Late settlers grew wheat.')).toBe(1);
  });
});
