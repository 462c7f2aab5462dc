import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { backoffDelay } from '../../net/backoff.js';
import { ProviderError } from '../../net/provider-http.js';
import type { RetryPolicy } from '../../net/retry.js';
import type { Logger } from '../../lib/logger.js';
import type { EmbeddingClient } from './client.js';
import type { Backlog, Batch } from './backlog.js';
import type { PendingChunk } from './vector-index.js';

export interface BacklogOptions {
  /** Where chunks are taken from and vectors stored (backlog.ts: SQLite, or PostgreSQL with leases). */
  index: Backlog;
  /** Settles once the index is open (the worker's first pass waits for it). */
  opened?: Promise<unknown>;
  client: EmbeddingClient;
  logger: Logger;
  /** Inputs per request (halved after a timeout or a refused batch, down to 1). */
  batchSize: number;
  /** Longest silence from the endpoint for one batch. */
  timeoutMs: number;
  /** Retries inside one batch request (transient failures). */
  retry: RetryPolicy;
  /** Backoff between failed batches (net/backoff.ts, full jitter): its ceiling doubles from base up to max; Retry-After when longer. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** The backoff's jitter source: Math.random; tests pin it. */
  backoffRandom?: (() => number) | undefined;
  /** While idle, vectors of deleted chunks are collected this often (deletes also wake it). */
  idleSweepMs: number;
  /**
   * Another instance may leave work behind (its leases expire when it dies): an idle worker
   * makes a pass every sweep, not only when woken. PostgreSQL; SQLite has one server per file.
   */
  idlePass?: boolean;
  /** Called after the model answered with another dimension and the index was rebuilt. */
  onReset?: () => void;
}

/** While an outage lasts, it is logged again at most this often. */
const FAILURE_LOG_EVERY_MS = 10 * 60_000;

/** The embedding backlog's worker (see createBacklogWorker). */
export interface BacklogWorker {
  /** Starts the first pass over the backlog. */
  start(): void;
  /** The knowledge changed: look for new chunks and deleted ones' vectors. */
  wake(): void;
  /** Stops at once: a batch in flight is cancelled (it is embedded again on the next start). */
  stop(): Promise<void>;
  /** What the worker is doing and has done, for status and tests. */
  readonly stats: BacklogStats;
}

/** A backlog worker's state and counters. */
export interface BacklogStats {
  state: 'working' | 'idle' | 'backoff';
  /** Chunks embedded since start. */
  embedded: number;
  /** Failed requests in a row (0 after a success). */
  failures: number;
  /** Chunks sent per request now (halved on a timeout or a refused batch, doubled back after successes). */
  batchSize: number;
  /** Inputs the endpoint refused on their own, skipped until the next start. */
  skipped: number;
}

/**
 * Embeds the backlog, off the request path: every chunk without a current vector, in id order,
 * in batches; then sleeps until the knowledge changes (`wake`). Durable by construction: what is
 * embedded is recorded with the vector, so after a restart the next pass picks up the rest.
 * Failures wait with exponential backoff (Retry-After honoured) and are retried for ever; an
 * input the endpoint refuses on its own is skipped until the next start.
 */
