import type { PostgresStorage } from './postgres.js';
import type { Storage } from './port.js';

/**
 * Runs `fn` on at most one instance at a time: periodic upkeep that every instance schedules,
 * but that should not run N times over (ending idle conversations, pruning the outbox). On
 * PostgreSQL a session advisory lock is tried on a connection of its own — an instance that does
 * not get it skips this round (`false`) rather than waiting; the lock goes away with its
 * connection if the process dies. SQLite has one server process per file: it just runs.
 */
export async function runExclusive(storage: Storage, key: number, fn: () => Promise<void>): Promise<boolean> {
  if (storage.dialect !== 'postgres') {
    await fn();
    return true;
  }
  const client = await (storage as PostgresStorage).pool.connect();
  let broken: Error | undefined;
  try {
    const got = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [key]);
    if (!got.rows[0]?.locked) return false;
    try {
      await fn();
      return true;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]).catch((err: Error) => { broken = err; });
    }
  } finally {
    client.release(broken);
  }
}

/** Advisory lock keys in use (one namespace for the whole database). */
export const UPKEEP_LOCK_KEY = 0x7061726c6575; // "parleu": upkeep
