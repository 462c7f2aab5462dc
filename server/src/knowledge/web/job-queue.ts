import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import { dialectSql } from '../../storage/dialect-sql.js';
import { leaseKind } from '../../storage/leases.js';
import type { Queryable, SqlValue, Storage } from '../../storage/port.js';
import type { IngestJob, JobKind, JobLease, JobStatus } from './job-types.js';

/** The `ingest_jobs` table (migration 008, leases 027): its rows, claims, leases and pruning. */

export interface JobRow {
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

export const toJob = (r: JobRow): IngestJob => ({
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

const FINISHED_KEEP_MS = 30 * 24 * 3600_000;

/** A running job's lease: columns of its own row (storage/leases.ts). */
export const LEASE = leaseKind({ table: 'ingest_jobs', key: 'id', expires: 'lease_expires_at' });

export const SQL = {
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
export const dueParams = (owner: string, now: number): SqlValue[] => [now, ...LEASE.freeParams(owner, now)];

/**
 * Claims the next due job with a fresh lease (epoch + 1). Ids sort by creation time: the tie-break
 * between jobs due at the same moment. On PostgreSQL the candidate row is locked with SKIP LOCKED,
 * so concurrent claims on other instances pass over it rather than queue behind it; the outer
 * re-check keeps a job claimed once even where two claims read the same row (SQLite writes one at
 * a time, so there it never differs).
 */
export const claimSql = (q: Queryable): string => `UPDATE ingest_jobs
  SET status = 'processing', attempts = attempts + 1, ${LEASE.take}, updated_at = ?
  WHERE id = (SELECT id FROM ingest_jobs WHERE ${DUE} ORDER BY run_after, id LIMIT 1${dialectSql(q).skipLocked})
    AND ${DUE} RETURNING *`;

/**
 * Before anything is claimed: old finished jobs are pruned and, on SQLite (one server per
 * database file), the leases of the interrupted run are expired so its jobs are claimed at once.
 * On PostgreSQL a `processing` job may be another live instance's: it is claimed only once its
 * lease expires (any running instance does so at its next poll).
 */
export async function recoverJobs(storage: Storage, clock: Clock, logger: Logger): Promise<void> {
  await storage.run(SQL.prune, [new Date(clock.now() - FINISHED_KEEP_MS).toISOString()]);
  const expired = await LEASE.expireAll(storage);
  if (expired) logger.info('web document jobs resumed after an interrupted run', { jobs: expired });
}

/** A running job's hold, as renewLeases sees it. */
export interface LeasedJob {
  job: IngestJob;
  lease: JobLease;
  controller: AbortController;
}

/**
 * Renews the lease of every running job. A renewal that finds the lease gone aborts the job:
 * its row deleted (document deleted) or its epoch moved on (this runner stalled past the lease
 * and another instance took the job over).
 */
export async function renewLeases(
  deps: { storage: Storage; owner: string; leaseMs: number; clock: Clock; logger: Logger },
  running: Iterable<LeasedJob>,
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
