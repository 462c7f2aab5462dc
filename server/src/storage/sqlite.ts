import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { createReentryGuard } from './reentry-guard.js';
import {
  tallyIn,
  wakeAfterCommit,
  type RunResult,
  type SqliteEngine,
  type SqlParams,
  type SqlValue,
  type Tallies,
  type Tally,
  type Tx,
  type TxOptions,
} from './port.js';

/**
 * The SQLite adapter also hands out its connection, for storage/, migrations, ops scripts and
 * tests; the server's modules reach SQLite-only features through SqliteEngine (Storage.pick).
 */
export interface SqliteStorage extends SqliteEngine {
  readonly dialect: 'sqlite';
  readonly db: Database.Database;
}

/** Tx.lock on SQLite: a write transaction holds the whole database already. */
const LOCKED: Promise<void> = Promise.resolve();

interface Job {
  fn: (tx: Tx) => Promise<unknown>;
  alone: boolean;
  sharesTallies: boolean;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Statement = Database.Statement<unknown[], unknown>;
type Outcome = { ok: true; value: unknown; tallies: Tallies; committed: Array<() => void> } | { ok: false; err: unknown };
const STATEMENT_CACHE_LIMIT = 1_000;

/**
 * Storage on one better-sqlite3 connection.
 *
 * Statements run synchronously, so reads answer at once. Transactions are group-committed: the
 * jobs queued until the batch closes (one event-loop iteration after its first job: see
 * schedule) run one after another inside one BEGIN IMMEDIATE … COMMIT, each after the first in
 * its own savepoint, and every caller's promise settles after the commit (a single WAL append per
 * batch instead of per request). The tallies (Tx.tally) of the jobs that succeeded are summed across
 * the batch and written once before the commit, or earlier, before a job that does not share
 * them (TxOptions.sharesTallies) runs. While a transaction is open (it may span awaits),
 * statements from outside it wait, so nothing joins or reads a transaction it does not own.
 */
export function createSqliteStorage(
  db: Database.Database,
  opts: { maxBatch?: number; checkReentry?: boolean; maxWaitMs?: number } = {},
): SqliteStorage {
  const maxBatch = opts.maxBatch ?? 64;
  // A statement from outside waits for an open transaction at most this long: a transaction that
  // awaits its own storage (a bug the reentry guard catches under tests) fails instead of hanging.
  const maxWaitMs = opts.maxWaitMs ?? 10_000;
  // Bounded, least recently used out: dynamically built SQL (IN lists) must not grow it without bound.
  const statements = new LRUCache<string, Statement>({ max: STATEMENT_CACHE_LIMIT });
  const insideTx = createReentryGuard<true>(opts.checkReentry);
  let queue: Job[] = [];
  let scheduled = false;
  let open = false;
  let waiting: Array<() => void> = [];
  /** `close()` calls waiting for the queue to drain (nothing queued, no transaction open). */
  let drained: Array<() => void> = [];
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const savepoint = db.prepare('SAVEPOINT job');
  const release = db.prepare('RELEASE job');
  const rollbackTo = db.prepare('ROLLBACK TO job');
  let dataVersion: Statement | null = null;

  function statement(sql: string): Statement {
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql) as Statement;
      statements.set(sql, s);
    }
    return s;
  }

  function bind(params: SqlParams | undefined): unknown[] {
    if (params === undefined) return [];
    if (Array.isArray(params)) {
      const values = params as readonly SqlValue[];
      // better-sqlite3 refuses booleans; both dialects store them as 0/1.
      return values.some((v) => typeof v === 'boolean')
        ? values.map((v) => (typeof v === 'boolean' ? Number(v) : v))
        : (values as unknown[]);
    }
    const named: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(params)) named[k] = typeof v === 'boolean' ? Number(v) : v;
    return [named];
  }

  const direct = {
    all<T>(sql: string, params?: SqlParams): T[] {
      return statement(sql).all(...bind(params)) as T[];
    },
    get<T>(sql: string, params?: SqlParams): T | undefined {
      return statement(sql).get(...bind(params)) as T | undefined;
    },
    run(sql: string, params?: SqlParams): RunResult {
      return { changes: statement(sql).run(...bind(params)).changes };
    },
  };

  /** Runs `op` now, or after the open transaction if one is open (and this is not inside it). */
  function outside<T>(op: () => T): Promise<T> {
    if (open) {
      if (insideTx.current()) {
        return Promise.reject(new Error('storage used inside its own transaction: use the Tx handle passed to tx()'));
      }
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = waiting.filter((w) => w !== resume);
          reject(new Error(`waited ${maxWaitMs} ms for an open transaction (is the storage used inside its own transaction?)`));
        }, maxWaitMs);
        const resume = () => {
          clearTimeout(timer);
          try {
            resolve(op());
          } catch (err) {
            reject(err);
          }
        };
        waiting.push(resume);
      });
    }
    try {
      return Promise.resolve(op());
    } catch (err) {
      return Promise.reject(err);
    }
  }

  function handle(): { tx: Tx; deferred: Array<() => Promise<void>>; tallies: Tallies; committed: Array<() => void>; close(): void } {
    let live = true;
    const deferred: Array<() => Promise<void>> = [];
    const tallies: Tallies = new Map();
    const committed: Array<() => void> = [];
    const guard = <T>(op: () => T): Promise<T> => {
      if (!live) return Promise.reject(new Error('transaction handle used after its transaction ended'));
      try {
        return Promise.resolve(op());
      } catch (err) {
        return Promise.reject(err);
      }
    };
    const tx: Tx = {
      dialect: 'sqlite',
      inTransaction: true,
      all: (sql, params) => guard(() => direct.all(sql, params)),
      get: (sql, params) => guard(() => direct.get(sql, params)),
      run: (sql, params) => guard(() => direct.run(sql, params)),
      beforeCommit: (work) => {
        if (!live) throw new Error('transaction handle used after its transaction ended');
        deferred.push(work);
      },
      tally: <T>(kind: Tally<T>): T => {
        if (!live) throw new Error('transaction handle used after its transaction ended');
        return tallyIn(tallies, kind);
      },
      afterCommit: (wake) => {
        if (!live) throw new Error('transaction handle used after its transaction ended');
        committed.push(wake);
      },
      lock: () => (live ? LOCKED : Promise.reject(new Error('transaction handle used after its transaction ended'))),
    };
    return {
      tx,
      deferred,
      tallies,
      committed,
      close: () => {
        live = false;
      },
    };
  }

  /** Adds a job's tallies into the batch's (the batch takes over the first of each kind). */
  function mergeTallies(into: Tallies, from: Tallies): void {
    for (const [kind, t] of from) {
      if (into.has(kind)) kind.merge(into.get(kind), t);
      else into.set(kind, t);
    }
  }

  /**
   * Writes the batch's tallies, outside any job's savepoint: its jobs have been released already,
   * so a failure here fails the whole batch (as a failing COMMIT would).
   */
  async function writeTallies(pending: Tallies, committed: Array<() => void>): Promise<void> {
    const h = handle();
    try {
      await insideTx.run(true, async () => {
        for (const [kind, t] of pending) await kind.write(h.tx, t);
        for (let w = h.deferred.shift(); w; w = h.deferred.shift()) await w();
      });
      if (h.tallies.size) throw new Error('Tally.write asked for a tally: write its rows directly');
      committed.push(...h.committed);
    } finally {
      h.close();
      pending.clear();
    }
  }

  async function runJob(job: Job, inSavepoint: boolean): Promise<Outcome> {
    const h = handle();
    if (inSavepoint) savepoint.run();
    try {
      const value = await insideTx.run(true, async () => {
        const v = await job.fn(h.tx);
        // Work registered by deferred work runs too (shift, not a snapshot of the list).
        for (let w = h.deferred.shift(); w; w = h.deferred.shift()) await w();
        return v;
      });
      if (inSavepoint) release.run();
      return { ok: true, value, tallies: h.tallies, committed: h.committed };
    } catch (err) {
      if (inSavepoint) {
        rollbackTo.run();
        release.run();
      }
      return { ok: false, err };
    } finally {
      h.close();
    }
  }

  async function flush(): Promise<void> {
    scheduled = false;
    // A transaction that awaits something slow is still open: the batch after it waits its turn.
    if (open || !queue.length) return;
    let take = 1;
    if (!queue[0]?.alone) while (take < queue.length && take < maxBatch && !queue[take]?.alone) take += 1;
    const batch = queue.splice(0, take);
    open = true;
    const outcomes: Outcome[] = [];
    const tallies: Tallies = new Map();
    const committed: Array<() => void> = [];
    let commitError: unknown = null;
    try {
      begin.run();
      const savepoints = batch.length > 1;
      for (const [i, job] of batch.entries()) {
        // A job that might read the tallied rows, or delete what they refer to, sees them written.
        if (tallies.size && !job.sharesTallies) await writeTallies(tallies, committed);
        // The first job needs no savepoint (nor the copies of the pages it changes that one keeps):
        // when it fails nothing else has run yet, so the transaction starts again without it.
        const outcome = await runJob(job, savepoints && i > 0);
        outcomes.push(outcome);
        if (outcome.ok) {
          mergeTallies(tallies, outcome.tallies);
          committed.push(...outcome.committed);
        } else if (savepoints && i === 0) {
          if (db.inTransaction) db.exec('ROLLBACK');
          begin.run();
        }
      }
      // A lone job that failed rolls the whole transaction back; otherwise commit what succeeded.
      if (!savepoints && outcomes[0]?.ok === false) db.exec('ROLLBACK');
      else {
        if (tallies.size) await writeTallies(tallies, committed);
        commit.run();
      }
    } catch (err) {
      commitError = err;
      if (db.inTransaction) db.exec('ROLLBACK');
    } finally {
      open = false;
      const run = waiting;
      waiting = [];
      for (const resume of run) resume();
      if (queue.length) schedule();
      // After this turn's microtasks: the callers resumed by this commit run first, and what they
      // queue keeps close() waiting (it checks the queue again when woken).
      else if (drained.length) setImmediate(settleDrained);
    }
    batch.forEach((job, i) => {
      const o = outcomes[i];
      if (commitError) job.reject(commitError);
      else if (o?.ok) job.resolve(o.value);
      else job.reject(o?.err);
    });
    // flush runs from a timer, outside every transaction's context. A lone job that failed
    // registered nothing here; a batch whose commit failed wakes nobody.
    if (!commitError) wakeAfterCommit(committed);
  }

  /** Wakes the `close()` calls once the last queued transaction is over. */
  function settleDrained(): void {
    const wake = drained;
    drained = [];
    for (const resolve of wake) resolve();
  }

  /**
   * The batch closes one event-loop iteration after the first job was queued: the requests whose
   * bytes arrived in the next poll phase join it. Under load a chat turn's commit then shares its
   * appended index pages and rollup rows with ~5 other turns instead of ~3.5 (bench/serve.ts:
   * WAL pages per turn fall, and CPU per chat request by about a tenth); idle, the extra
   * iteration costs microseconds.
   */
  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() =>
      setImmediate(() => {
        void flush();
      }),
    );
  }

  const storage: SqliteStorage = {
    dialect: 'sqlite',
    db,
    soleServer: true,
    database: db,
    pick: (arms) => arms.sqlite(storage),
    dataVersion(): number {
      // Straight on the connection, not queued behind an open transaction: a pragma read, no rows.
      dataVersion ??= (db.prepare('PRAGMA data_version') as Statement).pluck();
      return db.open ? (dataVersion.get() as number) : 0;
    },
    loadExtension(file: string): void {
      db.loadExtension(file);
    },
    all: <T>(sql: string, params?: SqlParams) => outside(() => direct.all<T>(sql, params)),
    get: <T>(sql: string, params?: SqlParams) => outside(() => direct.get<T>(sql, params)),
    run: (sql: string, params?: SqlParams) => outside(() => direct.run(sql, params)),
    tx<T>(fn: (tx: Tx) => Promise<T>, options: TxOptions = {}): Promise<T> {
      if (open && insideTx.current()) {
        return Promise.reject(new Error('tx() called inside a transaction: pass the Tx handle down instead'));
      }
      return new Promise<T>((resolve, reject) => {
        queue.push({
          fn,
          alone: options.groupCommit === false,
          sharesTallies: options.sharesTallies === true,
          resolve: resolve as (v: unknown) => void,
          reject,
        });
        schedule();
      });
    },
    /**
     * Closes the connection once every transaction queued so far (and any they queue meanwhile)
     * has committed or rolled back: their callers' promises settle before it closes.
     */
    async close(): Promise<void> {
      while (queue.length || open)
        await new Promise<void>((resolve) => {
          drained.push(resolve);
        });
      if (db.open) db.close();
    },
  };
  return storage;
}
