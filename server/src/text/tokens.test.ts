import { describe, expect, it } from 'vitest';
import { stem, ftsTokens, tokenize } from './tokens.js';

describe('tokenize', () => {
  it('lowercases words and drops punctuation', () => {
    expect(tokenize('Hello, World! How are YOU?')).toEqual(['hello', 'world', 'how', 'are', 'you']);
  });

  it('keeps letters and digits of any script, with accents and combining marks', () => {
    expect(tokenize('Café Straße данные')).toEqual(['café', 'straße', 'данные']);
    // A decomposed "é" (e + U+0301) is one word after NFKC, not two.
    expect(tokenize('Cafe\u0301 ok')).toEqual(['café', 'ok']);
    expect(tokenize('हिन्दी भाषा')).toEqual(['हिन्दी', 'भाषा']);
  });

  it('splits Han and kana into single characters, leaving Latin runs whole', () => {
    expect(tokenize('API设置')).toEqual(['api', '设', '置']);
    expect(tokenize('データ')).toEqual(['デ', 'ー', 'タ'].filter((c) => /\p{L}/u.test(c)));
  });

  it('keeps inner apostrophes, normalising typographic ones', () => {
    expect(tokenize("Don't stop")).toEqual(["don't", 'stop']);
    expect(tokenize('the user\u2019s key')).toEqual(['the', "user's", 'key']);
    // Quotes around a word are not part of it.
    expect(tokenize("'quoted'")).toEqual(['quoted']);
  });

  it('ignores soft hyphens and zero-width spaces inside words', () => {
    expect(tokenize('config\u00aduration zero\u200bwidth')).toEqual(['configuration', 'zerowidth']);
  });

  it('splits on hyphens, underscores and dots', () => {
    expect(tokenize('server-to-server max_tokens v2.0')).toEqual(['server', 'to', 'server', 'max', 'tokens', 'v2', '0']);
  });

  it('returns [] for empty or punctuation-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' -- ... !!! ')).toEqual([]);
  });
});

describe('stem', () => {
  it.each([
    ['cats', 'cat'],
    ['ponies', 'poni'],
    ['caresses', 'caress'],
    ['running', 'run'],
    ['hopping', 'hop'],
    ['hoping', 'hope'],
    ['connected', 'connect'],
    ['connection', 'connect'],
    ['connections', 'connect'],
    ['quickly', 'quickli'],
    ['early', 'earli'],
    ['only', 'onli'],
    ['generalization', 'gener'],
    ['1990s', '1990'],
    ['darkness', 'dark'],
    ['relational', 'relat'],
    ['settings', 'set'],
    ['yelling', 'yell'],
  ])('%s → %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it('maps inflections of one word to the same stem', () => {
    const same = (words: string[]): void => {
      expect(new Set(words.map(stem)).size, words.join(', ')).toBe(1);
    };
    same(['rotate', 'rotates', 'rotated', 'rotating', 'rotation']);
    same(['configure', 'configured', 'configuring', 'configuration']);
    same(['key', 'keys']);
    same(['reply', 'replies', 'replied']);
    same(['secure', 'secured', 'securing']);
    same(['install', 'installs', 'installed', 'installing']);
  });

  it('keeps unrelated words apart', () => {
    expect(stem('key')).not.toBe(stem('kit'));
    expect(stem('rotate')).not.toBe(stem('route'));
  });

  it('drops a possessive and lowercases', () => {
    expect(stem("user's")).toBe('user');
    expect(stem('Users')).toBe('user');
    expect(stem('RUNNING')).toBe('run');
  });

  it('folds like unicode61 (Latin diacritics removed) and leaves short words and other scripts alone', () => {
    expect(stem('is')).toBe('is');
    expect(stem('2024')).toBe('2024');
    expect(stem('v2')).toBe('v2');
    expect(stem('Café')).toBe('cafe');
    expect(stem('données')).toBe('donne');
    expect(stem('данные')).toBe('данные');
  });
});

describe('ftsTokens', () => {
  it('cuts and folds as unicode61 remove_diacritics 2: apostrophes split, ideograph runs stay whole, final sigma folds', () => {
    expect(ftsTokens("Don't stop: user's café, Ῥῆνος 中国人")).toEqual(['don', 't', 'stop', 'user', 's', 'cafe', 'ῥῆνοσ', '中国人']);
  });
});
