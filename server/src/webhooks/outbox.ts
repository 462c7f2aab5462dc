import crypto from 'node:crypto';
import type { Clock } from '../lib/clock.js';
import { parseJson } from '../lib/json.js';
import type { Queryable, Storage, Tx } from '../storage/port.js';
import { deliveryQueueFor, QUEUE_HEAD, type DeliveryQueue, type DueRow, type EventRow } from './queue.js';

/** Every event a webhook can subscribe to: both of the seed's lists (docs/api-spec.md §9). */
export const WEBHOOK_EVENTS = [
  'conversation.started',
  'conversation.ended',
  'message.received',
  'message.sent',
  'conversation.created',
  'conversation.message.created',
  'knowledge_base.updated',
  'app.deployment.updated',
] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];
/** `webhook.test` is sent by `POST /webhooks/:id/test` only; nobody subscribes to it. */
export type OutboxEventName = WebhookEventName | 'webhook.test';

/** Seconds after each failed attempt until the next: 8 attempts in all, over ~27.6 hours. */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000] as const;
/** An endpoint whose every attempt has failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;
/** Finished deliveries, their attempts and events are kept this long for the delivery log. */
export const LOG_RETENTION_MS = 30 * 24 * 3_600_000;
/** Events fanned out into deliveries per transaction. */
export const FANOUT_BATCH = 1_000;

export interface EventDraft {
  type: OutboxEventName;
  /** Assistants the event concerns: endpoints filtered to another assistant skip it. Null: none in particular. */
  assistantIds: readonly string[] | null;
  data: unknown;
}

/** The head of one endpoint's queue, due now. */
export interface DueDelivery {
  deliveryId: number;
  endpointId: string;
  attempts: number;
  /** The webhook-id. */
  eventId: string;
  type: string;
  payload: string;
  url: string;
  secret: string;
  /** PostgreSQL: the lease epoch its endpoint was claimed under (queue.ts). */
  epoch?: number;
}

export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
}
/** `lost`: the endpoint's lease passed to another instance meanwhile; nothing recorded (it is sent again, same webhook-id). */
export interface AttemptRecorded {
  result: 'delivered' | 'retry' | 'failed' | 'gone' | 'lost';
  disabled: 'gone' | 'failing' | null;
}
export interface AttemptToRecord {
  delivery: DueDelivery;
  attemptedAtMs: number;
  outcome: AttemptOutcome;
}

interface EndpointRow {
  id: string;
  events: string;
  assistant_id: string | null;
  created_at: string;
}
/** An enabled endpoint, as far as choosing events goes. */
export interface Subscriber {
  id: string;
  assistantId: string | null;
  events: string[];
  createdAt: string;
}

/** `evt_` + 122 random bits; randomUUID draws from a cached entropy pool, so it is cheap on the request path. */
export function newEventId(): string {
  return `evt_${crypto.randomUUID().replaceAll('-', '')}`;
}

const toSubscriber = (r: EndpointRow): Subscriber => ({
  id: r.id,
  assistantId: r.assistant_id,
  events: parseJson<string[]>(r.events, []),
  createdAt: r.created_at,
});

function wants(e: Subscriber, type: string, assistantIds: readonly string[] | null): boolean {
  if (e.assistantId && assistantIds && !assistantIds.includes(e.assistantId)) return false;
  return type === 'webhook.test' || e.events.includes('*') || e.events.includes(type);
}

