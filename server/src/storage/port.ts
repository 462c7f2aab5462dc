/**
 * The storage port: the one way Parley's modules talk to their database, whichever it is.
 *
 * It is asynchronous because PostgreSQL is; SQLite sits behind the same interface (its adapter
 * answers from better-sqlite3 synchronously and wraps the result). SQL is written once with `?`
 * placeholders (or `@name` with an object) and runs on both dialects. Where the dialects differ,
 * the port offers what the feature needs (no module outside storage/ reads `dialect` or casts to
 * an adapter; wall.test.ts keeps it so): `Tx.lock` (a keyed lock for the transaction),
 * `dialectSql` (row-lock clauses, serial columns), `leases.ts` (claim-with-lease), and
 * `Storage.pick` for the few modules whose whole working differs per engine (full-text index,
 * change feed, delivery queue, vector index), each arm typed with its engine's capabilities.
 *
 * Writes that must commit with their cause (a message and its webhook event, a chunk and its
 * index entry) take a `Tx`: only `Storage.tx()` makes one, so the compiler refuses a write
 * helper called outside its transaction.
 */

export type Dialect = 'sqlite' | 'postgres';

/** What a placeholder may carry. Booleans are stored as 0/1 integers on both dialects. */
export type SqlValue = string | number | bigint | boolean | null | Uint8Array;

/** Positional values for `?` placeholders, or named values for `@name` placeholders. */
export type SqlParams = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

export interface RunResult {
  /** Rows inserted, updated or deleted by the statement. */
  changes: number;
}

/** Reads and single statements: what both a transaction handle and the storage itself offer. */
export interface Queryable {
  readonly dialect: Dialect;
  /** Every row the statement returns. */
  all<T = Record<string, unknown>>(sql: string, params?: SqlParams): Promise<T[]>;
  /** The first row, or undefined. */
  get<T = Record<string, unknown>>(sql: string, params?: SqlParams): Promise<T | undefined>;
  /** A statement for its effect; use `get`/`all` with RETURNING to read generated ids. */
  run(sql: string, params?: SqlParams): Promise<RunResult>;
}

/**
 * A handle on an open transaction. Valid only until the function given to `tx()` settles; a
 * statement through a finished handle throws (it would otherwise run outside any transaction).
 */
export interface Tx extends Queryable {
  readonly inTransaction: true;
  /**
   * Runs `work` in this transaction after the function given to `tx()` has returned, just before
   * the commit, in the order registered; its failure rolls the transaction back like any other.
   * For writes to rows that every transaction updates (counters): on PostgreSQL a row lock is held
   * from the write to the commit, so taking it last keeps the other transactions' wait short.
   */
  beforeCommit(work: () => Promise<void>): void;
  /**
   * This transaction's tally of `kind` (the same value on every call with that kind), written by
   * `kind.write` before the commit, after the function given to `tx()` and its `beforeCommit`
   * work. A tally of a transaction that fails is never written. On SQLite the tallies of the
   * transactions of one group commit are summed (`kind.merge`) and written once for the group
   * (see TxOptions.sharesTallies); on PostgreSQL each transaction writes its own.
   */
  tally<T>(kind: Tally<T>): T;
  /**
   * Calls `wake` once this transaction has committed, outside it (not in its async context); never
   * if it rolls back. For waking work that must see what the transaction wrote: woken before the
   * commit, such work finds nothing new on PostgreSQL, and it would run in the writer's context
   * (where the reentry guard takes its storage use for use inside the open transaction). `wake`
   * must not throw; it should only schedule.
   */
  afterCommit(wake: () => void): void;
  /**
   * Holds the lock `key` until this transaction ends: a second transaction asking for the same key
   * waits for the first to commit or roll back. For a read-then-insert that two transactions must
   * not both make (the first message of a session). PostgreSQL: `pg_advisory_xact_lock` on a hash
   * of the key (sent without waiting: a statement sent after it runs once the lock is held).
   * SQLite: nothing to do, a write transaction already holds the whole database.
   */
  lock(key: string): Promise<void>;
}

/**
 * Additions to rows that many transactions add to (counters, rollups), summed in memory and
 * written once: fewer statements, and on PostgreSQL row locks taken last (see beforeCommit).
 */
export interface Tally<T> {
  create(): T;
  /** Adds `from` into `into` (`from` is not used again). */
  merge(into: T, from: T): void;
  write(tx: Tx, tally: T): Promise<void>;
}

