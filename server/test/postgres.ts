import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPostgresStorage, type PostgresStorage, type PostgresStorageOptions } from '../src/storage/postgres.js';
import { migratePostgres, readPostgresMigrations } from '../src/storage/postgres/migrate.js';

/**
 * Fresh PostgreSQL databases for tests, cheaply. The migrations run once into a template database
 * (named after a hash of the migration files, so a changed migration gets a new one). A worker
 * copies it (`CREATE DATABASE parley_t_… TEMPLATE …`) only when it has no database spare;
 * `drop()` empties a database back to the template's state and keeps it for the worker's next
 * test. Needs a superuser (the default `postgres` on loopback): the reset turns foreign-key
 * triggers off.
 *
 * `PARLEY_TEST_DATABASE=postgres` is the switch the test server helper reads to run the suite on
 * PostgreSQL; `PARLEY_TEST_POSTGRES_URL` names the server (a maintenance database on it; default
 * the loopback server with trust auth).
 */

export const testDatabase: 'sqlite' | 'postgres' = process.env.PARLEY_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
export const postgresAdminUrl = process.env.PARLEY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Held while a template is built: vitest runs test files in parallel workers (and processes). */
const TEMPLATE_LOCK_KEY = 0x7061726c6574; // "parlet"
/**
 * A test database nobody is connected to and older than this was left by a worker that ended
 * (workers stay connected to theirs, spare ones included): removed when a template is checked.
 */
const STALE_MS = 10 * 60 * 1000;

let admin: pg.Pool | null = null;
/** One small pool per worker for CREATE/DROP DATABASE; it lets the process exit when idle. */
function adminPool(): pg.Pool {
  admin ??= new pg.Pool({
    connectionString: postgresAdminUrl,
    max: 2,
    idleTimeoutMillis: 1_000,
    allowExitOnIdle: true,
    application_name: 'parley-test-admin',
  });
  return admin;
}

/** The URL of another database on the test server. */
export function postgresUrlFor(database: string): string {
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

const ident = (name: string): string => {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  return `"${name}"`;
};

/** The creation time leads the name, so a later run can tell a leftover from a database just made. */
const newName = (): string => `parley_t_${Date.now().toString(36)}_${randomBytes(5).toString('hex')}`;

let template: Promise<string> | null = null;

/** The migrated template of the current migration files, built by whichever worker comes first. */
export function postgresTemplate(): Promise<string> {
  template ??= buildTemplate().catch((err: unknown) => {
    template = null;
    throw err;
  });
  return template;
}

async function buildTemplate(): Promise<string> {
  const hash = createHash('sha256');
  for (const m of readPostgresMigrations()) hash.update(m.name).update('\0').update(m.sql).update('\0');
  const name = `parley_tpl_${hash.digest('hex').slice(0, 12)}`;
  const client = await adminPool().connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      await dropStale(client);
      // Templates of earlier migration files are of no more use (a run still on them builds its
      // own again): dropped unless in use.
      const old = await client.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname LIKE 'parley\\_tpl\\_%' AND datname NOT IN ($1, $2)",
        [name, `${name}_build`],
      );
      for (const { datname } of old.rows) await client.query(`DROP DATABASE IF EXISTS ${ident(datname)}`).catch(() => undefined);
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount) return name;
      // Built under another name and renamed when complete: a run killed mid-build never leaves
      // a half-migrated template under the name others look for.
      const building = `${name}_build`;
      await client.query(`DROP DATABASE IF EXISTS ${ident(building)} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${ident(building)}`);
      const storage = createPostgresStorage(postgresUrlFor(building), { poolSize: 1, applicationName: 'parley-test-template' });
      try {
        await migratePostgres(storage);
      } finally {
        await storage.close();
      }
      await client.query(`ALTER DATABASE ${ident(building)} RENAME TO ${ident(name)}`);
      return name;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

async function dropStale(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ datname: string }>(`SELECT d.datname FROM pg_database d WHERE d.datname LIKE 'parley\\_t\\_%'
    AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)`);
  for (const { datname } of rows) {
    const born = parseInt(datname.split('_')[2] ?? '', 36);
    if (Number.isFinite(born) && Date.now() - born > STALE_MS) await client.query(`DROP DATABASE IF EXISTS ${ident(datname)} WITH (FORCE)`);
  }
}

/**
 * A test database of this worker, with its keeper: one connection held for as long as the worker
 * has the database. It runs the reset on a warm backend (a new backend first loads the catalog:
 * ~70 ms of the reset on a loaded machine), and marks the database as alive for `dropStale`.
 */
