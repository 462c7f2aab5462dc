import { describe, expect, it } from 'vitest';
import { truncateAtWord } from './truncate.js';

describe('truncateAtWord', () => {
  const sample = 'Open Settings and choose API keys, then click Rotate next to the key you want to replace.';

  it('returns the text unchanged when it fits', () => {
    expect(truncateAtWord(sample, sample.length)).toBe(sample);
    expect(truncateAtWord('', 10)).toBe('');
  });

  it('cuts at a word boundary and appends an ellipsis within the limit', () => {
    const out = truncateAtWord(sample, 30);
    expect(out).toBe('Open Settings and choose API…');
    expect(out.length).toBeLessThanOrEqual(30);
  });

  it('drops dangling punctuation before the ellipsis', () => {
    expect(truncateAtWord('Open Settings, then click Rotate.', 16)).toBe('Open Settings…');
  });

  it('never cuts inside a markdown link or a bare URL', () => {
    const linked = 'See the [API key settings page](https://example.com/settings/keys) for details.';
    expect(truncateAtWord(linked, 50)).toBe('See the…');
    const bare = 'Docs live at https://example.com/a/very/long/path/to/docs/page now.';
    expect(truncateAtWord(bare, 40)).toBe('Docs live at…');
  });

  it('reads links and code only on the lines a cut can reach, yet still sees a link title that runs onto the next line', () => {
    // The span after the cut's line cannot matter: the cut falls on the first line.
    const later = 'Open the settings page and rotate the key.\nThen see [the guide](https://example.com/g) or `npm run x`.';
    expect(truncateAtWord(later, 30)).toBe('Open the settings page and…');
    // A link whose quoted title crosses a newline is one span from "[" to ")": no cut inside it.
    const titled = 'Read [the guide](https://example.com/g "Guide\nfor keys") first.';
    expect(truncateAtWord(titled, 30)).toBe('Read…');
  });

  it('returns "" when not even the first word fits', () => {
    expect(truncateAtWord('Supercalifragilistic word', 8)).toBe('');
    expect(truncateAtWord('anything', 1)).toBe('');
  });

  it('does not split surrogate pairs or combining marks', () => {
    const out = truncateAtWord('😀😀😀😀😀😀 done', 6);
    expect(out.length).toBeLessThanOrEqual(6);
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('cuts between CJK characters', () => {
    expect(truncateAtWord('这是一个很长的句子没有空格', 6)).toBe('这是一个很…');
    // A space earlier in the text does not pull the cut back before the CJK characters.
    expect(truncateAtWord('See [1] 配送には三日から五日かかります', 14)).toBe('See [1] 配送には三…');
  });

  it('does not leave an unclosed code fence', () => {
    const text = 'Install it:\n\n```bash\nnpm install --global parley-cli-tools-and-more\nparley init\n```';
    const out = truncateAtWord(text, 40);
    expect(out).toBe('Install it…');
  });

  it('always yields a word-aligned prefix within the limit (property check)', () => {
    const words = 'the quick brown fox jumps over lazy dogs rotate API keys securely every ninety days'.split(' ');
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 200; run++) {
      const text = Array.from({ length: 5 + Math.floor(next() * 30) }, () => words[Math.floor(next() * words.length)]).join(' ');
      const max = 2 + Math.floor(next() * 120);
      const out = truncateAtWord(text, max);
      expect(out.length).toBeLessThanOrEqual(max);
      if (out === text) continue;
      const body = out.endsWith('…') ? out.slice(0, -1) : out;
      expect(text.startsWith(body)).toBe(true);
      // The cut falls between words: what follows the kept prefix is a space.
      if (body) expect(text[body.length]).toBe(' ');
    }
  });
});
