import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { SqlValue } from '../../storage/port.js';
import { SQL } from './job-queue.js';
import type { IngestJob, JobHooks, JobLease } from './job-types.js';

/** What running a job needs to record how it ended. */
export interface RunDeps {
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
export async function runJob(deps: RunDeps, job: IngestJob, lease: JobLease, signal: AbortSignal): Promise<void> {
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
