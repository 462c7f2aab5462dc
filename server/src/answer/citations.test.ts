import { describe, expect, it } from 'vitest';
import { citedWithin, createCitationMapper, mapCitations } from './citations.js';

function streamThrough(text: string, passages: number, sizes: number[]): { out: string; order: readonly number[] } {
  const mapper = createCitationMapper(passages);
  let out = '';
  let i = 0;
  let k = 0;
  while (i < text.length) {
    const n = sizes[k++ % sizes.length] as number;
    out += mapper.push(text.slice(i, i + n));
    i += n;
  }
  out += mapper.end();
  return { out, order: mapper.order };
}

describe('citation mapping', () => {
  it('renumbers citations in order of first use and remembers which passage each number is', () => {
    const { text, order } = mapCitations('Refunds take 5 days [3]. Returns are free [1, 3]. Labels print at home [1].', 6);
    expect(text).toBe('Refunds take 5 days [1]. Returns are free [2][1]. Labels print at home [2].');
    expect(order).toEqual([3, 1]);
  });

  it('drops markers naming no passage, with the space before them', () => {
    expect(mapCitations('Shipping is free [9]. It takes 3 days [2][0].', 2).text).toBe('Shipping is free. It takes 3 days [1].');
  });

  it('leaves code and brackets glued to words alone', () => {
    const text = 'Use `items[1]` or arr[2] in code [2]:\n```py\nx = [1, 2]\n```\nThen [1].';
    expect(mapCitations(text, 3).text).toBe('Use `items[1]` or arr[2] in code [1]:\n```py\nx = [1, 2]\n```\nThen [2].');
  });

  it('gives the same result however the text is split, holding back only possible markers', () => {
    const text = 'Express ships next day [2]. 配送は三日です[1]。 Keys rotate `[3]` weekly [3; 2].\n```\n[1]\n```\nEnd [1]';
    const whole = mapCitations(text, 3).text;
    for (const sizes of [[1], [2], [3, 1], [5, 2, 7], [1000]]) expect(streamThrough(text, 3, sizes).out, String(sizes)).toBe(whole);
    const mapper = createCitationMapper(3);
    expect(mapper.push('Express ships')).toBe('Express ships');
    expect(mapper.push(' next day [')).toBe(' next day');
    expect(mapper.push('2')).toBe('');
    expect(mapper.push('] and')).toBe(' [1] and');
  });

  it('knows which citations survive a cut', () => {
    const mapper = createCitationMapper(3);
    const out = mapper.push('A [2]. B [3]. C [2].') + mapper.end();
    expect(out).toBe('A [1]. B [2]. C [1].');
    expect(citedWithin(mapper.markers, out.length)).toEqual([1, 2]);
    expect(citedWithin(mapper.markers, 'A [1]. B'.length)).toEqual([1]);
  });
});
