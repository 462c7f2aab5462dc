import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Knows whether the running code is inside one of this storage's transactions, so that
 * `storage.*` or a nested `tx()` called from within a transaction fails at once with a clear
 * message instead of deadlocking (SQLite) or silently missing its own uncommitted rows
 * (PostgreSQL).
 *
 * It needs AsyncLocalStorage, which on Node 20 turns on a promise hook for every promise in the
 * process: measured as the largest single cost of a chat request (~20 % of the CPU). So it is on
 * where mistakes are made and found — under tests (vitest sets VITEST) or with
 * PARLEY_STORAGE_CHECKS=1 — and off in production, where the SQLite adapter's wait timeout still
 * turns such a deadlock into an error.
 */
export interface ReentryGuard<S> {
  run<T>(state: S, fn: () => T): T;
  current(): S | undefined;
}

export function storageChecksEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.PARLEY_STORAGE_CHECKS !== undefined) return env.PARLEY_STORAGE_CHECKS === '1' || env.PARLEY_STORAGE_CHECKS === 'true';
  return !!env.VITEST;
}

export function createReentryGuard<S>(enabled = storageChecksEnabled()): ReentryGuard<S> {
  if (!enabled) return { run: (_state, fn) => fn(), current: () => undefined };
  const als = new AsyncLocalStorage<S>();
  return { run: (state, fn) => als.run(state, fn), current: () => als.getStore() };
}
