import fs from 'node:fs';
import type { DatabaseConfig } from '../config.js';
import { reanalyzeAtStart } from '../knowledge/reanalyze.js';
import { createLogger } from '../lib/logger.js';
import { openStorage } from '../storage/open.js';
import type { Storage } from '../storage/port.js';
import { CliError } from './cli.js';

/**
 * Opens the configured database for a command, as the server opens it (same adapter, same
 * migrations), beside a running server or without one. A SQLite file that does not exist is
 * refused rather than created: a wrong DATABASE_URL would otherwise give an empty new database.
 */
export async function openForCommand(database: DatabaseConfig): Promise<Storage> {
  if (database.kind === 'sqlite' && (database.path === ':memory:' || !fs.existsSync(database.path))) {
    throw new CliError(`no SQLite database at ${database.path}: set DATABASE_URL as the server has it`);
  }
  // Errors only: a migration or autovacuum note is the server's to print at its start.
  const logger = createLogger('error');
  const { storage } = await openStorage(database, logger, {
    poolSize: 2,
    applicationName: 'parley-admin',
    afterMigrate: (s) => reanalyzeAtStart(s, logger),
  });
  return storage;
}
