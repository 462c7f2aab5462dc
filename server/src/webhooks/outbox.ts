import type { Clock } from '../lib/clock.js';
import type { Queryable, Storage, Tx } from '../storage/port.js';
import { recordAttempt, type AttemptRecorded, type AttemptToRecord, type DueDelivery } from './attempts.js';
import {
  eventRows,
  fanOutNewEvents,
  insertEventRows,
  rowsFor,
  subscribers,
  type EventDraft,
  type EventInsert,
  type Subscriber,
} from './fan-out.js';
import { deliveryQueueFor, QUEUE_HEAD, type DeliveryQueue, type DueRow } from './queue.js';

/** Finished deliveries, their attempts and events are kept this long for the delivery log. */
export const LOG_RETENTION_MS = 30 * 24 * 3_600_000;

/** The outbox's own statements (redelivery, the next due time, pruning); the same text runs on SQLite and PostgreSQL (storage/README.md). */
const SQL = {
  insertDeliveryReturning: 'INSERT INTO webhook_deliveries (endpoint_id, event_seq, next_attempt_at) VALUES (?, ?, ?) RETURNING id',
  nextDue: `SELECT min(d.next_attempt_at) AS at FROM webhook_endpoints e ${QUEUE_HEAD} WHERE e.enabled = 1`,
  deliveryWithEvent: `SELECT d.id, d.status, d.event_seq, ev.id AS event_id, ev.type FROM webhook_deliveries d JOIN webhook_events ev ON ev.seq = d.event_seq
    WHERE d.id = ? AND d.endpoint_id = ?`,
  dueNow: 'UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?',
  deliveryOfAttempt: 'SELECT delivery_id FROM webhook_attempts WHERE id = ? AND endpoint_id = ?',
  firstEventKept: 'SELECT seq AS id FROM webhook_events WHERE created_at >= ? ORDER BY seq LIMIT 1',
  firstAttemptKept: 'SELECT id FROM webhook_attempts WHERE attempted_at >= ? ORDER BY id LIMIT 1',
  // Past the last row: every row is older than the cutoff (a literal "infinity" would not fit an integer column on PostgreSQL).
  pastLastEvent: 'SELECT COALESCE(max(seq), 0) + 1 AS id FROM webhook_events',
  pastLastAttempt: 'SELECT COALESCE(max(id), 0) + 1 AS id FROM webhook_attempts',
  pruneDeliveries: "DELETE FROM webhook_deliveries WHERE event_seq < ? AND status <> 'pending'",
  pruneAttempts: 'DELETE FROM webhook_attempts WHERE id < ?',
} as const;

/** The durable queue behind webhooks (see createOutbox): events in, deliveries out, every attempt recorded. */
export interface Outbox {
  /**
   * Writes the events some enabled endpoint of the organization wants (or `onlyEndpointId`,
   * for a test), with the transaction of the change that caused them. Resolves with the ids
   * (webhook-ids) of the events written: none when nobody listens.
   */
  enqueue(tx: Tx, organizationId: string, drafts: readonly EventDraft[], onlyEndpointId?: string): Promise<string[]>;
  /**
   * Who listens to the organization's events, read in the caller's transaction: a writer that
   * starts this read early, beside its first statements, saves PostgreSQL a round trip
   * (`enqueueTo`).
   */
  subscribers(q: Queryable, organizationId: string): Promise<Subscriber[]>;
  /** `enqueue` with the endpoints already read (`subscribers`, in the same transaction). */
  enqueueTo(tx: Tx, organizationId: string, drafts: readonly EventDraft[], endpoints: readonly Subscriber[]): Promise<string[]>;
  /**
   * Sends one delivery's event to its endpoint again, now, with the same webhook-id (a
   * dashboard "redeliver"). A delivery still being retried is simply due at once; a finished
   * one (delivered, or failed for good) gets a new delivery row at the back of the endpoint's
   * queue (per-endpoint order stays intact) with a fresh retry schedule. Null when the
   * delivery is unknown or already pruned from the log.
   */
  redeliver(endpointId: string, deliveryId: number): Promise<Redelivery | null>;
  /** The delivery an attempt of the log belongs to (the log's ids are attempts). */
  deliveryOfAttempt(endpointId: string, attemptId: number): Promise<number | null>;
  /** Called whenever events were written (see `enqueue` for when); returns an unsubscribe. */
  subscribe(listener: () => void): () => void;
  /**
   * The queue heads due now that this instance may attempt (on PostgreSQL, those whose lease it
   * holds or just claimed), endpoints in `busy` (an attempt in flight here) left out.
   */
  due(nowMs: number, busy?: ReadonlySet<string>): Promise<DueDelivery[]>;
  /** Gives up this instance's endpoint leases (at stop): another instance takes over at once. */
  release(): Promise<void>;
  /** Whether committed events wait to be fanned out (see DeliveryQueue.hasUnfanned). */
  hasUnfanned(): Promise<boolean>;
  /** When the earliest queue head falls due (epoch ms), or null when no delivery is pending. */
  nextDueAt(): Promise<number | null>;
  /**
   * The worker's one write per round, in one transaction: records the attempts that finished
   * and decides what follows each (delivered; retried after the next delay of the schedule;
   * or given up: schedule exhausted, or 410 Gone, which also disables the endpoint; an
   * endpoint whose attempts all failed for 5 days is disabled), then fans out new events
   * (a batch of them: `moreEvents` says another round is needed).
   */
  settle(attempts: readonly AttemptToRecord[], fanOut: boolean): Promise<{ recorded: AttemptRecorded[]; moreEvents: boolean }>;
  /**
   * Forgets what is older than the retention: finished deliveries and events by event time,
   * attempts by attempt time. Rows are in time order, so each boundary is found by reading
   * only the rows about to go.
   */
  prune(nowMs: number): Promise<void>;
}

