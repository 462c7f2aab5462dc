import pg from 'pg';
import { backoffDelay, type Backoff } from '../net/backoff.js';
import { isStalePlan, StatementNames } from './pg-statements.js';
import { toNumbered } from './placeholders.js';
import { createReentryGuard } from './reentry-guard.js';
import { listenOn } from './postgres/listen.js';
import {
  tallyIn,
  wakeAfterCommit,
  type PostgresEngine,
  type RunResult,
  type SqlParams,
  type SqlValue,
  type Tallies,
  type Tally,
  type Tx,
} from './port.js';

/**
 * The PostgreSQL adapter also hands out its pool, for storage/, migrations, ops scripts and tests;
 * the server's modules reach PostgreSQL-only features through PostgresEngine (Storage.pick).
 */
export interface PostgresStorage extends PostgresEngine {
  readonly dialect: 'postgres';
  readonly pool: pg.Pool;
}

export interface PostgresStorageOptions {
  /**
   * Connections in this instance's pool (default 10). Every instance holds up to this many, so
   * instances × poolSize (+ migrations, psql, backups) must stay below the server's
   * `max_connections` (100 by default). One chat request holds one connection for its one write
   * transaction (a few ms), reads take one per statement: 10 covered the measured single-instance
   * throughput; raise it with cores, not with request concurrency.
   */
  poolSize?: number;
  /** Any statement running longer is cancelled by the server (default 30 s). */
  statementTimeoutMs?: number;
  /** A session left idle inside a transaction (a leaked handle) is ended by the server (default 60 s). */
  idleInTransactionTimeoutMs?: number;
  /**
   * A pooled connection idle this long is closed (default 5 min; pg-pool's own default is 10 s).
   * A new connection costs PostgreSQL a backend start, cold catalog caches and every statement
   * prepared again: after a lull of ten seconds the next burst paid about twice the backend CPU
   * per chat. The pool never holds more than `poolSize`, which the connection budget counts anyway.
   */
  idleTimeoutMs?: number;
  /** How long a caller waits for a free connection before failing (default 10 s). */
  connectTimeoutMs?: number;
  /** Refuse storage use inside its own transaction (reentry-guard.ts; default: under tests only). */
  checkReentry?: boolean;
  /** Shown in pg_stat_activity (default 'parley'). */
  applicationName?: string;
  /** Attempts of a transaction that fails with a serialization failure or deadlock (default 4). */
  maxAttempts?: number;
  /**
   * Named prepared statements (default true). Turn off behind a pooler that cannot carry them
   * (PgBouncer in transaction mode before 1.21).
   */
  preparedStatements?: boolean;
  /** Send a transaction's BEGIN with its first statement (pg pipeline mode; default true). */
  pipeline?: boolean;
  /** Errors of idle pooled connections (a server restart): logged, the pool reconnects. */
  onIdleError?: (err: Error) => void;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;
/** Waits between a transaction's attempts: full jitter under 5 ms, doubling to 50 ms (net/backoff.ts). */
const TX_RETRY: Backoff = { baseMs: 5, maxMs: 50 };

/** serialization_failure, deadlock_detected: the whole transaction can simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);
const ENDED = 'transaction handle used after its transaction ended';
const INSIDE = 'storage used inside its own transaction: use the Tx handle passed to tx()';
const NESTED = 'tx() called inside a transaction: pass the Tx handle down instead';
/** Tx.lock: a transaction-scoped advisory lock on the key's hash (one namespace with exclusive.ts's keys). */
const LOCK = 'SELECT pg_advisory_xact_lock(hashtext(?)) AS locked';

/**
 * int8 (COUNT, bigint columns) and numeric (SUM/AVG of integers) arrive as strings from pg; the
 * schema uses bigint for every integer, and SQLite returns numbers, so both become JS numbers.
 * An int8 beyond 2^53 would lose digits silently: refuse it loudly instead.
 */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${text} does not fit a JS number`);
  return n;
}

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (format !== 'binary') {
      if (oid === INT8_OID) return parseInt8;
      if (oid === NUMERIC_OID) return Number;
    }
    return pg.types.getTypeParser(oid, format as 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

function bindValue(v: SqlValue | undefined): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0; // integer columns hold booleans on both dialects
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return v ?? null;
}

/** `?`/`@name` SQL and its parameters → pg's `$n` text and ordered values. */
export function toQuery(sql: string, params: SqlParams | undefined): { text: string; values: unknown[] } {
  const numbered = toNumbered(sql);
  if (params === undefined) return { text: numbered.text, values: [] };
  if (Array.isArray(params)) {
    if (numbered.names.length) throw new TypeError('named SQL (@name) needs an object of parameters');
    return { text: numbered.text, values: (params as readonly SqlValue[]).map(bindValue) };
  }
  if (numbered.count > 0 && !numbered.names.length) throw new TypeError('positional SQL (?) needs an array of parameters');
  const named = params as Readonly<Record<string, SqlValue>>;
  const values = numbered.names.map((name) => {
    // An absent key would bind NULL silently; better-sqlite3 refuses it, so do we.
    if (!Object.hasOwn(named, name)) throw new RangeError(`Missing named parameter "${name}"`);
    return bindValue(named[name]);
  });
  return { text: numbered.text, values };
}

type Runner = Pick<pg.ClientBase, 'query'>;

/**
 * Statements run as named prepared statements: each connection parses and plans a text once
 * (measured on loopback under load: 0.76-1.05 ms per query instead of 1.45-1.8 ms). Names are
 * process-wide (pg-statements.ts), capped at 500 texts so dynamic SQL cannot grow them.
 */
const statementNames = new StatementNames(500);

/**
 * One statement. A prepared plan made stale by a schema change (another instance's migration)
 * gets a new name; outside a transaction the statement then simply runs again (nothing ran the
 * first time). Inside one, the transaction is already aborted: `transaction()` runs it again.
 */
async function execute(
  on: Runner,
  prepared: boolean,
  retryStale: boolean,
  sql: string,
  params: SqlParams | undefined,
): Promise<pg.QueryResult> {
  const q = toQuery(sql, params);
  const name = prepared ? statementNames.nameFor(q.text) : undefined;
  try {
    return await on.query({ text: q.text, values: q.values, name });
  } catch (err) {
    if (name === undefined || !isStalePlan(err)) throw err;
    statementNames.replace(q.text, name);
    if (!retryStale) throw err;
    return on.query({ text: q.text, values: q.values, name: statementNames.nameFor(q.text) });
  }
}

interface TxState {
  live: boolean;
  failed: unknown;
  begun: boolean;
  deferred: Array<() => Promise<void>>;
  tallies: Tallies;
  committed: Array<() => void>;
}

type Corkable = { cork?: () => void; uncork?: () => void };

/**
 * Holds a connection's writes of this tick and sends them in one write when the tick's work is
 * done: statements issued together (BEGIN and the first statement of a transaction, or
 * statements a caller sends at once with Promise.all) leave in one syscall instead of one each.
 * On loopback under load a socket write was the largest single cost of a chat on PostgreSQL
 * (writev: a quarter of the Node CPU). pg corks around each statement itself; corks nest.
 */
function corkThisTick(client: pg.PoolClient, corked: { now: boolean }): void {
  if (corked.now) return;
  const stream = (client as unknown as { connection?: { stream?: Corkable } }).connection?.stream;
  if (!stream?.cork || !stream.uncork) return;
  stream.cork();
  corked.now = true;
  process.nextTick(() => {
    corked.now = false;
    stream.uncork?.();
  });
}

/**
 * Storage on a pg pool. Statements outside a transaction take any free connection; `tx(fn)` holds
 * one connection from BEGIN to COMMIT/ROLLBACK (READ COMMITTED, PostgreSQL's default), and runs
 * `fn` again when PostgreSQL aborts it for a serialization failure or a deadlock (fn does database
 * work only, so running it again is safe).
 *
 * Unlike SQLite, a statement that fails inside a transaction aborts the whole transaction on
 * PostgreSQL: catching the error and going on would end in a COMMIT the server turns into a
 * ROLLBACK. The adapter therefore rejects `tx()` whenever a statement in it failed, even if `fn`
 * caught the error (write `ON CONFLICT` instead of catching a unique violation).
 */
export function createPostgresStorage(config: string | pg.PoolConfig, opts: PostgresStorageOptions = {}): PostgresStorage {
  const base: pg.PoolConfig = typeof config === 'string' ? { connectionString: config } : config;
  const pool = new pg.Pool({
    ...base,
    max: opts.poolSize ?? base.max ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? base.connectionTimeoutMillis ?? 10_000,
    idleTimeoutMillis: opts.idleTimeoutMs ?? base.idleTimeoutMillis ?? 300_000,
    // Sent in the startup packet: every connection of the pool gets them, reconnects included.
    application_name: opts.applicationName ?? base.application_name ?? 'parley',
    statement_timeout: opts.statementTimeoutMs ?? 30_000,
    idle_in_transaction_session_timeout: opts.idleInTransactionTimeoutMs ?? 60_000,
    types,
    // Statements sent without waiting for the previous answer (a transaction's BEGIN with its
    // first statement); each still has its own Sync, so one failing does not swallow the next.
    pipeline: opts.pipeline ?? true,
  });
  // An idle connection dropped by the server emits here; unhandled, it would crash the process.
  pool.on('error', (err) => opts.onIdleError?.(err));
  const maxAttempts = opts.maxAttempts ?? 4;
  const insideTx = createReentryGuard<TxState>(opts.checkReentry);
  const inFlight = new Set<Promise<unknown>>();
  let closing = false;

  function track<T>(p: Promise<T>): Promise<T> {
    inFlight.add(p);
    const done = () => {
      inFlight.delete(p);
    };
    p.then(done, done);
    return p;
  }

  /**
   * Outside any transaction, or after this context's transaction ended (work it started that
   * outlives it): a pooled statement. Inside a live one: refused, as on SQLite, because it would
   * not see the transaction's rows and, with every connection held by such transactions, wait forever.
   */
  function outside<T>(op: () => Promise<T>): Promise<T> {
    if (insideTx.current()?.live) return Promise.reject(new Error(INSIDE));
    if (closing) return Promise.reject(new Error('storage closed'));
    return track(op());
  }

  const prepared = opts.preparedStatements ?? true;
  // Pooled statements (on the pool) run again after a stale plan; a transaction's (on its client) do not.
  const all = async <T>(on: Runner, sql: string, params?: SqlParams): Promise<T[]> =>
    (await execute(on, prepared, on === pool, sql, params)).rows as T[];
  const get = async <T>(on: Runner, sql: string, params?: SqlParams): Promise<T | undefined> => (await all<T>(on, sql, params))[0];
  const run = async (on: Runner, sql: string, params?: SqlParams): Promise<RunResult> => ({
    changes: (await execute(on, prepared, on === pool, sql, params)).rowCount ?? 0,
  });

  /** Work to stop when the storage closes, before its pool ends (PostgresEngine.onClose). */
  const closers: Array<() => void> = [];

  function handle(client: pg.PoolClient, state: TxState): Tx {
    const corked = { now: false };
    const guard = async <T>(op: () => Promise<T>): Promise<T> => {
      if (!state.live) throw new Error(ENDED);
      corkThisTick(client, corked);
      if (!state.begun) {
        // BEGIN goes out with the transaction's first statement, in one write, without waiting for
        // its answer (the pool's connections are pipelined): one round trip less per transaction.
        // The statement cannot run without the BEGIN before it having succeeded: the only ways
        // for BEGIN to fail (connection lost, protocol error) fail what follows it too.
        state.begun = true;
        client.query('BEGIN').catch((err: unknown) => {
          state.failed ??= err;
        });
      }
      try {
        return await op();
      } catch (err) {
        state.failed ??= err;
        throw err;
      }
    };
    return {
      dialect: 'postgres',
      inTransaction: true,
      all: (sql, params) => guard(() => all(client, sql, params)),
      get: (sql, params) => guard(() => get(client, sql, params)),
      // Sent at once like any statement: one sent after it runs once the lock is held.
      lock: (key) => guard(() => get(client, LOCK, [key])).then(() => undefined),
      run: (sql, params) => guard(() => run(client, sql, params)),
      beforeCommit: (work) => {
        if (!state.live) throw new Error(ENDED);
        state.deferred.push(work);
      },
      // Each transaction writes its own tallies (attempt), after its beforeCommit work.
      tally: <T>(kind: Tally<T>): T => {
        if (!state.live) throw new Error(ENDED);
        return tallyIn(state.tallies, kind);
      },
      afterCommit: (wake) => {
        if (!state.live) throw new Error(ENDED);
        state.committed.push(wake);
      },
    };
  }

  async function attempt<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    const state: TxState = { live: true, failed: undefined, begun: false, deferred: [], tallies: new Map(), committed: [] };
    let broken: Error | undefined;
    try {
      let value: T;
      try {
        value = await insideTx.run(state, async () => {
          const tx = handle(client, state);
          const v = await fn(tx);
          // Work registered by deferred work runs too (shift, not a snapshot of the list).
          for (let w = state.deferred.shift(); w; w = state.deferred.shift()) await w();
          for (const [kind, t] of state.tallies) await kind.write(tx, t);
          return v;
        });
      } finally {
        state.live = false;
      }
      if (state.failed !== undefined) {
        throw new Error(
          `a statement failed inside this transaction, so PostgreSQL rolled it back: ${String((state.failed as Error).message ?? state.failed)}`,
          { cause: state.failed },
        );
      }
      // Nothing ran: there is no transaction to end.
      if (state.begun) {
        const res = await client.query('COMMIT');
        // COMMIT of an aborted transaction answers ROLLBACK instead of failing.
        if (res.command === 'ROLLBACK') throw new Error('PostgreSQL rolled the transaction back at COMMIT');
      }
      // Out of insideTx.run: the wake-ups run in the caller's context, not the transaction's.
      wakeAfterCommit(state.committed);
      return value;
    } catch (err) {
      try {
        if (state.begun) await client.query('ROLLBACK');
      } catch (rollbackErr) {
        // The connection is unusable (server gone, protocol error): do not hand it out again.
        broken = rollbackErr as Error;
      }
      throw err;
    } finally {
      client.release(broken);
    }
  }

  async function transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    for (let n = 1; ; n += 1) {
      try {
        return await attempt(fn);
      } catch (err) {
        const dbErr = (err as { code?: string }).code !== undefined ? err : (err as { cause?: unknown }).cause;
        const code = (dbErr as { code?: string } | undefined)?.code;
        // A stale prepared plan has its new name by now: the next attempt prepares it afresh.
        if (n >= maxAttempts || !code || !(RETRYABLE.has(code) || isStalePlan(dbErr))) throw err;
        // Two transactions that deadlocked would meet again if both retried at once.
        await new Promise((r) => setTimeout(r, backoffDelay(n - 1, TX_RETRY)));
      }
    }
  }

  const storage: PostgresStorage = {
    dialect: 'postgres',
    pool,
    // Several servers may share the database: a lease outlives its holder's restart.
    soleServer: false,
    database: pool,
    pick: (arms) => arms.postgres(storage),
    listen: (channel, handlers) => {
      const stop = listenOn(pool, channel, handlers);
      closers.push(stop); // the connection is outside the pool: pool.end() would not end it
      return stop;
    },
    onClose: (stop) => {
      closers.push(stop);
    },
    all: <T>(sql: string, params?: SqlParams) => outside(() => all<T>(pool, sql, params)),
    get: <T>(sql: string, params?: SqlParams) => outside(() => get<T>(pool, sql, params)),
    run: (sql: string, params?: SqlParams) => outside(() => run(pool, sql, params)),
    tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      if (insideTx.current()?.live) return Promise.reject(new Error(NESTED));
      if (closing) return Promise.reject(new Error('storage closed'));
      return track(transaction(fn));
    },
    async close(): Promise<void> {
      closing = true;
      while (inFlight.size) await Promise.allSettled([...inFlight]);
      for (const stop of closers.splice(0)) stop();
      await pool.end();
    },
  };
  return storage;
}
