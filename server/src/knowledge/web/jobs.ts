import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import { dialectSql } from '../../storage/dialect-sql.js';
import { leaseKind } from '../../storage/leases.js';
import type { Queryable, SqlValue, Storage, Tx } from '../../storage/port.js';

/**
 * Durable background jobs for web documents (`ingest_jobs`, migration 008) and the in-process
 * runner that works them: a few at a time, retried with backoff when the failure is transient,
 * stopped when their document is deleted, handed back to the queue on shutdown and after a
 * crash.
 *
 * Several instances may share a PostgreSQL database (issue 15): a running job is held under a
 * lease (owner = this runner's random id, epoch, lease_expires_at; migration 027), renewed every
 * lease/3 while it runs. Any instance claims a queued job, or a `processing` one whose lease
 * expired (its holder died or stalled), with epoch + 1; a holder whose renewal finds the epoch
 * changed aborts its job, and every write about the job (finish, retry, hand-back, and the
 * document writes `perform` guards with `lease.held`) is conditioned on (owner, epoch), so a
 * stalled holder that wakes up records nothing. SQLite serves one server per database file (like
 * the webhook leases), so a start there treats every lease as dead: a restart after a crash
 * resumes at once instead of waiting a lease period.
 */

export type JobKind = 'fetch' | 'crawl';
export type JobStatus = 'queued' | 'processing' | 'done' | 'failed';

