import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PostgresStorage } from '../postgres.js';
import { withAdvisoryLock } from './advisory-lock.js';

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

interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readPostgresMigrations(dir = migrationsDir): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f, sql: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

export async function migratePostgres(storage: PostgresStorage, opts: { dir?: string } = {}): Promise<{ applied: string[] }> {
  // One connection for the lock and every migration (a session lock belongs to its connection),
  // with no statement timeout while it waits or migrates (advisory-lock.ts).
  const applied: string[] = [];
  await withAdvisoryLock(storage.pool, MIGRATION_LOCK_KEY, async (client) => {
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
        // A failed ROLLBACK means a broken connection: the unlock after it fails too, and the
        // helper then destroys the connection (its lock goes with its session).
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`PostgreSQL migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(m.name);
    }
  });
  return { applied };
}