/** A transaction's tallies (or a batch's), by kind, in the order first asked for. */
export type Tallies = Map<Tally<unknown>, unknown>;

/** The tally of `kind` in `tallies`, created on first use: both adapters' Tx.tally. */
export function tallyIn<T>(tallies: Tallies, kind: Tally<T>): T {
  const k = kind as Tally<unknown>;
  if (!tallies.has(k)) tallies.set(k, kind.create());
  return tallies.get(k) as T;
}

/** Calls each wake-up registered with `Tx.afterCommit`, in order; one that throws does not stop the others. */
export function wakeAfterCommit(wakes: ReadonlyArray<() => void>): void {
  for (const wake of wakes) {
    try {
      wake();
    } catch (err) {
      // The transaction has committed: a wake-up's failure is not its caller's.
      process.emitWarning(`a wake-up after commit threw: ${String(err)}`);
    }
  }
}

export interface TxOptions {
  /**
   * SQLite only: let this transaction share a commit with others queued before its batch closes
   * (group commit: one event-loop iteration after the batch's first job). Each job still runs in its own savepoint, so one failing job rolls back
   * alone. Default true; PostgreSQL commits each transaction by itself.
   */
  groupCommit?: boolean;
  /**
   * SQLite only: the tallies (Tx.tally) of the transactions before this one in its group commit
   * may stay unwritten while it runs, to be summed with its own and written once before the
   * commit. Only for a transaction that neither reads tallied rows nor deletes or changes rows
   * they refer to (a chat turn); before any other transaction of the group runs, the tallies of
   * those before it are written. Default false.
   */
  sharesTallies?: boolean;
}

export interface Storage extends Queryable {
  /**
   * Runs `fn` in a transaction and resolves with its result after the commit (so an answered
   * request is durable). `fn` must do database work only: anything slow it awaits keeps the
   * transaction (on SQLite, the whole database) open.
   */
  tx<T>(fn: (tx: Tx) => Promise<T>, options?: TxOptions): Promise<T>;
  /** Closes the connection(s) after in-flight work. */
  close(): Promise<void>;
  /**
   * Whether this database serves one server alone (SQLite: one server per database file). Then
   * whatever a previous run held under a lease died with it (leases.ts expires them at start).
   */
  readonly soleServer: boolean;
  /**
   * An opaque identity of the database underneath (the SQLite connection, the PostgreSQL pool):
   * two adapters over one connection share it. Per-database singletons (the chunk change feed)
   * key a WeakMap on it.
   */
  readonly database: object;
  /**
   * The implementation for this storage's engine, for a module whose whole working differs per
   * engine (FTS5 or tsvector, a LISTEN-fed change feed or a data_version probe). Each adapter
   * calls its own arm with itself, typed with its engine's capabilities: no dialect test, no cast.
   */
  pick<T>(arms: EngineArms<T>): T;
}

/** What only SQLite offers, to the modules built on it (Storage.pick). */
export interface SqliteEngine extends Storage {
  /**
   * `PRAGMA data_version` of the connection: it changes when another connection or process commits
   * (synchronous: read on the question path, where an await would cost more than the read).
   */
  dataVersion(): number;
  /** Loads a run-time loadable extension into the connection (sqlite-vec). */
  loadExtension(file: string): void;
}

/** Handlers of a LISTEN channel (PostgresEngine.listen). */
export interface ListenHandlers {
  /** A NOTIFY on the channel (PostgreSQL delivers them at the notifying transaction's commit). */
  notify(): void;
  /** The listening connection is (re)established: notifications sent while it was away are lost. */
  connected(): void;
}

/** What only PostgreSQL offers, to the modules built on it (Storage.pick). */
export interface PostgresEngine extends Storage {
  /**
   * LISTENs on `channel` on a connection of its own (outside the pool: it takes no slot of it),
   * reconnected with backoff when it drops, ended when the storage closes. Returns the stop.
   */
  listen(channel: string, handlers: ListenHandlers): () => void;
  /** Calls `stop` when the storage closes (its pool ends), before the connections go. */
  onClose(stop: () => void): void;
}

/** One implementation per engine (Storage.pick). */
export interface EngineArms<T> {
  sqlite(engine: SqliteEngine): T;
  postgres(engine: PostgresEngine): T;
}

/** True for a unique/primary-key violation from either driver. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown } | null;
  return !!e && (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e.code === '23505');
}
