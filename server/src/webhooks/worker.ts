import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import type { LookupAll } from '../net/address-guard.js';
import { createHttpClient } from '../net/client.js';
import { postWebhook } from './delivery.js';
import type { AttemptRecorded, AttemptToRecord, DueDelivery } from './attempts.js';
import type { Outbox } from './outbox.js';
import { webhookHeaders } from './signing.js';

/** One attempt gets this long for connect, request and response. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** An endpoint whose attempt could not be recorded (database trouble) rests this long, instead of being hit again at once. */
const RECORD_FAILURE_PAUSE_MS = 30_000;
/** How long a finished attempt waits for the others in flight, to share their commit. */
const BATCH_WAIT_MS = 2;

export interface WorkerOptions {
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  /** Counts each recorded attempt's outcome (parley_webhook_deliveries_total). */
  metrics?: Pick<Metrics, 'webhookDelivery'> | undefined;
  allowPrivate: boolean;
  /** Replaces DNS resolution (tests); the private-address check still applies to its answers. */
  resolve?: LookupAll | undefined;
  timeoutMs?: number;
  /** Attempts in flight at once, across endpoints (each endpoint has at most one). */
  concurrency?: number;
  /** How often the outbox is looked at for retries that fell due (events written by this process wake the worker at once). */
  pollMs?: number;
  /** On stop, in-flight attempts get this long before they are aborted (and retried after restart). */
  stopGraceMs?: number;
}

/** The webhook delivery worker (see createDeliveryWorker). */
export interface DeliveryWorker {
  /** Starts delivering: at once after each commit that wrote events, and every `pollMs` for retries that fell due. */
  start(pollMs?: number): void;
  /**
   * Stops taking work; gives attempts in flight the grace period, then aborts the rest
   * (they stay pending and go out after the restart); records what finished.
   */
  stop(): Promise<void>;
  /**
   * Delivers everything due now, endpoint queues in order, and waits for it: for tests on a
   * fake clock and for benchmarks. Returns the number of attempts made. On PostgreSQL a
   * committed event stays above the fan-out horizon while an older transaction of the
   * database runs (a background job's, say): drain waits for it, up to `maxWaitMs`, rather
   * than return with it undelivered.
   */
  drain(maxWaitMs?: number): Promise<number>;
  /** Attempts in flight now (for tests and shutdown logs). */
  readonly busy: number;
}

interface InFlight {
  finished: Promise<void>;
  settle: () => void;
}

/** Logs and counts what became of one recorded attempt. */
function reportAttempt(opts: Pick<WorkerOptions, 'logger' | 'metrics'>, a: AttemptToRecord, r: AttemptRecorded): void {
  const { logger } = opts;
  opts.metrics?.webhookDelivery(r.result);
  if (r.result === 'lost')
    logger.info('webhook endpoint lease lost during an attempt: the holder sends it again', {
      endpointId: a.delivery.endpointId,
      webhookId: a.delivery.eventId,
    });
  else if (r.result !== 'delivered')
    logger.debug('webhook attempt failed', {
      endpointId: a.delivery.endpointId,
      webhookId: a.delivery.eventId,
      attempt: a.delivery.attempts + 1,
      result: r.result,
      error: a.outcome.error,
    });
  if (r.disabled) {
    logger.warn('webhook endpoint disabled', {
      endpointId: a.delivery.endpointId,
      reason: r.disabled === 'gone' ? 'the endpoint answered 410 Gone' : 'every attempt failed for 5 days',
    });
  }
}

interface RecordingDeps {
  outbox: Outbox;
  logger: Logger;
  report(a: AttemptToRecord, r: AttemptRecorded): void;
  /** The attempt could not be recorded at all: rest its endpoint. */
  pause(endpointId: string): void;
}

/**
 * Writes what finished and fans out what is new, in one transaction: a commit per attempt
 * would cost more CPU than the HTTP request itself. If the batch fails, each attempt is
 * tried alone, so one bad row cannot sink the others; an attempt that still cannot be
 * recorded pauses its endpoint (it will be sent again: at-least-once). Resolves with whether
 * more events wait to be fanned out (a full batch was).
 */
async function recordAttempts(deps: RecordingDeps, batch: readonly AttemptToRecord[], fanOut: boolean): Promise<boolean> {
  const { outbox, logger } = deps;
  try {
    const { recorded, moreEvents } = await outbox.settle(batch, fanOut);
    recorded.forEach((r, i) => deps.report(batch[i] as AttemptToRecord, r));
    return moreEvents;
  } catch (err) {
    let moreEvents = false;
    if (fanOut) {
      try {
        moreEvents = (await outbox.settle([], true)).moreEvents;
      } catch (fanOutErr) {
        logger.error('webhook fan-out failed', { error: String(fanOutErr) }); // the poll tries again
      }
    }
    for (const a of batch) {
      try {
        deps.report(a, (await outbox.settle([a], false)).recorded[0] as AttemptRecorded);
      } catch (itemErr) {
        deps.pause(a.delivery.endpointId);
        logger.error('webhook attempt could not be recorded', {
          endpointId: a.delivery.endpointId,
          error: String(itemErr),
          batchError: String(err),
        });
      }
    }
    return moreEvents;
  }
}

