/**
 * The storage port: the one way Parley's modules talk to their database, whichever it is.
 *
 * It is asynchronous because PostgreSQL is; SQLite sits behind the same interface (its adapter
 * answers from better-sqlite3 synchronously and wraps the result). SQL is written once with `?`
 * placeholders (or `@name` with an object) and runs on both dialects; where the dialects differ,
 * branch on `dialect` next to the statement (see README.md in this folder).
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
}

/** True for a unique/primary-key violation from either driver. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown } | null;
  return !!e && (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e.code === '23505');
}
