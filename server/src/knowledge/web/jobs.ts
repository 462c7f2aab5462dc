import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';

/**
 * Durable background jobs for web documents (`ingest_jobs`, migration 008) and the in-process
 * runner that works them: a few at a time, retried with backoff when the failure is transient,
 * stopped when their document is deleted, handed back to the queue on shutdown and after a
 * crash. One server process per database, like the webhook worker.
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
  requeued(job: IngestJob, why: { retryAt: number | null; error: string | null }): void;
  /** The job failed for good. */
  failed(job: IngestJob, error: string): void;
}

export interface JobRunnerOptions {
  db: Db;
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

export function createJobRunner(opts: JobRunnerOptions) {
  const { db, clock, logger, hooks } = opts;
  const concurrency = Math.max(1, opts.concurrency ?? 2);
  const pollMs = opts.pollMs ?? 1000;
  const retryDelays = opts.retryDelaysMs ?? [5_000, 30_000];
  const maxPicks = opts.maxPicks ?? 5;
  const iso = (ms = clock.now()): string => new Date(ms).toISOString();

  const q = {
    insert: db.prepare(`INSERT INTO ingest_jobs (id, document_id, kind, status, attempts, run_after, created_at, updated_at)
      VALUES (?, ?, ?, 'queued', 0, ?, ?, ?)`),
    live: db.prepare<[string], JobRow>("SELECT * FROM ingest_jobs WHERE document_id = ? AND status IN ('queued', 'processing')"),
    get: db.prepare<[string], JobRow>('SELECT * FROM ingest_jobs WHERE id = ?'),
    claim: db.prepare<[string, number], JobRow>(`UPDATE ingest_jobs SET status = 'processing', attempts = attempts + 1, updated_at = ?
      WHERE id = (SELECT id FROM ingest_jobs WHERE status = 'queued' AND run_after <= ? ORDER BY run_after, rowid LIMIT 1) RETURNING *`),
    finish: db.prepare("UPDATE ingest_jobs SET status = ?, error = ?, updated_at = ?, finished_at = ? WHERE id = ? AND status = 'processing'"),
    requeue: db.prepare("UPDATE ingest_jobs SET status = 'queued', attempts = attempts - ?, run_after = ?, error = ?, updated_at = ? WHERE id = ? AND status = 'processing'"),
    orphans: db.prepare<[], JobRow>("SELECT * FROM ingest_jobs WHERE status = 'processing'"),
    prune: db.prepare("DELETE FROM ingest_jobs WHERE status IN ('done', 'failed') AND finished_at < ?"),
  };

  const active = new Map<string, { job: IngestJob; controller: AbortController; settled: Promise<void> }>();
  const waiters = new Map<string, Set<() => void>>();
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let pumping = false;
  let pumpAgain = false;

  const settle = (jobId: string): void => {
    const set = waiters.get(jobId);
    waiters.delete(jobId);
    for (const f of set ?? []) f();
  };

  function pump(): void {
    if (!running) return;
    if (pumping) { pumpAgain = true; return; }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        while (running && active.size < concurrency) {
          const row = q.claim.get(iso(), clock.now());
          if (!row) break;
          launch(toJob(row));
        }
      } while (pumpAgain);
    } finally {
      pumping = false;
    }
  }

  function launch(job: IngestJob): void {
    const controller = new AbortController();
    if (job.attempts > maxPicks) {
      const error = `gave up after ${job.attempts - 1} interrupted attempts`;
      q.finish.run('failed', error, iso(), iso(), job.id);
      hooks.failed(job, error);
      settle(job.id);
      return;
    }
    const settled = (async () => {
      try {
        await hooks.perform(job, controller.signal);
        q.finish.run('done', null, iso(), iso(), job.id);
      } catch (err) {
        const reason = controller.signal.aborted ? controller.signal.reason : null;
        if (reason === 'gone') return; // the document (and so the job row) is deleted: nothing to record
        if (reason === 'stop') {
          // Shutdown: not the job's fault, so its attempt is given back.
          q.requeue.run(1, clock.now(), null, iso(), job.id);
          hooks.requeued(job, { retryAt: null, error: null });
          return;
        }
        const failure = hooks.classify(err);
        if (failure.transient && job.attempts <= retryDelays.length) {
          const retryAt = clock.now() + (retryDelays[job.attempts - 1] ?? 0);
          q.requeue.run(0, retryAt, failure.message, iso(), job.id);
          hooks.requeued(job, { retryAt, error: failure.message });
          logger.info('web document fetch will be retried', { jobId: job.id, documentId: job.documentId, error: failure.message, retryAt: iso(retryAt) });
        } else {
          q.finish.run('failed', failure.message, iso(), iso(), job.id);
          hooks.failed(job, failure.message);
          logger.info('web document fetch failed', { jobId: job.id, documentId: job.documentId, error: failure.message });
        }
      }
    })().catch((err: unknown) => {
      logger.error('ingest job bookkeeping failed', { jobId: job.id, error: String(err) });
    }).finally(() => {
      active.delete(job.id);
      settle(job.id);
      if (running) setImmediate(pump);
    });
    active.set(job.id, { job, controller, settled });
  }

  /** Running jobs whose row went away (document deleted) are aborted; due retries are picked. */
  function tick(): void {
    for (const { job, controller } of active.values()) {
      if (!q.get.get(job.id)) controller.abort('gone');
    }
    pump();
  }

  return {
    /**
     * Queues a job for a document, in the caller's transaction if any. When one is already
     * queued or running for it, that one is returned instead (`created: false`).
     */
    enqueue(documentId: string, kind: JobKind): { job: IngestJob; created: boolean } {
      const existing = q.live.get(documentId);
      if (existing) return { job: toJob(existing), created: false };
      const id = newId('job');
      const at = iso();
      q.insert.run(id, documentId, kind, clock.now(), at, at);
      if (running) setImmediate(pump);
      return { job: toJob(q.get.get(id) as JobRow), created: true };
    },
    /** Resolves when the job ends (done, failed, retry scheduled, gone), after `ms`, or at stop. */
    waitFor(jobId: string, ms: number): Promise<void> {
      return new Promise((resolve) => {
        const row = q.get.get(jobId);
        if (!running || !row || row.status === 'done' || row.status === 'failed') { resolve(); return; }
        let set = waiters.get(jobId);
        if (!set) waiters.set(jobId, (set = new Set()));
        const finish = (): void => { clearTimeout(t); set?.delete(finish); resolve(); };
        const t = setTimeout(finish, ms);
        set.add(finish);
      });
    },
    get running(): boolean {
      return running;
    },
    /** Jobs a crash left `processing` go back to the queue; then work starts. */
    start(): void {
      if (running) return;
      const orphans = q.orphans.all();
      db.transaction(() => {
        for (const row of orphans) q.requeue.run(0, clock.now(), row.error, iso(), row.id);
        q.prune.run(iso(clock.now() - FINISHED_KEEP_MS));
      })();
      for (const row of orphans) hooks.requeued(toJob(row), { retryAt: null, error: null });
      if (orphans.length) logger.info('web document jobs resumed after an interrupted run', { jobs: orphans.length });
      running = true;
      timer = setInterval(tick, pollMs);
      timer.unref();
      setImmediate(pump);
    },
    /** Stops picking jobs, aborts the running ones (they go back to the queue) and waits for them. */
    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      if (timer) clearInterval(timer);
      timer = null;
      const settling = [...active.values()].map((a) => {
        a.controller.abort('stop');
        return a.settled;
      });
      await Promise.all(settling);
      for (const id of [...waiters.keys()]) settle(id);
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
