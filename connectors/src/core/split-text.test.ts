import { describe, expect, it } from 'vitest';
import { splitText } from './split-text.js';

function expectLossless(text: string, limit: number) {
  const chunks = splitText(text, limit);
  expect(chunks.join('')).toBe(text);
  for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(limit);
  return chunks;
}

describe('splitText', () => {
  it('returns short text as one chunk, and empty text as one empty chunk', () => {
    expect(splitText('hello', 10)).toEqual(['hello']);
    expect(splitText('', 10)).toEqual(['']);
  });

  it('prefers paragraph, then line, then word boundaries', () => {
    expect(expectLossless('aaaa bbbb\n\ncccc dddd', 15)).toEqual(['aaaa bbbb\n\n', 'cccc dddd']);
    expect(expectLossless('aaaa bbbb\ncccc dddd', 15)).toEqual(['aaaa bbbb\n', 'cccc dddd']);
    expect(expectLossless('aaaa bbbb cccc dddd', 12)).toEqual(['aaaa bbbb ', 'cccc dddd']);
  });

  it('cuts hard inside a word that is longer than the limit', () => {
    expect(expectLossless('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  it('never splits a surrogate pair', () => {
    const chunks = expectLossless('abcdefghi😀z', 10);
    expect(chunks[0]).toBe('abcdefghi');
    expect(chunks[1]).toBe('😀z');
  });

  it('is lossless on long mixed text at Discord, Slack and embed limits', () => {
    const words = Array.from({ length: 5000 }, (_, i) => (i % 97 === 0 ? `\n\npara${i}` : i % 13 === 0 ? `line${i}\n` : `w${i}`)).join(' ');
    for (const limit of [2000, 3000, 4096]) expect(expectLossless(words, limit).length).toBeGreaterThan(1);
  });

  it('refuses a nonsensical limit', () => {
    expect(() => splitText('abc', 1)).toThrow(RangeError);
  });
});
