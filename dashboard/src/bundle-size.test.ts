import { describe, expect, it } from 'vitest';
import { CHUNK_BUDGET_BYTES, FIRST_LOAD_BUDGET_BYTES, measureDashboard } from '../budget.js';

// Budgets (issues 12/13): the first load of /dashboard/ ≤ 60 KB of JavaScript gzipped, each
// lazy route chunk (the charts chunk included) ≤ 40 KB gzipped. Checked on the real build that
// `npm test` makes before vitest runs.

describe('dashboard bundle budgets', () => {
  const sizes = measureDashboard();

  it('first load is at most 60 KB of gzipped JavaScript', () => {
    expect(sizes.firstLoad.length).toBeGreaterThan(0);
    expect(sizes.firstLoadGzipBytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  });

  it('every lazy chunk is at most 40 KB gzipped', () => {
    expect(sizes.chunks.length).toBeGreaterThan(5);
    expect(sizes.chunks.filter((c) => c.gzipBytes > CHUNK_BUDGET_BYTES)).toEqual([]);
  });
});
