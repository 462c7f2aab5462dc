import { describe, expect, it } from 'vitest';
import { contentTerms, questionTerms, termCoverage } from './text.js';
import { STOPWORDS } from './english.js';
import { stem } from './tokens.js';

describe('STOPWORDS and contentTerms', () => {
  it('treats question words and auxiliaries as stopwords, not domain words', () => {
    for (const w of ['what', 'how', 'when', 'where', 'who', 'why', 'which', 'does', 'do', 'can', 'is', 'are', "don't"]) {
      expect(STOPWORDS.has(w), w).toBe(true);
    }
    for (const w of ['key', 'api', 'install', 'widget', 'price']) expect(STOPWORDS.has(w), w).toBe(false);
  });

  it('keeps content words, stemmed, deduped, in order', () => {
    expect(contentTerms('How do I rotate an API key?')).toEqual([stem('rotate'), 'api', stem('key')]);
    expect(contentTerms('Keys, keys and more KEY')).toEqual([stem('key')]);
    expect(contentTerms('Where can I download invoices?')).toEqual([stem('download'), stem('invoices')]);
  });

  it('keeps question frame words out of a question\'s terms: "how many", "what year", "the name of"', () => {
    expect(questionTerms('How many people live in Berlin?')).toEqual([stem('person'), stem('live'), 'berlin']); // people: the family of person (word-forms.ts)
    expect(questionTerms('What year did the Rhine flood?')).toEqual(['rhine', stem('flood')]);
    expect(questionTerms('What type of music does she sing?')).toEqual([stem('music'), stem('sing')]);
    expect(questionTerms('What is the name of her first album?')).toEqual([stem('first'), stem('album')]);
    expect(questionTerms('Name the river.')).toEqual([stem('river')]);
    // A question that is nothing but its frame keeps it.
    expect(questionTerms('What year?')).toEqual([stem('year')]);
    // Text is not a question: "year" stays a word there.
    expect(contentTerms('In what year')).toEqual([stem('year')]);
  });

  it('returns [] for a question made only of stopwords', () => {
    expect(contentTerms('What is it? How does it do that?')).toEqual([]);
  });

  it('drops lone Latin letters but keeps lone CJK characters and numbers', () => {
    expect(contentTerms('a b 5 设')).toEqual(['5', '设']);
  });
});

describe('termCoverage', () => {
  it('is the share of question content terms present, stemmed', () => {
    expect(termCoverage('How do I rotate an API key?', 'Rotating keys through the API is easy.')).toBe(1);
    expect(termCoverage('How do I rotate an API key?', 'Keys are secret.')).toBeCloseTo(1 / 3);
    expect(termCoverage('Where are invoices?', 'Billing happens monthly.')).toBe(0);
  });

  it('is 0 when the question has no content terms', () => {
    expect(termCoverage('What is it?', 'What is it? It is everything.')).toBe(0);
  });
});