/** A delivery made due again by `redeliver`. */
export interface Redelivery {
  deliveryId: number;
  /** The event's webhook-id, the same as the first time. */
  eventId: string;
  type: string;
  /** Epoch ms: now. */
  nextAttemptAt: number;
}

/**
 * The durable queue behind webhooks, in two steps. `enqueue` runs inside the transaction of
 * the change that caused the events and writes one row per event (only when an endpoint of
 * the organization wants it): the request path pays for that and nothing more. The delivery
 * worker then fans events out into one delivery per endpoint, in event order, behind a cursor
 * that moves in the same transaction; reads each endpoint's oldest pending delivery; and
 * records every attempt.
 */
export function createOutbox(storage: Storage, clock: Clock, queue: DeliveryQueue = deliveryQueueFor(storage, clock)): Outbox {
  const listeners = new Set<() => void>();
  let notifyScheduled = false;

  function notify(): void {
    // A microtask, so one wake-up covers every transaction of a group commit.
    if (notifyScheduled || !listeners.size) return;
    notifyScheduled = true;
    queueMicrotask(() => {
      notifyScheduled = false;
      for (const l of listeners) l();
    });
  }

  async function insertEvents(tx: Tx, rows: readonly EventInsert[]): Promise<string[]> {
    const ids = await insertEventRows(tx, rows);
    // After the commit: woken earlier, the worker would find nothing new on PostgreSQL (and wait
    // for its poll). Events another instance wrote are found by the poll.
    if (rows.length) tx.afterCommit(notify);
    return ids;
  }

  return {
    async enqueue(tx: Tx, organizationId: string, drafts: readonly EventDraft[], onlyEndpointId?: string): Promise<string[]> {
      return insertEvents(tx, await rowsFor(tx, clock, organizationId, drafts, onlyEndpointId));
    },

    subscribers,

    async enqueueTo(tx: Tx, organizationId: string, drafts: readonly EventDraft[], endpoints: readonly Subscriber[]): Promise<string[]> {
      return insertEvents(tx, eventRows(organizationId, endpoints, drafts, undefined, new Date(clock.now()).toISOString()));
    },

    async redeliver(endpointId: string, deliveryId: number): Promise<Redelivery | null> {
      const nowMs = clock.now();
      const found = await storage.tx(async (tx) => {
        const row = await tx.get<{ id: number; status: string; event_seq: number; event_id: string; type: string }>(SQL.deliveryWithEvent, [
          deliveryId,
          endpointId,
        ]);
        if (!row) return null;
        if (row.status === 'pending') {
          await tx.run(SQL.dueNow, [nowMs, row.id]);
          return { deliveryId: row.id, eventId: row.event_id, type: row.type, nextAttemptAt: nowMs };
        }
        const inserted = await tx.get<{ id: number }>(SQL.insertDeliveryReturning, [endpointId, row.event_seq, nowMs]);
        return { deliveryId: (inserted as { id: number }).id, eventId: row.event_id, type: row.type, nextAttemptAt: nowMs };
      });
      // The worker looks at due deliveries when woken, as for new events.
      if (found) notify();
      return found;
    },

    async deliveryOfAttempt(endpointId: string, attemptId: number): Promise<number | null> {
      return (await storage.get<{ delivery_id: number }>(SQL.deliveryOfAttempt, [attemptId, endpointId]))?.delivery_id ?? null;
    },

    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async due(nowMs: number, busy: ReadonlySet<string> = new Set()): Promise<DueDelivery[]> {
      return (await queue.claimDue(nowMs, busy)).map((r: DueRow) => ({
        deliveryId: r.delivery_id,
        endpointId: r.endpoint_id,
        attempts: r.attempts,
        eventId: r.event_id,
        type: r.type,
        payload: r.payload,
        url: r.url,
        secret: r.secret,
        ...(r.epoch !== undefined && { epoch: r.epoch }),
      }));
    },

    release(): Promise<void> {
      return queue.release();
    },

    hasUnfanned(): Promise<boolean> {
      return queue.hasUnfanned();
    },

    async nextDueAt(): Promise<number | null> {
      return (await storage.get<{ at: number | null }>(SQL.nextDue))?.at ?? null;
    },

    async settle(attempts: readonly AttemptToRecord[], fanOut: boolean): Promise<{ recorded: AttemptRecorded[]; moreEvents: boolean }> {
      return storage.tx(async (tx) => {
        const recorded: AttemptRecorded[] = [];
        for (const a of attempts) recorded.push(await recordAttempt(tx, queue, clock.now(), a.delivery, a.attemptedAtMs, a.outcome));
        return { recorded, moreEvents: fanOut ? await fanOutNewEvents(tx, queue, clock) : false };
      });
    },

    async prune(nowMs: number): Promise<void> {
      const cutoff = new Date(nowMs - LOG_RETENTION_MS).toISOString();
      await storage.tx(async (tx) => {
        const firstKept = async (sql: string, pastLast: string) =>
          ((await tx.get<{ id: number }>(sql, [cutoff])) ?? ((await tx.get<{ id: number }>(pastLast)) as { id: number })).id;
        const eventBoundary = await firstKept(SQL.firstEventKept, SQL.pastLastEvent);
        await tx.run(SQL.pruneDeliveries, [eventBoundary]);
        await tx.run(queue.prunableEvents, [eventBoundary]);
        await tx.run(SQL.pruneAttempts, [await firstKept(SQL.firstAttemptKept, SQL.pastLastAttempt)]);
      });
    },
  };
}