/** Rounds that never overlap (each reads what the previous one wrote), run now, on the next turn or a moment later. */
interface SerialRounds {
  /** Runs a round, or one more after the round in progress (whatever woke us may be newer than what it read). */
  round(): Promise<void>;
  /** A round on the next turn of the event loop; calls before it starts share it. */
  schedule(): void;
  /** A round BATCH_WAIT_MS from now, so attempts finishing together share a commit. */
  scheduleSoon(): void;
}

function serialRounds(tick: () => Promise<void>, logger: Logger): SerialRounds {
  let ticking: Promise<void> | null = null;
  let tickAgain = false;
  let tickScheduled = false;
  let soonTimer: NodeJS.Timeout | null = null;

  function round(): Promise<void> {
    if (ticking) {
      tickAgain = true;
      return ticking;
    }
    ticking = (async () => {
      try {
        do {
          tickAgain = false;
          await tick();
        } while (tickAgain);
      } catch (err) {
        logger.error('webhook round failed', { error: String(err) }); // the poll tries again
      } finally {
        ticking = null;
      }
    })();
    return ticking;
  }

  function schedule(): void {
    if (tickScheduled) return;
    tickScheduled = true;
    setImmediate(() => {
      tickScheduled = false;
      void round();
    });
  }

  function scheduleSoon(): void {
    if (soonTimer) return;
    soonTimer = setTimeout(() => {
      soonTimer = null;
      schedule();
    }, BATCH_WAIT_MS);
  }

  return { round, schedule, scheduleSoon };
}

/** Attempts in flight, at most one per endpoint. */
interface AttemptsInFlight {
  readonly size: number;
  has(endpointId: string): boolean;
  /** The endpoints with an attempt in flight (left out of the next read of due deliveries). */
  endpoints(): Set<string>;
  add(endpointId: string): void;
  /** The endpoint's attempt is over (recorded, or aborted). */
  release(endpointId: string): void;
  /** Resolves once any attempt in flight has finished. */
  anyFinished(): Promise<void>;
  /** Resolves once every attempt in flight has finished, or after `graceMs`. */
  allFinished(graceMs: number): Promise<void>;
}

function attemptsInFlight(): AttemptsInFlight {
  const inFlight = new Map<string, InFlight>();
  return {
    get size() {
      return inFlight.size;
    },
    has: (endpointId) => inFlight.has(endpointId),
    endpoints: () => new Set(inFlight.keys()),
    add(endpointId) {
      let settle = () => {};
      const finished = new Promise<void>((resolve) => {
        settle = resolve;
      });
      inFlight.set(endpointId, { finished, settle });
    },
    release(endpointId) {
      inFlight.get(endpointId)?.settle();
      inFlight.delete(endpointId);
    },
    anyFinished: () => Promise.race([...inFlight.values()].map((f) => f.finished)),
    async allFinished(graceMs) {
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...inFlight.values()].map((f) => f.finished)),
        new Promise<void>((resolve) => {
          graceTimer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(graceTimer);
    },
  };
}

/** Endpoints resting after an attempt that could not be recorded (database trouble), instead of being hit again at once. */
function restingEndpoints(clock: Clock): { rest(endpointId: string): void; resting(endpointId: string, now: number): boolean } {
  const until = new Map<string, number>();
  return {
    rest: (endpointId) => until.set(endpointId, clock.now() + RECORD_FAILURE_PAUSE_MS),
    resting(endpointId, now) {
      const end = until.get(endpointId);
      if (end === undefined) return false;
      if (end > now) return true;
      until.delete(endpointId);
      return false;
    },
  };
}

/**
 * Delivers the outbox, off the request path. A commit that wrote events wakes it (through the
 * outbox); a timer catches retries falling due. Each round ("tick") is one transaction that
 * records the attempts finished since the last round and fans new events out into deliveries,
 * then one read of the endpoints' queue heads that are due, and an attempt for each idle one.
 * An endpoint has at most one attempt in flight and only its oldest pending delivery is tried,
 * so it receives its events in event order. An attempt is recorded only once it has an
 * outcome: a crash mid-attempt leaves the delivery pending, and it is sent again, with the same
 * webhook-id, after restart (at-least-once).
 */
