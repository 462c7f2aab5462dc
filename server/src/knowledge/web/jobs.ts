import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import type { Queryable, SqlValue, Storage, Tx } from '../../storage/port.js';
import { runJob, type RunDeps } from './job-outcome.js';
import { LEASE, SQL, claimSql, dueParams, recoverJobs, renewLeases, toJob, type JobRow } from './job-queue.js';
import type { IngestJob, JobHooks, JobKind, JobLease } from './job-types.js';

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

/** A job this runner is working on. */
interface RunningJob {
  job: IngestJob;
  lease: JobLease;
  controller: AbortController;
  settled: Promise<void>;
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
