import { describe, expect, it } from 'vitest';
import { freshPostgresStorage, sharedPostgresDatabase } from '../../test/postgres.js';
import { runExclusive } from './exclusive.js';

describe('runExclusive (upkeep on one instance at a time)', () => {
  it('on PostgreSQL, a second instance skips the round while the first holds the lock, and gets it after', async () => {
    const a = await sharedPostgresDatabase();
    const b = a.open({ poolSize: 2 });
    try {
      const key = 424242;
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      const runs: string[] = [];
      const first = runExclusive(a.storage, key, async () => {
        runs.push('a');
        await held;
      });
      // Wait until A holds the lock.
      while (!runs.includes('a')) await new Promise((r) => setTimeout(r, 5));
      expect(
        await runExclusive(b, key, async () => {
          runs.push('b');
        }),
      ).toBe(false);
      release();
      expect(await first).toBe(true);
      expect(
        await runExclusive(b, key, async () => {
          runs.push('b');
        }),
      ).toBe(true);
      expect(runs).toEqual(['a', 'b']);
    } finally {
      await a.drop();
    }
  });

  it('releases the lock when the function throws', async () => {
    const a = await freshPostgresStorage();
    try {
      await expect(
        runExclusive(a.storage, 7, async () => {
          throw new Error('upkeep failed');
        }),
      ).rejects.toThrow('upkeep failed');
      expect(await runExclusive(a.storage, 7, async () => undefined)).toBe(true);
    } finally {
      await a.drop();
    }
  });
});
