import { LRUCache } from 'lru-cache';

/**
 * A small per-process cache of database reads, trusted for `ttlMs` after the read: what the API
 * key resolver (auth/credentials.ts) and the chat assistant store (assistants/service.ts) keep.
 * The TTL bounds how stale a value may be here when it was changed elsewhere (another instance,
 * a direct write); a change made through this process forgets its entries at once (`forget`,
 * `forgetGroup`), so the next call reads again.
 *
 * The time is passed in on each call rather than read from a clock of the cache's own: the
 * credential resolver is handed each request's time, and tests step it on a fake clock.
 */

export interface TtlCacheOptions<V> {
  /** How long a value read is trusted. 0 keeps nothing: every call reads. */
  ttlMs: number;
  /** Entries held at most; the least recently used goes first (a burst of distinct keys cannot grow memory). */
  maxEntries: number;
  /** The group a value belongs to (its organization), for `forgetGroup`. */
  groupOf(value: V): string;
}

export interface TtlCache<K, V> {
  /**
   * The value of `key`: the one held when it was read less than the TTL before `nowMs`, else
   * `load()`'s, kept as read at `nowMs`. Null (nothing there) is returned, never kept.
   */
  get(key: K, nowMs: number, load: () => Promise<V | null>): Promise<V | null>;
  /** Drops `key`: call it after a write that changed it has committed. */
  forget(key: K): void;
  /** Drops every value of `group`: call it after a write that changed any of them has committed. */
  forgetGroup(group: string): void;
  /** Entries held (expired ones included until they are next asked for). */
  readonly size: number;
}

interface Entry<V> {
  value: V;
  readAtMs: number;
}

/**
 * lru-cache holds the entries and bounds them; the TTL is checked here against the time passed
 * in (lru-cache's own TTL reads a clock, and would trust an entry from "later" after the clock
 * went back).
 */
export function createTtlCache<K extends {}, V>(opts: TtlCacheOptions<V>): TtlCache<K, V> {
  const { ttlMs, maxEntries, groupOf } = opts;
  const entries = new LRUCache<K, Entry<V>>({ max: Math.max(1, maxEntries) });
  // Bumped by every forget: a read that started before it does not keep what it read (it may
  // predate the change the forget announces). One counter for all keys: a forget is rare, and a
  // read it needlessly keeps out is only read again next time.
  let generation = 0;

  return {
    async get(key, nowMs, load) {
      const held = entries.get(key);
      if (held) {
        // A clock that went back (tests, NTP) reads again rather than trusting an entry from "later".
        if (nowMs - held.readAtMs < ttlMs && nowMs >= held.readAtMs) return held.value;
        entries.delete(key);
      }
      // Taken before the read's first await, so a forget made while it runs is seen.
      const started = generation;
      const value = await load();
      if (value !== null && ttlMs > 0 && started === generation) entries.set(key, { value, readAtMs: nowMs });
      return value;
    },
    forget(key) {
      generation += 1;
      entries.delete(key);
    },
    forgetGroup(group) {
      generation += 1;
      // Collected first: lru-cache's iterators are not meant to survive deletes.
      const doomed = [...entries.entries()].filter(([, entry]) => groupOf(entry.value) === group);
      for (const [key] of doomed) entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
