import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PostgresStorage } from '../postgres.js';

/**
 * PostgreSQL migrations: `migrations/NNN_name.sql`, applied in order above the highest version
 * recorded in `schema_migrations`, each in its own transaction (PostgreSQL's DDL is
 * transactional, so a failed migration leaves nothing half-applied). Numbers follow the SQLite
 * migrations' spirit but not their values: 001 is the baseline equal to SQLite after its 024.
 */

export const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Session advisory lock held while migrating, so instances started together migrate one after
 * another (the second finds nothing left to do). The key is "parley" in ASCII: any constant works
 * as long as nothing else in the database uses it.
 */
export const MIGRATION_LOCK_KEY = 0x7061726c6579;

interface Migration { version: number; name: string; sql: string }

export function readPostgresMigrations(dir = migrationsDir): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f, sql: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

export async function migratePostgres(storage: PostgresStorage, opts: { dir?: string } = {}): Promise<{ applied: string[] }> {
  // One connection for the lock and every migration: a session lock belongs to its connection.
  const client = await storage.pool.connect();
  const applied: string[] = [];
  let broken: Error | undefined;
  try {
    // The pool's statement timeout would cancel a long migration, or the wait for another
    // instance's; restored (to the connection's default) before the client goes back.
    await client.query('SET statement_timeout = 0');
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version     integer PRIMARY KEY,
        name        text NOT NULL,
        applied_at  timestamptz NOT NULL DEFAULT now()
      )`);
      const done = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
      const current = done.rows[0]?.v ?? 0;
      for (const m of readPostgresMigrations(opts.dir)) {
        if (m.version <= current) continue;
        await client.query('BEGIN');
        try {
          // No parameters: the simple protocol, which runs a file of several statements.
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch((e: Error) => { broken = e; });
          throw new Error(`PostgreSQL migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
        }
        applied.push(m.name);
      }
    } finally {
      // A broken connection has lost its session, and with it the lock.
      if (!broken) {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
        await client.query('RESET statement_timeout');
      }
    }
  } finally {
    client.release(broken);
  }
  return { applied };
}
