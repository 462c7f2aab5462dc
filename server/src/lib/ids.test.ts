import { describe, expect, it, vi } from 'vitest';
import { newId, randomBase62, sortableRandom } from './ids.js';

describe('ids', () => {
  it('are a prefix plus 20 base62 chars, unique', () => {
    const ids = Array.from({ length: 5_000 }, () => newId('msg'));
    for (const id of ids.slice(0, 50)) expect(id).toMatch(/^msg_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sort by creation time, so indexes keyed by them grow at the end', () => {
    vi.useFakeTimers();
    try {
      const made: string[] = [];
      for (const t of [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 1, Date.UTC(2026, 5, 1), Date.UTC(2031, 0, 1)]) {
        vi.setSystemTime(t);
        made.push(sortableRandom(20));
      }
      expect([...made].sort()).toEqual(made);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps secrets fully random: every base62 char about equally likely', () => {
    const counts = new Map<string, number>();
    for (const ch of randomBase62(62 * 400)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const n of counts.values()) expect(n).toBeGreaterThan(400 * 0.6);
  });
});