export function createDeliveryWorker(opts: WorkerOptions): DeliveryWorker {
  const { outbox, clock, logger } = opts;
  const timeoutMs = opts.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const concurrency = opts.concurrency ?? 32;
  // Keep-alive connections, each judged by the private-address guard when it is made.
  const client = createHttpClient({ guard: { allowPrivate: opts.allowPrivate, resolve: opts.resolve }, connectTimeoutMs: timeoutMs });
  const abort = new AbortController();
  const inFlight = attemptsInFlight();
  const resting = restingEndpoints(clock);
  let finishedAttempts: AttemptToRecord[] = [];
  let newEvents = true; // a previous run may have left events unfanned
  let stopped = false;
  let started = false;
  let timer: NodeJS.Timeout | null = null;
  let attemptsStarted = 0;
  let unsubscribe: (() => void) | null = null;
  const rounds = serialRounds(tick, logger);
  const recording: RecordingDeps = {
    outbox,
    logger,
    report: (a, r) => reportAttempt(opts, a, r),
    pause: (endpointId) => resting.rest(endpointId),
  };

  /** New events may be waiting: fan out on the next round. */
  function wake(): void {
    newEvents = true;
    if (!stopped) rounds.schedule();
  }

  /** Records the attempts finished since the last round and fans out new events. */
  async function settle(): Promise<void> {
    const batch = finishedAttempts;
    finishedAttempts = [];
    const fanOut = newEvents;
    newEvents = false;
    if (!batch.length && !fanOut) return;
    if (await recordAttempts(recording, batch, fanOut)) wake();
    for (const a of batch) inFlight.release(a.delivery.endpointId);
  }

  function attempt(d: DueDelivery): void {
    inFlight.add(d.endpointId);
    attemptsStarted++;
    const attemptedAtMs = clock.now();
    void postWebhook({
      url: d.url,
      body: d.payload,
      headers: webhookHeaders(d.secret, d.eventId, attemptedAtMs, d.payload),
      timeoutMs,
      client,
      signal: abort.signal,
    }).then((outcome) => {
      // Aborted by stop(): no outcome, so nothing is recorded and the delivery stays due.
      if (abort.signal.aborted) return inFlight.release(d.endpointId);
      finishedAttempts.push({ delivery: d, attemptedAtMs, outcome });
      // Attempts started together finish together: wait a moment for the others in flight so
      // that one commit records them all; the last one (or a lone attempt) goes at once.
      if (finishedAttempts.length < inFlight.size) rounds.scheduleSoon();
      else rounds.schedule();
    });
  }

  /** One round: settle, then start an attempt for every due queue head whose endpoint is idle. */
  async function tick(): Promise<void> {
    await settle();
    if (stopped) return;
    let heads: DueDelivery[];
    try {
      heads = await outbox.due(clock.now(), inFlight.endpoints());
    } catch (err) {
      logger.error('webhook outbox read failed', { error: String(err) });
      return;
    }
    const now = clock.now();
    for (const d of heads) {
      if (inFlight.size >= concurrency) break;
      if (!inFlight.has(d.endpointId) && !resting.resting(d.endpointId, now)) attempt(d);
    }
  }

  return {
    start(pollMs = opts.pollMs ?? 1_000): void {
      if (started || stopped) return;
      started = true;
      unsubscribe = outbox.subscribe(wake);
      timer = setInterval(wake, pollMs);
      timer.unref();
      rounds.schedule(); // what a previous run left pending
    },

    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      unsubscribe?.();
      if (timer) clearInterval(timer);
      await inFlight.allFinished(opts.stopGraceMs ?? 3_000);
      abort.abort();
      // Aborted requests settle on their own; finished ones are recorded by the ticks they scheduled.
      while (inFlight.size) await inFlight.anyFinished();
      await rounds.round(); // stopped: records what finished, starts nothing
      // Leases (PostgreSQL) go back now rather than at their expiry: another instance carries on.
      await outbox.release().catch((err: unknown) => logger.warn('webhook leases not released', { error: String(err) }));
      await client.close();
    },

    async drain(maxWaitMs = 10_000): Promise<number> {
      const before = attemptsStarted;
      const deadline = Date.now() + maxWaitMs;
      newEvents = true;
      for (;;) {
        await rounds.round();
        if (!inFlight.size && !newEvents) {
          if (Date.now() > deadline || !(await outbox.hasUnfanned())) return attemptsStarted - before;
          await new Promise((r) => setTimeout(r, 10));
          newEvents = true;
          continue;
        }
        if (!inFlight.size) continue; // a full fan-out batch: another round
        await inFlight.anyFinished();
      }
    },

    get busy(): number {
      return inFlight.size;
    },
  };
}
