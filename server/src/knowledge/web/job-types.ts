import type { Queryable } from '../../storage/port.js';

/** What a web document job is, and what the runner asks of the work it runs (jobs.ts). */

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