interface Held {
  name: string;
  keeper: pg.Pool;
}

/**
 * CREATE DATABASE … TEMPLATE costs 0.6-0.7 s here (fsync on; 0.45 s with it off) and DROP
 * DATABASE 0.3 s: too slow for one per test server. So databases a test is done with are reset
 * and kept here for the worker's next test.
 */
const spare: Held[] = [];

/** What a pristine copy of the template holds, read from the first copy a worker makes. */
interface Blueprint {
  tables: readonly string[];
  seed: string;
  fingerprint: string;
}
let blueprint: Promise<Blueprint> | null = null;

function keeperFor(name: string): pg.Pool {
  const keeper = new pg.Pool({
    connectionString: postgresUrlFor(name),
    max: 1,
    idleTimeoutMillis: 0,
    allowExitOnIdle: true,
    application_name: 'parley-test-keeper',
  });
  keeper.on('error', () => {
    /* the server ended the idle connection: the next query reconnects or fails */
  });
  return keeper;
}

async function takeDatabase(): Promise<Held> {
  for (let held = spare.pop(); held; held = spare.pop()) {
    const alive = await held.keeper.query('SELECT 1').then(
      () => true,
      () => false,
    );
    if (alive) return held;
    await held.keeper.end().catch(() => undefined);
  }
  const name = newName();
  for (let attempt = 1; ; attempt += 1) {
    const tpl = await postgresTemplate();
    try {
      await adminPool().query(`CREATE DATABASE ${ident(name)} TEMPLATE ${ident(tpl)}`);
      break;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= 20) throw err;
      // 3D000: a run on other migration files replaced the template: build ours again.
      if (code === '3D000') template = null;
      // 55006: someone is connected to the template (a person looking at it with psql): wait.
      else if (code === '55006') await new Promise((r) => setTimeout(r, 250));
      else throw err;
    }
  }
  const held = { name, keeper: keeperFor(name) };
  blueprint ??= readBlueprint(held.keeper).catch((err: unknown) => {
    blueprint = null;
    throw err;
  });
  await blueprint;
  return held;
}

/** The tables, and the rows the migrations seeded (as re-insert SQL), of a pristine copy. */
async function readBlueprint(db: pg.Pool): Promise<Blueprint> {
  const tables = (
    await db.query<{ t: string }>(
      "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY 1",
    )
  ).rows.map((r) => r.t);
  let seed = '';
  for (const table of tables) {
    const rows = (await db.query<{ j: unknown }>(`SELECT json_agg(x) AS j FROM ${ident(table)} x`)).rows[0]?.j;
    if (!rows) continue;
    const cols = (
      await db.query<{ c: string }>(
        "SELECT attname AS c FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum",
        [table],
      )
    ).rows
      .map((r) => ident(r.c))
      .join(', ');
    seed += `INSERT INTO ${ident(table)} (${cols}) OVERRIDING SYSTEM VALUE SELECT ${cols} FROM json_populate_recordset(NULL::${ident(table)}, ${pg.escapeLiteral(JSON.stringify(rows))});\n`;
  }
  const fingerprint = (await db.query<{ fp: string }>(FINGERPRINT)).rows[0]?.fp ?? '';
  return { tables, seed, fingerprint };
}

/**
 * A digest of the schema (relations, columns, constraints): a test that altered it leaves a
 * database the reset cannot repair, so that one is dropped instead of kept.
 */
const FINGERPRINT = `SELECT md5(string_agg(x, ',' ORDER BY x)) AS fp FROM (
  SELECT c.relname::text || c.relkind::text AS x FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
  UNION ALL SELECT c.relname::text || '.' || a.attname::text || ':' || format_type(a.atttypid, a.atttypmod) || a.attnotnull::text
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped
  UNION ALL SELECT k.conname::text || k.contype::text FROM pg_constraint k JOIN pg_namespace n ON n.oid = k.connamespace WHERE n.nspname = 'public'
) s`;

/**
 * Back to the state of a fresh copy: other sessions ended (a second server process of the test),
 * every row deleted (foreign-key triggers off, so in any order), identity sequences restarted,
 * tables made at run time dropped, the migrations' rows put back; throws when the schema itself
 * was changed. One round trip; not durable
 * (synchronous_commit off), as nothing about a test database need survive a crash.
 */