/** Every statement of the outbox; the same text runs on SQLite and PostgreSQL (storage/README.md). */
const SQL = {
  subscribers: 'SELECT id, events, assistant_id, created_at FROM webhook_endpoints WHERE organization_id = ? AND enabled = 1',
  enabledEndpoint: 'SELECT id, events, assistant_id, created_at FROM webhook_endpoints WHERE id = ? AND enabled = 1',
  insertEvent:
    'INSERT INTO webhook_events (id, organization_id, assistant_ids, endpoint_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  insertDelivery: 'INSERT INTO webhook_deliveries (endpoint_id, event_seq, next_attempt_at) VALUES (?, ?, ?)',
  insertDeliveryReturning: 'INSERT INTO webhook_deliveries (endpoint_id, event_seq, next_attempt_at) VALUES (?, ?, ?) RETURNING id',
  nextDue: `SELECT min(d.next_attempt_at) AS at FROM webhook_endpoints e ${QUEUE_HEAD} WHERE e.enabled = 1`,
  markDelivered: "UPDATE webhook_deliveries SET status = 'delivered', attempts = ?, finished_at = ? WHERE id = ? AND status = 'pending'",
  markFailed: "UPDATE webhook_deliveries SET status = 'failed', attempts = ?, finished_at = ? WHERE id = ? AND status = 'pending'",
  markRetry: "UPDATE webhook_deliveries SET attempts = ?, next_attempt_at = ? WHERE id = ? AND status = 'pending'",
  insertAttempt: `INSERT INTO webhook_attempts (endpoint_id, delivery_id, webhook_id, event_type, attempt, attempted_at, succeeded, response_code, latency_ms, error, next_retry_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  endpointSucceeded: 'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL',
  endpointFailed: 'UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?) WHERE id = ? RETURNING failing_since',
  disable: 'UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, disabled_at = ?, updated_at = ? WHERE id = ? AND enabled = 1',
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

type EventInsert = [
  id: string,
  organizationId: string,
  assistantIds: string | null,
  endpointId: string | null,
  type: string,
  payload: string,
  createdAt: string,
];

/** The outbox rows for the drafts some endpoint wants (none when nobody listens). */
function eventRows(
  organizationId: string,
  endpoints: readonly Subscriber[],
  drafts: readonly EventDraft[],
  onlyEndpointId: string | undefined,
  timestamp: string,
): EventInsert[] {
  if (!endpoints.length) return [];
  const rows: EventInsert[] = [];
  for (const draft of drafts) {
    if (!endpoints.some((e) => wants(e, draft.type, draft.assistantIds))) continue;
    rows.push([
      newEventId(),
      organizationId,
      draft.assistantIds ? JSON.stringify(draft.assistantIds) : null,
      onlyEndpointId ?? null,
      draft.type,
      JSON.stringify({ event: draft.type, timestamp, data: draft.data }),
      timestamp,
    ]);
  }
  return rows;
}

/** Records one attempt's outcome and decides what follows it; runs inside `settle`'s transaction. */
async function recordOne(
  tx: Tx,
  queue: DeliveryQueue,
  nowMs: number,
  d: DueDelivery,
  attemptedAtMs: number,
  outcome: AttemptOutcome,
): Promise<AttemptRecorded> {
  const now = new Date(nowMs).toISOString();
  const attemptedAt = new Date(attemptedAtMs).toISOString();
  const attempt = d.attempts + 1;
  if (!(await queue.holds(tx, d.endpointId, d.epoch))) return { result: 'lost', disabled: null };
  const logAttempt = (nextRetryAt: string | null) =>
    tx.run(SQL.insertAttempt, [
      d.endpointId,
      d.deliveryId,
      d.eventId,
      d.type,
      attempt,
      attemptedAt,
      outcome.ok ? 1 : 0,
      outcome.status,
      outcome.latencyMs,
      outcome.error,
      nextRetryAt,
    ]);
  if (outcome.ok) {
    // Zero changes: the endpoint (and its queue) was deleted while the request was in flight.
    if ((await tx.run(SQL.markDelivered, [attempt, now, d.deliveryId])).changes === 0) return { result: 'delivered', disabled: null };
    await logAttempt(null);
    await tx.run(SQL.endpointSucceeded, [d.endpointId]);
    return { result: 'delivered', disabled: null };
  }
  const gone = outcome.status === 410;
  const delay = gone ? undefined : RETRY_DELAYS_MS[attempt - 1];
  const changed =
    delay === undefined
      ? await tx.run(SQL.markFailed, [attempt, now, d.deliveryId])
      : await tx.run(SQL.markRetry, [attempt, nowMs + delay, d.deliveryId]);
  if (changed.changes === 0) return { result: 'failed', disabled: null };
  await logAttempt(delay === undefined ? null : new Date(nowMs + delay).toISOString());
  const failingSince =
    (await tx.get<{ failing_since: string }>(SQL.endpointFailed, [attemptedAt, d.endpointId]))?.failing_since ?? attemptedAt;
  let disabled: 'gone' | 'failing' | null = null;
  if (gone) disabled = 'gone';
  else if (nowMs - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS) disabled = 'failing';
  if (disabled) await tx.run(SQL.disable, [disabled, now, now, d.endpointId]);
  return { result: gone ? 'gone' : delay === undefined ? 'failed' : 'retry', disabled };
}

/**
 * Turns new events into deliveries: one per endpoint that wants the event, is enabled and
 * existed when it happened. Deliveries are created in event order; the cursor moves in the
 * same transaction, so a crash repeats the step, never half of it. Returns whether more
 * events are waiting (the batch was full).
 */
async function fanOutNewEvents(tx: Tx, queue: DeliveryQueue, clock: Clock): Promise<boolean> {
  const events = await queue.unfanned(tx, FANOUT_BATCH);
  // Null: another instance holds the cursor and fans these out.
  if (!events?.length) return false;
  const nowMs = clock.now();
  const byOrg = new Map<string, Subscriber[]>();
  for (const ev of events) {
    let targets: Subscriber[];
    if (ev.endpoint_id) {
      const row = await tx.get<EndpointRow>(SQL.enabledEndpoint, [ev.endpoint_id]);
      targets = row ? [toSubscriber(row)] : [];
    } else {
      let list = byOrg.get(ev.organization_id);
      if (!list)
        byOrg.set(ev.organization_id, (list = (await tx.all<EndpointRow>(SQL.subscribers, [ev.organization_id])).map(toSubscriber)));
      const assistantIds = parseJson<string[] | null>(ev.assistant_ids, null);
      targets = list.filter((e) => e.createdAt <= ev.created_at && wants(e, ev.type, assistantIds));
    }
    for (const e of targets) await tx.run(SQL.insertDelivery, [e.id, ev.seq, nowMs]);
  }
  await queue.moveCursor(tx, events.at(-1) as EventRow);
  return events.length === FANOUT_BATCH;
}

/** The organization's enabled endpoints, read with `q` (the caller's transaction). */
async function subscribers(q: Queryable, organizationId: string): Promise<Subscriber[]> {
  return (await q.all<EndpointRow>(SQL.subscribers, [organizationId])).map(toSubscriber);
}

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

  /** The rows to write for `drafts`: endpoints read with `q` (the caller's transaction). */
  async function rowsFor(
    q: Queryable,
    organizationId: string,
    drafts: readonly EventDraft[],
    onlyEndpointId: string | undefined,
  ): Promise<EventInsert[]> {
    const endpoints = onlyEndpointId
      ? [await q.get<EndpointRow>(SQL.enabledEndpoint, [onlyEndpointId])].filter((e): e is EndpointRow => !!e).map(toSubscriber)
      : await subscribers(q, organizationId);
    return eventRows(organizationId, endpoints, drafts, onlyEndpointId, new Date(clock.now()).toISOString());
  }

  async function insertEvents(tx: Tx, rows: readonly EventInsert[]): Promise<string[]> {
    for (const r of rows) await tx.run(SQL.insertEvent, r);
    // After the commit: woken earlier, the worker would find nothing new on PostgreSQL (and wait
    // for its poll). Events another instance wrote are found by the poll.
    if (rows.length) tx.afterCommit(notify);
    return rows.map((r) => r[0]);
  }

  return {
    async enqueue(tx: Tx, organizationId: string, drafts: readonly EventDraft[], onlyEndpointId?: string): Promise<string[]> {
      return insertEvents(tx, await rowsFor(tx, organizationId, drafts, onlyEndpointId));
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
        for (const a of attempts) recorded.push(await recordOne(tx, queue, clock.now(), a.delivery, a.attemptedAtMs, a.outcome));
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