export function createBacklogWorker(opts: BacklogOptions): BacklogWorker {
  const { index, client, logger } = opts;
  let batchSize = opts.batchSize;
  let stopped = false;
  let started = false;
  let dirty = true;
  let loop: Promise<void> | null = null;
  let abort = new AbortController();
  let sleeper: { wakeable: boolean; done: () => void } | null = null;
  let state: 'working' | 'idle' | 'backoff' = 'working';
  const skipped = new Set<number>();
  let failures = 0;
  let successes = 0;
  /** The endpoint has embedded something since start: later refusals are about inputs. */
  let worked = false;
  let failingSince: number | null = null;
  let lastFailureLog = 0;
  let embeddedThisRun = 0;

  /** Sleeps `ms`; `stop` ends it early, and so does `wake` when `wakeable`. */
  function sleep(ms: number, wakeable: boolean): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleeper = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      sleeper = { wakeable, done };
    });
  }

  function noteFailure(err: unknown, waitMs: number): void {
    const e = err instanceof ProviderError ? err : null;
    const now = Date.now();
    failingSince ??= now;
    if (failures === 1 || now - lastFailureLog >= FAILURE_LOG_EVERY_MS) {
      lastFailureLog = now;
      logger.warn('embedding the knowledge backlog failed: retrying', {
        model: client.model,
        code: e?.code ?? 'error',
        status: e?.status ?? null,
        error: err instanceof Error ? err.message : String(err),
        failures,
        retryInMs: waitMs,
        batchSize,
      });
    }
  }

  function noteSuccess(): void {
    if (failingSince !== null)
      logger.info('embedding the knowledge backlog resumed', { model: client.model, failedForMs: Date.now() - failingSince });
    failures = 0;
    failingSince = null;
  }

  /** One batch: embed, then store (creating or rebuilding the index on the first vectors). */
  async function embedBatch(batch: Batch): Promise<'ok' | 'rebuilt'> {
    const { vectors } = await client.embed(
      batch.chunks.map((c) => c.input),
      { timeoutMs: opts.timeoutMs, retry: opts.retry, signal: abort.signal },
    );
    const dim = (vectors[0] as Float32Array).length;
    let rebuilt = false;
    if (index.dimension === null) {
      await index.create(dim);
      logger.info('embeddings index created', { model: client.model, dimension: dim });
    } else if (dim !== index.dimension) {
      logger.warn('the embedding model answered with another dimension: re-embedding everything', {
        model: client.model,
        was: index.dimension,
        now: dim,
      });
      await index.create(dim);
      opts.onReset?.();
      rebuilt = true;
    }
    embeddedThisRun += await index.write(batch, vectors);
    return rebuilt ? 'rebuilt' : 'ok';
  }

  /** One pass over all chunks; returns early when stopped. */
  async function pass(): Promise<void> {
    let cursor = 0;
    for (;;) {
      if (stopped) return;
      await index.collectGarbage();
      const { batch, scannedTo, done } = await index.take(cursor, batchSize, skipped);
      const { chunks } = batch;
      if (!chunks.length) {
        cursor = scannedTo;
        if (done) return;
        await yieldToEventLoop();
        continue;
      }
      try {
        const result = await embedBatch(batch);
        worked = true;
        noteSuccess();
        // Batches shrunk by timeouts grow back after a run of successes.
        if (batchSize < opts.batchSize && ++successes % 8 === 0) batchSize = Math.min(opts.batchSize, batchSize * 2);
        cursor = result === 'rebuilt' ? 0 : scannedTo;
      } catch (err) {
        // Not stored: its chunks go back at once (another instance may take them meanwhile).
        await index.release(batch).catch(() => undefined);
        if (stopped) return;
        const e = err instanceof ProviderError ? err : null;
        // A 400/413/422 after the endpoint has worked is about these inputs (one too long for the
        // model, say): smaller batches isolate it. Before any success it is the configuration
        // (model, dimensions), like 401/403/404: back off and warn instead of skipping everything.
        const refused = !!e && worked && !e.retryable && (e.status === 400 || e.status === 413 || e.status === 422);
        if (refused && chunks.length === 1) {
          // This input alone is refused (too long for the model, say): skip it until the next start.
          skipped.add((chunks[0] as PendingChunk).id);
          logger.warn('the embeddings endpoint refused a chunk: skipped', { chunkId: chunks[0]?.id, error: e?.message });
          continue;
        }
        if (e?.code === 'timeout' || refused) batchSize = Math.max(1, Math.floor(batchSize / 2));
        if (refused) continue; // smaller batches isolate the input that is refused
        failures++;
        const backoff = backoffDelay(failures - 1, { baseMs: opts.backoffBaseMs, maxMs: opts.backoffMaxMs }, opts.backoffRandom);
        const wait = Math.max(backoff, e?.retryAfterMs ?? 0);
        noteFailure(err, wait);
        state = 'backoff';
        await sleep(wait, false);
        state = 'working';
      }
      await yieldToEventLoop();
    }
  }

  async function run(): Promise<void> {
    await opts.opened;
    while (!stopped) {
      if (dirty) {
        dirty = false;
        try {
          await pass();
        } catch (err) {
          // A database error (disk full…): try again later rather than spin.
          logger.error('embeddings backlog pass failed', { error: err instanceof Error ? err.message : String(err) });
          state = 'backoff';
          await sleep(opts.backoffMaxMs, false);
          state = 'working';
          dirty = true;
        }
        continue;
      }
      state = 'idle';
      await sleep(opts.idleSweepMs, true);
      state = 'working';
      if (stopped) continue;
      await index.collectGarbage();
      if (opts.idlePass) dirty = true;
    }
  }

  return {
    start(): void {
      if (started) return;
      started = true;
      stopped = false;
      abort = new AbortController();
      loop = run().catch((err: unknown) => logger.error('embeddings worker stopped', { error: String(err) }));
    },
    wake(): void {
      dirty = true;
      if (sleeper?.wakeable) sleeper.done();
    },
    async stop(): Promise<void> {
      if (!started) return;
      stopped = true;
      abort.abort();
      sleeper?.done();
      await loop;
      started = false;
    },
    get stats(): BacklogStats {
      return { state, embedded: embeddedThisRun, failures, batchSize, skipped: skipped.size };
    },
  };
}
