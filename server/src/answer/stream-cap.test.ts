import { describe, expect, it } from 'vitest';
import { seededRandom as rng } from '../lib/seeded-random.js';
import { createStreamCap, finalText } from './stream-cap.js';
import { truncateAtWord } from '../text/truncate.js';

const WORDS = [
  'refunds',
  'go',
  'back',
  'to',
  'the',
  'original',
  'payment',
  'method',
  'within',
  '5',
  'business',
  'days',
  "don't",
  'e-mail',
  'naïve',
];
const PIECES = [
  () => '[the help page](https://shop.example.com/help/returns#refunds)',
  () => 'https://shop.example.com/a/very/long/path?with=query&and=more',
  () => '`npm run build --workspace widget`',
  () => '\n\n```sh\ncurl -s https://example.com \\\n  -H "x: y"\n```\n\n',
  () => '配送には三日から五日かかります。',
  () => '\n- ',
  () => ', ',
  () => '. ',
  () => ' (see below) ',
  () => ' [1]',
];

function randomText(r: () => number, length: number): string {
  let s = '';
  while (s.length < length) {
    const x = r();
    if (x < 0.12) s += (PIECES[Math.floor(r() * PIECES.length)] as () => string)();
    else s += `${WORDS[Math.floor(r() * WORDS.length)]} `;
  }
  return s;
}

function randomChunks(r: () => number, text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    const n = 1 + Math.floor(r() * 7);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

describe('streaming cap', () => {
  it('releases only what the final capped answer starts with, whatever the chunking (property)', () => {
    let inconsistent = 0;
    let runs = 0;
    for (let seed = 1; seed <= 600; seed++) {
      const r = rng(seed);
      const max = 100 + Math.floor(r() * 500);
      const text = randomText(r, Math.floor(r() * max * 1.6));
      const cap = createStreamCap(max);
      let shown = '';
      for (const chunk of randomChunks(r, text)) {
        shown += cap.push(chunk);
        expect(shown, `seed ${seed}`).toBe(cap.released);
        expect(shown.length, `seed ${seed}`).toBeLessThanOrEqual(max - 1);
      }
      const { text: final, rest } = cap.finish(false);
      expect(final, `seed ${seed}`).toBe(text.length <= max ? text : truncateAtWord(text, max));
      expect(final.length).toBeLessThanOrEqual(max);
      runs++;
      if (rest === null) inconsistent++;
      else expect(shown + rest, `seed ${seed}`).toBe(final);
    }
    expect(runs).toBe(600);
    expect(inconsistent).toBe(0);
  });

  it('passes the first token on at once when far from the cap, even mid-word', () => {
    const cap = createStreamCap(2000);
    expect(cap.push('Ref')).toBe('Ref');
    expect(cap.push('unds go')).toBe('unds go');
  });

  it('holds a link until it is complete, then releases it whole', () => {
    const cap = createStreamCap(2000);
    expect(cap.push('See [the')).toBe('See');
    expect(cap.push(' help page](https://shop.exa')).toBe('');
    expect(cap.push('mple.com/help) now')).toBe(' [the help page](https://shop.example.com/help) now');
  });

  it('holds a fenced code block until it closes', () => {
    const cap = createStreamCap(2000);
    expect(cap.push('Run it:\n```sh\nnpm test')).toBe('Run');
    expect(cap.push('\n```\nDone')).toBe(' it:\n```sh\nnpm test\n```\nDone');
  });

  it('near the cap releases whole words only and stops once the cut is settled', () => {
    const cap = createStreamCap(120);
    let shown = '';
    const words =
      'Refunds go back to the original payment method within five business days after the returned item arrives at our warehouse in Berlin.'.split(
        /(?<= )/,
      );
    for (const w of words) shown += cap.push(w);
    expect(shown.length).toBeLessThan(120);
    expect(/\w$/.test(shown) || shown === '').toBe(true);
    const { text, rest } = cap.finish(false);
    expect(text).toBe(truncateAtWord(words.join(''), 120));
    expect(shown + rest).toBe(text);
    expect(cap.saturated).toBe(false);
    cap.push('x'.repeat(400));
    expect(cap.saturated).toBe(true);
  });

  it('drops a half-written last word, link or code block when the provider ran out of tokens', () => {
    expect(finalText('Refunds take five business da', 2000, true)).toBe('Refunds take five business…');
    expect(finalText('Read [the guide](https://exa', 2000, true)).toBe('Read…');
    expect(finalText('Run:\n```sh\nnpm te', 2000, true)).toBe('Run…');
    expect(finalText('配送には三日', 2000, true)).toBe('配送には三日…');
    expect(finalText('Complete answer.', 2000, false)).toBe('Complete answer.');
  });
});
