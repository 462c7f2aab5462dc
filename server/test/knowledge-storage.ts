import { migrate } from '../src/db/migrate.js';
import { openDb } from '../src/db/open.js';
import { createSqliteStorage, type SqliteStorage } from '../src/storage/sqlite.js';

/** A migrated in-memory database behind the storage port, with one organization (`org_t`), for the knowledge tests. */
export async function openTestStorage(): Promise<SqliteStorage> {
  const db = openDb(':memory:');
  migrate(db);
  const storage = createSqliteStorage(db);
  await storage.run("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_t', 'T', 'free', ?)", [
    '2026-01-01T00:00:00.000Z',
  ]);
  return storage;
}
