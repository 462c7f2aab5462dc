import { PGlite } from '@electric-sql/pglite';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { createPostgresStorage, type PostgresStorage } from '../src/storage/postgres.js';
import { migratePostgres } from '../src/storage/postgres/migrate.js';

/**
 * A migrated PostgreSQL with the real pgvector extension where the machine's server has none:
 * PGlite (PostgreSQL 18 compiled to WASM, in this process) with its pgvector build, served over
 * the wire protocol on a loopback port by pglite-socket, so the server's own pg adapter and
 * migrations run against it unchanged. PGlite is one session: the storage's pool has one
 * connection (pglite-socket serves one client at a time). Migration 001 creates citext, which
 * PGlite ships as a contrib extension: loaded here. Starting takes 3-4 s (WASM).
 */
export interface PgliteDatabase {
  storage: PostgresStorage;
  close(): Promise<void>;
}

export async function startPglite(): Promise<PgliteDatabase> {
  const db = await PGlite.create({ extensions: { vector, citext } });
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1' });
  await server.start();
  const address = (server as unknown as { server?: { address?: () => { port: number } } }).server?.address?.();
  if (!address) throw new Error('pglite-socket gave no port');
  const storage = createPostgresStorage(
    { host: '127.0.0.1', port: address.port, user: 'postgres', database: 'postgres' },
    { poolSize: 1, applicationName: 'parley-test-pglite' },
  );
  await migratePostgres(storage);
  return {
    storage,
    async close() {
      await storage.close();
      await server.stop();
      await db.close();
    },
  };
}
