import type { DatabaseConfig } from '../config.js';
import { migrate } from '../db/migrate.js';
import { openDb } from '../db/open.js';
import type { Logger } from '../lib/logger.js';
import { createPostgresStorage, type PostgresStorage, type PostgresStorageOptions } from './postgres.js';
import { migratePostgres } from './postgres/migrate.js';
import { createSqliteStorage, type SqliteStorage } from './sqlite.js';

export interface OpenedStorage {
  /** Narrow on `dialect` for dialect-only work (SQLite: `.db`; PostgreSQL: `.pool`). */
  storage: SqliteStorage | PostgresStorage;
  /** Migration files applied by this start, in order. */
  applied: string[];
  /** The database was empty before this start (the first migration ran): seed the demo. */
  isNew: boolean;
}

export interface OpenStorageOptions extends Pick<PostgresStorageOptions, 'poolSize' | 'applicationName' | 'statementTimeoutMs'> {
  /**
   * Data upgrades that code, not SQL, must do once the schema is current: the caller's, so storage
   * imports no feature (main.ts and ops/ pass knowledge/reanalyze.ts's reanalyzeAtStart).
   */
  afterMigrate?: ((storage: SqliteStorage | PostgresStorage) => Promise<void>) | undefined;
}

/**
 * Opens the configured database and brings its schema up to date: SQLite through openDb (WAL,
 * foreign keys, …) and its numbered migrations; PostgreSQL through a pool and its own migrations,
 * serialized by an advisory lock so instances started together do not race.
 */
export async function openStorage(database: DatabaseConfig, logger: Logger, opts: OpenStorageOptions = {}): Promise<OpenedStorage> {
  const { afterMigrate, ...poolOpts } = opts;
  if (database.kind === 'sqlite') {
    const db = openDb(database.path);
    const { applied } = migrate(db);
    if (applied.length) logger.info('database migrated', { applied, path: database.path });
    const storage = createSqliteStorage(db);
    await afterMigrate?.(storage);
    return { storage, applied, isNew: applied.includes('001-init.sql') };
  }
  const storage = createPostgresStorage(database.url, {
    ...poolOpts,
    onIdleError: (err) => logger.warn('postgres connection lost (the pool reconnects)', { error: err.message }),
  });
  try {
    const { applied } = await migratePostgres(storage);
    if (applied.length) logger.info('database migrated', { applied, database: describe(database.url) });
    await warnWithoutAutovacuum(storage, logger);
    await afterMigrate?.(storage);
    return { storage, applied, isNew: applied.some((name) => name.startsWith('001_')) };
  } catch (err) {
    await storage.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Autovacuum off leaves the planner's statistics as they were, and a pooled connection keeps a
 * generic plan made on the statistics of an empty table (a fresh or freshly copied database) for
 * good: a sequential scan of conversations that grows with every chat (measured in the bench: a
 * chat's PostgreSQL CPU 1.5 → 5.7 ms in 30 s). Said at start, with the remedy.
 */
async function warnWithoutAutovacuum(storage: PostgresStorage, logger: Logger): Promise<void> {
  const setting = (await storage.get<{ autovacuum: string }>('SHOW autovacuum'))?.autovacuum;
  if (setting === 'off') {
    logger.warn(
      'autovacuum is off on this PostgreSQL server: turn it on, or run ANALYZE after bulk loads and as tables grow (stale statistics keep slow plans cached; docs/deploy-scale-out.md)',
    );
  }
}

/** host:port/database: for logs, never the password. */
function describe(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
}