export interface IngestJob {
  id: string;
  documentId: string;
  kind: JobKind;
  status: JobStatus;
  attempts: number;
  runAfter: number;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

interface JobRow {
  id: string;
  document_id: string;
  kind: JobKind;
  status: JobStatus;
  attempts: number;
  run_after: number;
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  owner: string | null;
  epoch: number | string;
  lease_expires_at: number | string;
}

const toJob = (r: JobRow): IngestJob => ({
  id: r.id,
  documentId: r.document_id,
  kind: r.kind,
  status: r.status,
  attempts: r.attempts,
  runAfter: r.run_after,
  error: r.error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  finishedAt: r.finished_at,
});

/** How a job's work ended, when it did not throw. */
export type JobResult = 'done' | 'gone';

/** A failure: transient ones are retried (up to the runner's attempts), others fail the job. */
export interface JobFailure {
  message: string;
  transient: boolean;
}

/** This runner's hold on a running job. */
export interface JobLease {
  readonly owner: string;
  readonly epoch: number;
  /**
   * Whether the lease is still this runner's. Called in the transaction of a write about the job,
   * it also locks the job row on PostgreSQL (FOR SHARE), so a takeover waits for that write to
   * commit: the write lands under the old epoch before it, or is refused.
   */
  held(q: Queryable): Promise<boolean>;
}

export interface JobHooks {
  /**
   * The work. `signal` aborts on shutdown, when the job's document is deleted and when the lease
   * was lost (another instance took the job over): guard document writes with `lease.held(tx)`.
   */
  perform(job: IngestJob, signal: AbortSignal, lease: JobLease): Promise<JobResult>;
  /** Classifies an error thrown by `perform` (anything unknown: permanent). */
  classify(err: unknown): JobFailure;
  /** The job will run again later (after a transient failure, a shutdown or a crash). */
  requeued(job: IngestJob, why: { retryAt: number | null; error: string | null }): Promise<void>;
  /** The job failed for good. */
  failed(job: IngestJob, error: string): Promise<void>;
}

export interface JobRunnerOptions {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  hooks: JobHooks;
  /** Jobs worked at once (default 2). */
  concurrency?: number;
  /** How often due retries are looked for and running jobs checked for deleted documents (ms). */
  pollMs?: number;
  /** Waits before each retry of a transient failure; its length is the number of retries. */
  retryDelaysMs?: number[];
  /** A job picked this many times without finishing (crashes) fails (default 5). */
  maxPicks?: number;
  /** How long a running job's lease lasts without renewal (ms, default 30 s); renewed every third of it. */
  leaseMs?: number;
  /** This runner's lease owner (default: a random id, new per process and per runner). */
  instanceId?: string;
}

const FINISHED_KEEP_MS = 30 * 24 * 3600_000;

/** A running job's lease: columns of its own row (storage/leases.ts). */
const LEASE = leaseKind({ table: 'ingest_jobs', key: 'id', expires: 'lease_expires_at' });

const SQL = {
  insert: `INSERT INTO ingest_jobs (id, document_id, kind, status, attempts, run_after, created_at, updated_at)
    VALUES (?, ?, ?, 'queued', 0, ?, ?, ?)`,
  live: "SELECT * FROM ingest_jobs WHERE document_id = ? AND status IN ('queued', 'processing')",
  get: 'SELECT * FROM ingest_jobs WHERE id = ?',
  // Written under the lease only (id, then LEASE.heldBy's owner and epoch), which they end.
  finish: `UPDATE ingest_jobs SET status = ?, error = ?, updated_at = ?, finished_at = ?, ${LEASE.end}
    WHERE id = ? AND status = 'processing' AND ${LEASE.heldBy}`,
  requeue: `UPDATE ingest_jobs SET status = 'queued', attempts = attempts - ?, run_after = ?, error = ?, updated_at = ?, ${LEASE.end}
    WHERE id = ? AND status = 'processing' AND ${LEASE.heldBy}`,
  prune: "DELETE FROM ingest_jobs WHERE status IN ('done', 'failed') AND finished_at < ?",
};

/**
 * Due: queued and past its backoff, or running under a free lease (LEASE.free: nobody renewed it,
 * a dead or stalled holder; this runner's own late lease is renewed by its heartbeat, not claimed
 * again, as the job is still running here). Parameters `dueParams`.
 */
const DUE = `((status = 'queued' AND run_after <= ?) OR (status = 'processing' AND ${LEASE.free}))`;
const dueParams = (owner: string, now: number): SqlValue[] => [now, ...LEASE.freeParams(owner, now)];

/**
 * Claims the next due job with a fresh lease (epoch + 1). Ids sort by creation time: the tie-break
 * between jobs due at the same moment. On PostgreSQL the candidate row is locked with SKIP LOCKED,
 * so concurrent claims on other instances pass over it rather than queue behind it; the outer
 * re-check keeps a job claimed once even where two claims read the same row (SQLite writes one at
 * a time, so there it never differs).
 */
const claimSql = (q: Queryable): string => `UPDATE ingest_jobs
  SET status = 'processing', attempts = attempts + 1, ${LEASE.take}, updated_at = ?
  WHERE id = (SELECT id FROM ingest_jobs WHERE ${DUE} ORDER BY run_after, id LIMIT 1${dialectSql(q).skipLocked})
    AND ${DUE} RETURNING *`;

/** What running a job needs to record how it ended. */
interface RunDeps {
  hooks: JobHooks;
  logger: Logger;
  clock: Clock;
  /** Delays before the retries of a transient failure, one per retry. */
  retryDelays: readonly number[];
  /** Claims after which a job that keeps being interrupted fails. */
  maxPicks: number;
  /** Records an outcome under the job's lease; false when another instance holds the job now. */
  record(job: IngestJob, lease: JobLease, sql: string, params: SqlValue[]): Promise<boolean>;
}

/**
 * Runs one claimed job and records how it ended: done; given back at shutdown (not the job's
 * fault); retried after the next delay when the failure is transient; failed otherwise, or when
 * it was interrupted too often. Nothing is recorded when its document went away or another
 * instance took it over (that one owns the outcome).
 */
async function runJob(deps: RunDeps, job: IngestJob, lease: JobLease, signal: AbortSignal): Promise<void> {
  const iso = (ms = deps.clock.now()): string => new Date(ms).toISOString();
  if (job.attempts > deps.maxPicks) {
    const error = `gave up after ${job.attempts - 1} interrupted attempts`;
    if (await deps.record(job, lease, SQL.finish, ['failed', error, iso(), iso()])) await deps.hooks.failed(job, error);
    return;
  }
  try {
    await deps.hooks.perform(job, signal, lease);
    await deps.record(job, lease, SQL.finish, ['done', null, iso(), iso()]);
  } catch (err) {
    const reason = signal.aborted ? (signal.reason as unknown) : null;
    if (reason === 'gone') return; // the document (and so the job row) is deleted: nothing to record
    if (reason === 'lost') return; // another instance holds the job now: it records the outcome
    if (reason === 'stop') {
      // Shutdown: not the job's fault, so its attempt is given back.
      if (await deps.record(job, lease, SQL.requeue, [1, deps.clock.now(), null, iso()]))
        await deps.hooks.requeued(job, { retryAt: null, error: null });
      return;
    }
    const failure = deps.hooks.classify(err);
    if (failure.transient && job.attempts <= deps.retryDelays.length) {
      const retryAt = deps.clock.now() + (deps.retryDelays[job.attempts - 1] ?? 0);
      if (!(await deps.record(job, lease, SQL.requeue, [0, retryAt, failure.message, iso()]))) return;
      await deps.hooks.requeued(job, { retryAt, error: failure.message });
      deps.logger.info('web document fetch will be retried', {
        jobId: job.id,
        documentId: job.documentId,
        error: failure.message,
        retryAt: iso(retryAt),
      });
    } else {
      if (!(await deps.record(job, lease, SQL.finish, ['failed', failure.message, iso(), iso()]))) return;
      await deps.hooks.failed(job, failure.message);
      deps.logger.info('web document fetch failed', { jobId: job.id, documentId: job.documentId, error: failure.message });
    }
  }
}

/**
 * Before anything is claimed: old finished jobs are pruned and, on SQLite (one server per
 * database file), the leases of the interrupted run are expired so its jobs are claimed at once.
 * On PostgreSQL a `processing` job may be another live instance's: it is claimed only once its
 * lease expires (any running instance does so at its next poll).
 */
async function recoverJobs(storage: Storage, clock: Clock, logger: Logger): Promise<void> {
  await storage.run(SQL.prune, [new Date(clock.now() - FINISHED_KEEP_MS).toISOString()]);
  const expired = await LEASE.expireAll(storage);
  if (expired) logger.info('web document jobs resumed after an interrupted run', { jobs: expired });
}

/** A job this runner is working on. */
interface RunningJob {
  job: IngestJob;
  lease: JobLease;
  controller: AbortController;
  settled: Promise<void>;
}

/**
 * Renews the lease of every running job. A renewal that finds the lease gone aborts the job:
 * its row deleted (document deleted) or its epoch moved on (this runner stalled past the lease
 * and another instance took the job over).
 */
async function renewLeases(
  deps: { storage: Storage; owner: string; leaseMs: number; clock: Clock; logger: Logger },
  running: Iterable<RunningJob>,
): Promise<void> {
  const { storage, owner, clock, logger } = deps;
  for (const { job, lease, controller } of [...running]) {
    if (controller.signal.aborted) continue;
    if (await LEASE.renew(storage, owner, clock.now() + deps.leaseMs, { key: job.id, epoch: lease.epoch })) continue;
    const gone = !(await storage.get<JobRow>(SQL.get, [job.id]));
    if (!gone) logger.warn('web document job taken over by another instance: stopping it here', { jobId: job.id, epoch: lease.epoch });
    controller.abort(gone ? 'gone' : 'lost');
  }
}

/** The background runner of fetch and crawl jobs (see createJobRunner). */
export interface JobRunner {
  /**
   * Queues a job for a document in the caller's transaction. When one is already queued or
   * running for it, that one is returned instead (`created: false`). Call `wake()` after the
   * commit so the runner picks it at once.
   */
  enqueue(tx: Tx, documentId: string, kind: JobKind): Promise<{ job: IngestJob; created: boolean }>;
  /** A job was queued (after its commit): claim it now rather than at the next poll. */
  wake(): void;
  /** Resolves when the job ends (done, failed, retry scheduled, gone), after `ms`, or at stop. */
  waitFor(jobId: string, ms: number): Promise<void>;
  /** Started and not stopped. */
  readonly running: boolean;
  /** This runner's lease owner id. */
  readonly instanceId: string;
  /** Starts claiming jobs (on SQLite, those of an interrupted run first). */
  start(): void;
  /** Stops picking jobs, aborts the running ones (they go back to the queue) and waits for them. */
  stop(): Promise<void>;
}

export function createJobRunner(opts: JobRunnerOptions): JobRunner {
  const { storage, clock, logger, hooks } = opts;
  const concurrency = Math.max(1, opts.concurrency ?? 2);
  const pollMs = opts.pollMs ?? 1000;
  const retryDelays = opts.retryDelaysMs ?? [5_000, 30_000];
  const maxPicks = opts.maxPicks ?? 5;
  const leaseMs = Math.max(30, opts.leaseMs ?? 30_000);
  const owner = opts.instanceId ?? newId('inst');
  const iso = (ms = clock.now()): string => new Date(ms).toISOString();
  const getJob = (id: string): Promise<JobRow | undefined> => storage.get<JobRow>(SQL.get, [id]);

  const active = new Map<string, RunningJob>();
  const waiters = new Map<string, Set<() => void>>();
  let running = false;
  /** Set once the jobs of an interrupted run are back in the queue: claims wait for it. */
  let started = false;
  let startup: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let pumping = false;
  let pumpAgain = false;

  const settle = (jobId: string): void => {
    const set = waiters.get(jobId);
    waiters.delete(jobId);
    for (const f of set ?? []) f();
  };
  const logFailure =
    (what: string) =>
    (err: unknown): void => {
      logger.error(what, { error: err instanceof Error ? err.stack : String(err) });
    };

  /** Claims due jobs while there is room; one pump at a time (a call meanwhile pumps again after). */
  async function pump(): Promise<void> {
    if (!running || !started) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        while (running && active.size < concurrency) {
          const now = clock.now();
          const due = dueParams(owner, now);
          const row = await storage.get<JobRow>(claimSql(storage), [...LEASE.takeParams(owner, now + leaseMs), iso(now), ...due, ...due]);
          if (!row) break;
          const lease = leaseOf(row.id, Number(row.epoch));
          if (!running) {
            // Stopped while the claim was in flight: the job goes back untouched.
            await storage.run(SQL.requeue, [1, row.run_after, row.error, iso(), row.id, ...LEASE.heldParams(owner, lease.epoch)]);
            break;
          }
          launch(toJob(row), lease);
        }
      } while (pumpAgain);
    } finally {
      pumping = false;
    }
  }
  const pumpSoon = (): void => {
    if (running)
      setImmediate(() => {
        pump().catch(logFailure('ingest job claim failed'));
      });
  };

  function leaseOf(jobId: string, epoch: number): JobLease {
    return {
      owner,
      epoch,
      held: (q: Queryable): Promise<boolean> => LEASE.holds(q, jobId, owner, epoch, 'share'),
    };
  }

  /**
   * Records how a job ended, under its lease only: false (nothing written) when another instance
   * took it over meanwhile, which then owns its outcome.
   */
  async function record(job: IngestJob, lease: JobLease, sql: string, params: SqlValue[]): Promise<boolean> {
    const { changes } = await storage.run(sql, [...params, job.id, ...LEASE.heldParams(owner, lease.epoch)]);
    if (!changes) logger.info('web document job lease lost: its outcome is left to the new holder', { jobId: job.id, epoch: lease.epoch });
    return changes > 0;
  }

  const runDeps: RunDeps = { hooks, logger, clock, retryDelays, maxPicks, record };

  function launch(job: IngestJob, lease: JobLease): void {
    const controller = new AbortController();
    const settled = runJob(runDeps, job, lease, controller.signal)
      .catch((err: unknown) => {
        logger.error('ingest job bookkeeping failed', { jobId: job.id, error: String(err) });
      })
      .finally(() => {
        active.delete(job.id);
        settle(job.id);
        pumpSoon();
      });
    active.set(job.id, { job, lease, controller, settled });
  }

  /** Running jobs whose row went away (document deleted) are aborted; due retries are picked. */
  async function tick(): Promise<void> {
    for (const { job, controller } of [...active.values()]) {
      if (!(await getJob(job.id))) controller.abort('gone');
    }
    await pump();
  }

  return {
    async enqueue(tx: Tx, documentId: string, kind: JobKind): Promise<{ job: IngestJob; created: boolean }> {
      const existing = await tx.get<JobRow>(SQL.live, [documentId]);
      if (existing) return { job: toJob(existing), created: false };
      const id = newId('job');
      const at = iso();
      await tx.run(SQL.insert, [id, documentId, kind, clock.now(), at, at]);
      return { job: toJob((await tx.get<JobRow>(SQL.get, [id])) as JobRow), created: true };
    },
    wake(): void {
      pumpSoon();
    },
    async waitFor(jobId: string, ms: number): Promise<void> {
      // Registered before the read: a job ending meanwhile still wakes this waiter.
      let set = waiters.get(jobId);
      if (!set) waiters.set(jobId, (set = new Set()));
      const waiting = set;
      let finish: () => void = () => undefined;
      const done = new Promise<void>((resolve) => {
        const t = setTimeout(() => finish(), ms);
        finish = (): void => {
          clearTimeout(t);
          waiting.delete(finish);
          resolve();
        };
        waiting.add(finish);
      });
      const row = await getJob(jobId);
      if (!running || !row || row.status === 'done' || row.status === 'failed') finish();
      return done;
    },
    get running(): boolean {
      return running;
    },
    get instanceId(): string {
      return owner;
    },
    start(): void {
      if (running) return;
      running = true;
      startup = recoverJobs(storage, clock, logger)
        .catch(logFailure('web document jobs could not be resumed'))
        .then(() => {
          if (!running) return;
          started = true;
          timer = setInterval(() => {
            tick().catch(logFailure('ingest job poll failed'));
          }, pollMs);
          timer.unref();
          heartbeat = setInterval(
            () => {
              renewLeases({ storage, owner, leaseMs, clock, logger }, active.values()).catch(logFailure('ingest job lease renewal failed'));
            },
            Math.floor(leaseMs / 3),
          );
          heartbeat.unref();
          pumpSoon();
        });
    },
    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      await startup;
      started = false;
      if (timer) clearInterval(timer);
      if (heartbeat) clearInterval(heartbeat);
      timer = null;
      heartbeat = null;
      const settling = [...active.values()].map((a) => {
        a.controller.abort('stop');
        return a.settled;
      });
      await Promise.all(settling);
      // A claim in flight at stop hands its job back (see pump) before the database may close.
      while (pumping) await new Promise((r) => setImmediate(r));
      for (const id of [...waiters.keys()]) settle(id);
    },
  };
}
