import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import type { Storage, Tx } from '../../storage/port.js';

/**
 * Durable background jobs for web documents (`ingest_jobs`, migration 008) and the in-process
 * runner that works them: a few at a time, retried with backoff when the failure is transient,
 * stopped when their document is deleted, handed back to the queue on shutdown and after a
 * crash. One server process per database, like the webhook worker (issue 15 moves the claim to a
 * lease so that instances do not take over each other's running jobs).
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
  id: string; document_id: string; kind: JobKind; status: JobStatus; attempts: number; run_after: number; error: string | null;
  created_at: string; updated_at: string; finished_at: string | null;
}

const toJob = (r: JobRow): IngestJob => ({
  id: r.id, documentId: r.document_id, kind: r.kind, status: r.status, attempts: r.attempts, runAfter: r.run_after, error: r.error,
  createdAt: r.created_at, updatedAt: r.updated_at, finishedAt: r.finished_at,
});

/** How a job's work ended, when it did not throw. */
export type JobResult = 'done' | 'gone';

/** A failure: transient ones are retried (up to the runner's attempts), others fail the job. */
export interface JobFailure { message: string; transient: boolean }

export interface JobHooks {
  /** The work. `signal` aborts on shutdown and when the job's document is deleted. */
  perform(job: IngestJob, signal: AbortSignal): Promise<JobResult>;
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
}

const FINISHED_KEEP_MS = 30 * 24 * 3600_000;

const SQL = {
  insert: `INSERT INTO ingest_jobs (id, document_id, kind, status, attempts, run_after, created_at, updated_at)
    VALUES (?, ?, ?, 'queued', 0, ?, ?, ?)`,
  live: "SELECT * FROM ingest_jobs WHERE document_id = ? AND status IN ('queued', 'processing')",
  get: 'SELECT * FROM ingest_jobs WHERE id = ?',
  // Ids sort by creation time: the tie-break between jobs due at the same moment. The outer
  // status check keeps a job claimed once even if two claims read the same row.
  claim: `UPDATE ingest_jobs SET status = 'processing', attempts = attempts + 1, updated_at = ?
    WHERE id = (SELECT id FROM ingest_jobs WHERE status = 'queued' AND run_after <= ? ORDER BY run_after, id LIMIT 1) AND status = 'queued' RETURNING *`,
  finish: "UPDATE ingest_jobs SET status = ?, error = ?, updated_at = ?, finished_at = ? WHERE id = ? AND status = 'processing'",
  requeue: "UPDATE ingest_jobs SET status = 'queued', attempts = attempts - ?, run_after = ?, error = ?, updated_at = ? WHERE id = ? AND status = 'processing'",
  orphans: "SELECT * FROM ingest_jobs WHERE status = 'processing'",
  prune: "DELETE FROM ingest_jobs WHERE status IN ('done', 'failed') AND finished_at < ?",
};

