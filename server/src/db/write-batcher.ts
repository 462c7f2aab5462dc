import type { Db } from './open.js';

interface Job<T> { run: () => T; resolve: (value: T) => void; reject: (err: unknown) => void }

/**
 * Group commit: write jobs queued in the same event-loop turn share one transaction, so the
 * commit's cost (WAL append, page writes) is paid once per batch instead of once per request.
 * Each caller's promise settles only after the commit, so an answered request is durable.
 * If a batch fails, its jobs run again one by one, so one bad write never sinks the others.
 */
export function createWriteBatcher(db: Db, maxBatch = 64) {
  let queue: Job<unknown>[] = [];
  let scheduled = false;

  function runAlone(job: Job<unknown>): void {
    try {
      job.resolve(db.transaction(job.run)());
    } catch (err) {
      job.reject(err);
    }
  }

  function flush(): void {
    scheduled = false;
    const batch = queue.splice(0, maxBatch);
    if (queue.length) schedule();
    if (batch.length === 1) return runAlone(batch[0] as Job<unknown>);
    let results: unknown[];
    try {
      results = db.transaction(() => batch.map((job) => job.run()))();
    } catch {
      for (const job of batch) runAlone(job);
      return;
    }
    batch.forEach((job, i) => job.resolve(results[i]));
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  }

  return {
    /** Runs `fn` inside a (shared) transaction; resolves with its result after the commit. */
    write<T>(fn: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ run: fn, resolve: resolve as (v: unknown) => void, reject });
        schedule();
      });
    },
  };
}

export type WriteBatcher = ReturnType<typeof createWriteBatcher>;
