import { describe, expect, it } from 'vitest';
import { createFakeClock } from './clock.js';
import { createTtlCache } from './ttl-cache.js';

interface Row {
  id: string;
  org: string;
  version: number;
}

/** A cache over a "database" of rows the test edits behind its back; counts the reads. */
function setup(opts: { ttlMs?: number; maxEntries?: number } = {}) {
  const clock = createFakeClock(Date.parse('2026-03-01T10:00:00.000Z'));
  const db = new Map<string, Row>();
  const reads: string[] = [];
  const cache = createTtlCache<string, Row>({ ttlMs: opts.ttlMs ?? 5_000, maxEntries: opts.maxEntries ?? 100, groupOf: (r) => r.org });
  const load = (id: string) => async (): Promise<Row | null> => {
    reads.push(id);
    const row = db.get(id);
    return row ? { ...row } : null;
  };
  const get = (id: string) => cache.get(id, clock.now(), load(id));
  const put = (id: string, org: string, version: number) => {
    db.set(id, { id, org, version });
  };
  return { clock, db, reads, cache, load, get, put };
}

describe('createTtlCache', () => {
  it('serves a value read less than the TTL ago, and reads again from the TTL on (on the clock passed in)', async () => {
    const { clock, reads, get, put } = setup({ ttlMs: 5_000 });
    put('a', 'org_1', 1);
    expect((await get('a'))?.version).toBe(1);
    put('a', 'org_1', 2);
    clock.advance(4_999);
    expect((await get('a'))?.version).toBe(1);
    clock.advance(1);
    expect((await get('a'))?.version).toBe(2);
    expect(reads).toEqual(['a', 'a']);
  });

  it('reads again when the clock went back before the read', async () => {
    const { clock, reads, get, put } = setup();
    put('a', 'org_1', 1);
    await get('a');
    clock.set(clock.now() - 1);
    await get('a');
    expect(reads).toEqual(['a', 'a']);
  });

  it('keeps no "not found", and nothing at all with a TTL of 0', async () => {
    const none = setup();
    expect(await none.get('a')).toBeNull();
    none.put('a', 'org_1', 1);
    expect((await none.get('a'))?.version).toBe(1);

    const off = setup({ ttlMs: 0 });
    off.put('a', 'org_1', 1);
    await off.get('a');
    await off.get('a');
    expect(off.reads).toEqual(['a', 'a']);
    expect(off.cache.size).toBe(0);
  });

  it('forget drops one key; forgetGroup drops every key of the group and no other', async () => {
    const { reads, cache, get, put } = setup();
    put('a', 'org_1', 1);
    put('b', 'org_1', 1);
    put('c', 'org_2', 1);
    for (const id of ['a', 'b', 'c']) await get(id);
    put('a', 'org_1', 2);
    cache.forget('a');
    expect((await get('a'))?.version).toBe(2);
    expect((await get('b'))?.version).toBe(1);

    put('b', 'org_1', 2);
    put('c', 'org_2', 2);
    cache.forgetGroup('org_1');
    reads.length = 0;
    expect((await get('a'))?.version).toBe(2);
    expect((await get('b'))?.version).toBe(2);
    expect((await get('c'))?.version).toBe(1); // org_2 still cached
    expect(reads).toEqual(['a', 'b']);
  });

  it('a read in flight when a forget comes is returned but not kept (it may predate the change)', async () => {
    const { clock, reads, cache, get, put, load } = setup();
    put('a', 'org_1', 1);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const inFlight = cache.get('a', clock.now(), async () => {
      const row = await load('a')();
      await held;
      return row;
    });
    cache.forgetGroup('org_1');
    release();
    expect((await inFlight)?.version).toBe(1);
    put('a', 'org_1', 2);
    expect((await get('a'))?.version).toBe(2);
    expect(reads).toEqual(['a', 'a']);

    // The same for a forget of the key itself.
    put('b', 'org_1', 1);
    const again = cache.get('b', clock.now(), load('b'));
    cache.forget('b');
    await again;
    expect(cache.size).toBe(1); // only 'a', read after the forget
  });

  it('holds at most maxEntries: the least recently used goes first', async () => {
    const { reads, cache, get, put } = setup({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) put(id, 'org_1', 1);
    for (const id of ['a', 'b', 'c', 'd']) await get(id);
    expect(cache.size).toBe(3);
    reads.length = 0;
    for (const id of ['b', 'c', 'd']) await get(id);
    expect(reads).toEqual([]);
    await get('a');
    expect(reads).toEqual(['a']);
    expect(cache.size).toBe(3);
  });

  it('keeps an entry read recently over one stored later but not read since', async () => {
    const { reads, get, put } = setup({ maxEntries: 2 });
    for (const id of ['a', 'b', 'c']) put(id, 'org_1', 1);
    await get('a');
    await get('b');
    await get('a'); // a hit: 'a' is now the most recently used
    await get('c'); // full: 'b' goes, not 'a'
    reads.length = 0;
    await get('a');
    expect(reads).toEqual([]);
    await get('b');
    expect(reads).toEqual(['b']);
  });
});
