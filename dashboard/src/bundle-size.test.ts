import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// Budgets (issue 12/13): the first load of /dashboard/ ≤ 60 KB of JavaScript gzipped, each
// lazy route chunk (the charts chunk included) ≤ 40 KB gzipped. Checked on the real build that
// `npm test` makes first (dist/ is built before vitest runs).

const DIST = join(import.meta.dirname, '..', 'dist');
const gz = (file: string) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;

/** The scripts index.html loads before anything is clicked: the entry and its preloads. */
export function firstLoadScripts(html: string): string[] {
  const refs = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/dashboard\/([^"]+\.js)"/g)].map((m) => m[1]!);
  return [...new Set(refs)];
}

describe('dashboard bundle budgets', () => {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const first = firstLoadScripts(html);
  const all = readdirSync(join(DIST, 'assets')).filter((f) => f.endsWith('.js')).map((f) => `assets/${f}`);

  it('first load is at most 60 KB of gzipped JavaScript', () => {
    expect(first.length).toBeGreaterThan(0);
    const total = first.reduce((sum, f) => sum + gz(f), 0);
    expect(total).toBeLessThanOrEqual(60 * 1024);
  });

  it('every lazy chunk is at most 40 KB gzipped', () => {
    const lazy = all.filter((f) => !first.includes(f));
    expect(lazy.length).toBeGreaterThan(5);
    const over = lazy.map((f) => ({ f, size: gz(f) })).filter((c) => c.size > 40 * 1024);
    expect(over).toEqual([]);
  });
});
