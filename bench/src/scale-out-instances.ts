import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { REPO_ROOT } from '../../server/src/paths.js';
import { copySqliteToPostgres } from '../../server/src/storage/copy-to-postgres.js';
import { createPostgresStorage } from '../../server/src/storage/postgres.js';
import { migratePostgres } from '../../server/src/storage/postgres/migrate.js';
import { scratchPostgresDatabase } from '../../server/test/postgres.js';
import { waitFor } from './scale-out-nginx.js';

export interface BenchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * ANALYZE, as autovacuum would have by now, when the server's autovacuum is off (it is on this
 * machine's PostgreSQL; on by default elsewhere). Call it after the warm-up. Why: the copy's
 * ANALYZE saw conversations and messages empty, and a connection that caches a generic plan on
 * such statistics keeps a sequential scan of conversations for good (stats change invalidates
 * it; nothing changes them with autovacuum off). The instance started first then grew slower
 * every window: PostgreSQL CPU a chat 1.5 → 5.7 ms in 30 s, while the second stayed at 1.4.
 */
export async function analyzeAsAutovacuumWould(admin: {
  query(sql: string): Promise<{ rows: Array<{ autovacuum?: string }> }>;
}): Promise<boolean> {
  const on = (await admin.query('SHOW autovacuum')).rows[0]?.autovacuum === 'on';
  if (!on) await admin.query('ANALYZE');
  return !on;
}

/**
 * A fresh PostgreSQL database holding exactly what the SQLite bench server seeded (corpus,
 * assistant, API keys): migrated, then filled by the real SQLite → PostgreSQL copy
 * (`npm run migrate:postgres`), so both backends answer the same questions over the same rows
 * and the same keys work on both.
 */
export async function postgresCopyOf(sqliteFile: string): Promise<BenchDatabase> {
  const scratch = await scratchPostgresDatabase();
  try {
    const storage = createPostgresStorage(scratch.url, { poolSize: 2, applicationName: 'parley-bench-seed' });
    // Read-only beside the serve process (WAL): one read transaction is one snapshot of its rows.
    const source = new Database(sqliteFile, { readonly: true });
    try {
      await migratePostgres(storage);
      source.exec('BEGIN');
      const report = await copySqliteToPostgres(source, storage);
      source.exec('COMMIT');
      if (!report.ok)
        throw new Error(
          `SQLite → PostgreSQL copy: row counts differ ${JSON.stringify(report.tables.filter((t) => t.sqlite !== t.postgres))}`,
        );
      // Fresh statistics for the planner, as after any bulk load.
      await storage.run('ANALYZE');
    } finally {
      source.close();
      await storage.close();
    }
  } catch (err) {
    await scratch.drop().catch(() => undefined);
    throw err;
  }
  return { url: scratch.url, name: new URL(scratch.url).pathname.slice(1), drop: scratch.drop };
}

/** A port nobody listens on now (the OS's pick; free again by the time the caller binds it, in practice). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

export interface ParleyInstance {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/**
 * `node --import tsx server/src/main.ts`, configured only through the environment as an operator
 * would: PostgreSQL, the shared Redis (a prefix of its own, so runs and other users' keys never
 * meet), no demo, errors only. Behind nginx it trusts one proxy hop, as in the deploy guide.
 * Resolves when /readyz answers 200.
 */
export async function startParley(opts: {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** Extra environment (paired measurements toggle a change through it) and node flags (--cpu-prof). */
  env?: Record<string, string>;
  nodeArgs?: string[];
  /** Another checkout to run the server from (a baseline worktree); default this one. */
  root?: string;
}): Promise<ParleyInstance> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), '--import', 'tsx', path.join(opts.root ?? REPO_ROOT, 'server/src/main.ts')],
    {
      cwd: opts.root ?? REPO_ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: opts.databaseUrl,
        DATABASE_PATH: undefined,
        REDIS_URL: opts.redisUrl,
        REDIS_KEY_PREFIX: opts.redisPrefix,
        RATE_LIMIT_STORE: 'redis',
        SEED_DEMO: 'false',
        DEMO_TRAFFIC_CONVERSATIONS: '0',
        LOG_LEVEL: 'error',
        TRUST_PROXY: '1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        ...opts.env,
      },
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    process.stderr.write(d);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`Parley on PostgreSQL exited (${child.exitCode}): ${stderr.trim()}`);
    return fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
  }, `Parley on port ${port}`);
  return {
    url,
    port,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