export function createJobRunner(opts: JobRunnerOptions) {
  const { storage, clock, logger, hooks } = opts;
  const concurrency = Math.max(1, opts.concurrency ?? 2);
  const pollMs = opts.pollMs ?? 1000;
  const retryDelays = opts.retryDelaysMs ?? [5_000, 30_000];
  const maxPicks = opts.maxPicks ?? 5;
  const iso = (ms = clock.now()): string => new Date(ms).toISOString();
  const getJob = (id: string): Promise<JobRow | undefined> => storage.get<JobRow>(SQL.get, [id]);

  const active = new Map<string, { job: IngestJob; controller: AbortController; settled: Promise<void> }>();
  const waiters = new Map<string, Set<() => void>>();
  let running = false;
  /** Set once the jobs of an interrupted run are back in the queue: claims wait for it. */
  let started = false;
  let startup: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let pumping = false;
  let pumpAgain = false;

  const settle = (jobId: string): void => {
    const set = waiters.get(jobId);
    waiters.delete(jobId);
    for (const f of set ?? []) f();
  };
  const logFailure = (what: string) => (err: unknown): void => {
    logger.error(what, { error: err instanceof Error ? err.stack : String(err) });
  };

  /** Claims due jobs while there is room; one pump at a time (a call meanwhile pumps again after). */
  async function pump(): Promise<void> {
    if (!running || !started) return;
    if (pumping) { pumpAgain = true; return; }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        while (running && active.size < concurrency) {
          const row = await storage.get<JobRow>(SQL.claim, [iso(), clock.now()]);
          if (!row) break;
          if (!running) {
            // Stopped while the claim was in flight: the job goes back untouched.
            await storage.run(SQL.requeue, [1, row.run_after, row.error, iso(), row.id]);
            break;
          }
          launch(toJob(row));
        }
      } while (pumpAgain);
    } finally {
      pumping = false;
    }
  }
  const pumpSoon = (): void => {
    if (running) setImmediate(() => { pump().catch(logFailure('ingest job claim failed')); });
  };

  function launch(job: IngestJob): void {
    const controller = new AbortController();
    const settled = (async () => {
      if (job.attempts > maxPicks) {
        const error = `gave up after ${job.attempts - 1} interrupted attempts`;
        await storage.run(SQL.finish, ['failed', error, iso(), iso(), job.id]);
        await hooks.failed(job, error);
        return;
      }
      try {
        await hooks.perform(job, controller.signal);
        await storage.run(SQL.finish, ['done', null, iso(), iso(), job.id]);
      } catch (err) {
        const reason = controller.signal.aborted ? controller.signal.reason as unknown : null;
        if (reason === 'gone') return; // the document (and so the job row) is deleted: nothing to record
        if (reason === 'stop') {
          // Shutdown: not the job's fault, so its attempt is given back.
          await storage.run(SQL.requeue, [1, clock.now(), null, iso(), job.id]);
          await hooks.requeued(job, { retryAt: null, error: null });
          return;
        }
        const failure = hooks.classify(err);
        if (failure.transient && job.attempts <= retryDelays.length) {
          const retryAt = clock.now() + (retryDelays[job.attempts - 1] ?? 0);
          await storage.run(SQL.requeue, [0, retryAt, failure.message, iso(), job.id]);
          await hooks.requeued(job, { retryAt, error: failure.message });
          logger.info('web document fetch will be retried', { jobId: job.id, documentId: job.documentId, error: failure.message, retryAt: iso(retryAt) });
        } else {
          await storage.run(SQL.finish, ['failed', failure.message, iso(), iso(), job.id]);
          await hooks.failed(job, failure.message);
          logger.info('web document fetch failed', { jobId: job.id, documentId: job.documentId, error: failure.message });
        }
      }
    })().catch((err: unknown) => {
      logger.error('ingest job bookkeeping failed', { jobId: job.id, error: String(err) });
    }).finally(() => {
      active.delete(job.id);
      settle(job.id);
      pumpSoon();
    });
    active.set(job.id, { job, controller, settled });
  }

  /** Running jobs whose row went away (document deleted) are aborted; due retries are picked. */
  async function tick(): Promise<void> {
    for (const { job, controller } of [...active.values()]) {
      if (!await getJob(job.id)) controller.abort('gone');
    }
    await pump();
  }

  /** Jobs a crash left `processing` go back to the queue (before anything is claimed). */
  async function recover(): Promise<void> {
    const orphans = await storage.all<JobRow>(SQL.orphans);
    await storage.tx(async (tx) => {
      for (const row of orphans) await tx.run(SQL.requeue, [0, clock.now(), row.error, iso(), row.id]);
      await tx.run(SQL.prune, [iso(clock.now() - FINISHED_KEEP_MS)]);
    });
    for (const row of orphans) await hooks.requeued(toJob(row), { retryAt: null, error: null });
    if (orphans.length) logger.info('web document jobs resumed after an interrupted run', { jobs: orphans.length });
  }

  return {
    /**
     * Queues a job for a document in the caller's transaction. When one is already queued or
     * running for it, that one is returned instead (`created: false`). Call `wake()` after the
     * commit so the runner picks it at once.
     */
    async enqueue(tx: Tx, documentId: string, kind: JobKind): Promise<{ job: IngestJob; created: boolean }> {
      const existing = await tx.get<JobRow>(SQL.live, [documentId]);
      if (existing) return { job: toJob(existing), created: false };
      const id = newId('job');
      const at = iso();
      await tx.run(SQL.insert, [id, documentId, kind, clock.now(), at, at]);
      return { job: toJob(await tx.get<JobRow>(SQL.get, [id]) as JobRow), created: true };
    },
    /** A job was queued (after its commit): claim it now rather than at the next poll. */
    wake(): void {
      pumpSoon();
    },
    /** Resolves when the job ends (done, failed, retry scheduled, gone), after `ms`, or at stop. */
    async waitFor(jobId: string, ms: number): Promise<void> {
      // Registered before the read: a job ending meanwhile still wakes this waiter.
      let set = waiters.get(jobId);
      if (!set) waiters.set(jobId, (set = new Set()));
      const waiting = set;
      let finish: () => void = () => undefined;
      const done = new Promise<void>((resolve) => {
        const t = setTimeout(() => finish(), ms);
        finish = (): void => { clearTimeout(t); waiting.delete(finish); resolve(); };
        waiting.add(finish);
      });
      const row = await getJob(jobId);
      if (!running || !row || row.status === 'done' || row.status === 'failed') finish();
      return done;
    },
    get running(): boolean {
      return running;
    },
    /** Jobs a crash left `processing` go back to the queue; then work starts. */
    start(): void {
      if (running) return;
      running = true;
      startup = recover()
        .catch(logFailure('web document jobs could not be resumed'))
        .then(() => {
          if (!running) return;
          started = true;
          timer = setInterval(() => { tick().catch(logFailure('ingest job poll failed')); }, pollMs);
          timer.unref();
          pumpSoon();
        });
    },
    /** Stops picking jobs, aborts the running ones (they go back to the queue) and waits for them. */
    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      await startup;
      started = false;
      if (timer) clearInterval(timer);
      timer = null;
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

export type JobRunner = ReturnType<typeof createJobRunner>;
