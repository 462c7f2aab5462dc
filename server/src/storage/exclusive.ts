import type { PostgresStorage } from './postgres.js';
import { withAdvisoryLock } from './postgres/advisory-lock.js';
import type { Storage } from './port.js';

/**
 * Runs `fn` on at most one instance at a time: periodic upkeep that every instance schedules,
 * but that should not run N times over (ending idle conversations, pruning the outbox). On
 * PostgreSQL a session advisory lock is tried (postgres/advisory-lock.ts) — an instance that does
 * not get it skips this round (`false`) rather than waiting; the lock goes away with its
 * connection if the process dies. SQLite has one server process per file: it just runs.
 */
export async function runExclusive(storage: Storage, key: number, fn: () => Promise<void>): Promise<boolean> {
  if (storage.dialect !== 'postgres') {
    await fn();
    return true;
  }
  return (await withAdvisoryLock((storage as PostgresStorage).pool, key, fn, { wait: false })).locked;
}

/** Advisory lock keys in use (one namespace for the whole database). */
export const UPKEEP_LOCK_KEY = 0x7061726c6575; // "parleu": upkeep
