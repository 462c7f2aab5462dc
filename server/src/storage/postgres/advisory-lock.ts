import type pg from 'pg';

/** What `withAdvisoryLock` resolves with: the work's value, or `locked: false` when a try found the lock taken. */
export type AdvisoryLockResult<T> = { locked: true; value: T } | { locked: false };

/**
 * Runs `fn` on one pooled connection while it holds the PostgreSQL session advisory lock `key`
 * (one namespace for the whole database: see the keys in exclusive.ts and migrate.ts). A session
 * lock belongs to its connection, so `fn` gets that connection, and the lock goes away with it if
 * the process dies.
 *
 * - `wait: true` (default) queues behind the holder (`pg_advisory_lock`). The pool's statement
 *   timeout would cancel that wait, or long work under the lock (a migration), so it is lifted
 *   for the hold and restored before the connection goes back to the pool.
 * - `wait: false` tries once (`pg_try_advisory_lock`) and resolves `{ locked: false }` when
 *   another session holds it: periodic work that one instance a round is enough for.
 *
 * The lock is released whether `fn` succeeds or throws (its error wins). A connection whose
 * unlock or reset fails is broken: it is destroyed rather than pooled, and its session's lock
 * goes with it.
 */
export async function withAdvisoryLock<T>(
  pool: pg.Pool,
  key: number,
  fn: (client: pg.PoolClient) => Promise<T>,
  opts: { wait?: boolean } = {},
): Promise<AdvisoryLockResult<T>> {
  const wait = opts.wait ?? true;
  const client = await pool.connect();
  let broken: Error | undefined;
  let holding = false;
  try {
    if (wait) {
      await client.query('SET statement_timeout = 0');
      await client.query('SELECT pg_advisory_lock($1)', [key]);
    } else {
      const got = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [key]);
      if (!got.rows[0]?.locked) return { locked: false };
    }
    holding = true;
    try {
      return { locked: true, value: await fn(client) };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]).catch((err: Error) => {
        broken = err;
      });
    }
  } catch (err) {
    // Failed before the hold (connection lost, the lock wait cancelled): not fit for the pool.
    // An error of `fn` leaves the connection as the unlock found it.
    if (!holding) broken ??= err as Error;
    throw err;
  } finally {
    if (wait && !broken)
      await client.query('RESET statement_timeout').catch((err: Error) => {
        broken = err;
      });
    client.release(broken);
  }
}