async function resetDatabase(held: Held): Promise<void> {
  const bp = await (blueprint ?? Promise.reject(new Error('no blueprint')));
  const keep = bp.tables.map((t) => `'${t}'`).join(', ');
  const results = (await held.keeper.query(`BEGIN;
SET LOCAL session_replication_role = replica;
SET LOCAL synchronous_commit = off;
DO $reset$
DECLARE r record;
BEGIN
  PERFORM pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid();
  FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' LOOP
    IF r.tablename IN (${keep}) THEN EXECUTE format('DELETE FROM %I', r.tablename);
    ELSE EXECUTE format('DROP TABLE IF EXISTS %I CASCADE', r.tablename);
    END IF;
  END LOOP;
  FOR r IN SELECT sequencename, start_value FROM pg_sequences WHERE schemaname = 'public' LOOP
    PERFORM setval(quote_ident(r.sequencename), r.start_value, false);
  END LOOP;
END
$reset$;
${bp.seed}COMMIT;
${FINGERPRINT};`)) as unknown as Array<pg.QueryResult<{ fp: string }>>;
  if (results.at(-1)?.rows[0]?.fp !== bp.fingerprint) throw new Error('the test changed the schema: not reusable');
}

async function dropDatabase(name: string): Promise<void> {
  await adminPool().query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
}

export interface FreshPostgres {
  storage: PostgresStorage;
  /** The database's URL, for a second server process on the same data. */
  url: string;
  /** Closes the storage (if still open); the database is emptied and kept for the worker's next test. */
  drop(): Promise<void>;
}

/**
 * A storage whose close() may be called more than once (a test closing it early, then its
 * cleanup): pg-pool's end() throws the second time.
 */
function closingOnce(inner: PostgresStorage): PostgresStorage {
  let closed: Promise<void> | null = null;
  return { ...inner, close: () => (closed ??= inner.close()) };
}

/** A migrated, empty PostgreSQL database of its own and a storage on it. */
export async function freshPostgresStorage(opts: PostgresStorageOptions = {}): Promise<FreshPostgres> {
  const held = await takeDatabase();
  const url = postgresUrlFor(held.name);
  const storage = closingOnce(createPostgresStorage(url, { poolSize: 4, applicationName: 'parley-test', ...opts }));
  let dropped: Promise<void> | null = null;
  return {
    storage,
    url,
    drop() {
      dropped ??= (async () => {
        await storage.close();
        try {
          await resetDatabase(held);
          spare.push(held);
        } catch {
          await held.keeper.end().catch(() => undefined);
          await dropDatabase(held.name);
        }
      })();
      return dropped;
    },
  };
}

export interface SharedPostgres extends FreshPostgres {
  /**
   * Another storage on the same database: its own pool, as another Parley instance (process) has.
   * Default: 4 connections, shown in pg_stat_activity as parley-test-b, -c, … in the order opened.
   */
  open(opts?: PostgresStorageOptions): PostgresStorage;
  /**
   * Closes every storage opened on the database (last opened first; those the test closed itself
   * are skipped), then the first storage, and gives the database back as `FreshPostgres.drop`
   * does. The database is given back even when a close fails; that error is thrown after.
   */
  drop(): Promise<void>;
}

/**
 * A migrated, empty PostgreSQL database with storages for several instances on it: `storage` is
 * the first (instance A), `open()` makes each further one. For tests of what two Parley servers on
 * one database see of each other (caches, change feeds, leases, locks).
 */
export async function sharedPostgresDatabase(opts: PostgresStorageOptions = {}): Promise<SharedPostgres> {
  const first = await freshPostgresStorage(opts);
  const opened: PostgresStorage[] = [];
  let dropped: Promise<void> | null = null;
  return {
    storage: first.storage,
    url: first.url,
    open(more = {}) {
      // A storage opened after the drop would be left open on a database another test then gets.
      if (dropped) throw new Error('sharedPostgresDatabase: open() after drop()');
      const name = `parley-test-${String.fromCharCode('b'.charCodeAt(0) + opened.length)}`;
      const storage = closingOnce(createPostgresStorage(first.url, { poolSize: 4, applicationName: name, ...more }));
      opened.push(storage);
      return storage;
    },
    drop() {
      dropped ??= (async () => {
        const failures: unknown[] = [];
        for (const storage of opened.splice(0).reverse())
          await storage.close().catch((err: unknown) => {
            failures.push(err);
          });
        await first.drop();
        if (failures.length) throw failures[0];
      })();
      return dropped;
    },
  };
}

/** An empty database (no migrations) for adapter tests; dropped by the returned function. */
export async function scratchPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = newName();
  await adminPool().query(`CREATE DATABASE ${ident(name)}`);
  return { url: postgresUrlFor(name), drop: () => dropDatabase(name) };
}
