import { describe, expect, it } from 'vitest';
import { contentTerms, termCoverage } from './text.js';
import { stem } from './tokens.js';
import { familyStem } from './word-forms.js';

const key = (word: string) => familyStem(stem(word));

describe('word families (answer-side matching)', () => {
  it('joins irregular verb forms, irregular plurals and the derivations factoid questions trade', () => {
    expect(key('sold')).toBe(key('sell'));
    expect(key('sales')).toBe(key('sells'));
    expect(key('wrote')).toBe(key('write'));
    expect(key('written')).toBe(key('writing'));
    expect(key('began')).toBe(key('begins'));
    expect(key('won')).toBe(key('win'));
    expect(key('children')).toBe(key('child'));
    expect(key('death')).toBe(key('died'));
    expect(key('birth')).toBe(key('born'));
    expect(key('marriage')).toBe(key('married'));
    expect(key('founder')).toBe(key('founded'));
  });

  it('leaves apart forms that are also common unrelated words, and words without a family', () => {
    expect(key('found')).not.toBe(key('find'));
    expect(key('left')).not.toBe(key('leave'));
    expect(key('rose')).not.toBe(key('rise'));
    expect(key('saw')).not.toBe(key('see'));
    expect(key('ground')).not.toBe(key('grind'));
    expect(key('river')).toBe(stem('river'));
  });

  it("reaches coverage and content terms, while stem() stays the full-text engines' Porter", () => {
    expect(stem('sold')).toBe('sold'); // what FTS5, tsvector and the memory index index
    expect(contentTerms('Beyoncé sold records')).toEqual(contentTerms('Beyoncé sell record'));
    expect(termCoverage('How many records did Beyoncé sell?', 'Beyoncé sold 15 million records.')).toBe(1);
    expect(termCoverage('When did Chopin die?', "Chopin's death in 1849 ended the plans.")).toBe(1);
  });
});
