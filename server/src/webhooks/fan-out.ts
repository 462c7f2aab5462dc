import crypto from 'node:crypto';
import type { Clock } from '../lib/clock.js';
import { parseJson } from '../lib/json.js';
import type { Queryable, Tx } from '../storage/port.js';
import type { DeliveryQueue, EventRow } from './queue.js';

/**
 * Who gets which event: the events an endpoint can subscribe to, an organization's subscribers,
 * the outbox rows written for the events some endpoint wants, and the fan-out of those rows into
 * one delivery per endpoint (the worker's step, behind the queue's cursor).
 */

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

/** Events fanned out into deliveries per transaction. */
export const FANOUT_BATCH = 1_000;

export interface EventDraft {
  type: OutboxEventName;
  /** Assistants the event concerns: endpoints filtered to another assistant skip it. Null: none in particular. */
  assistantIds: readonly string[] | null;
  data: unknown;
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

/** The statements of the events and their fan-out; the same text runs on SQLite and PostgreSQL (storage/README.md). */
const SQL = {
  subscribers: 'SELECT id, events, assistant_id, created_at FROM webhook_endpoints WHERE organization_id = ? AND enabled = 1',
  enabledEndpoint: 'SELECT id, events, assistant_id, created_at FROM webhook_endpoints WHERE id = ? AND enabled = 1',
  insertEvent:
    'INSERT INTO webhook_events (id, organization_id, assistant_ids, endpoint_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  insertDelivery: 'INSERT INTO webhook_deliveries (endpoint_id, event_seq, next_attempt_at) VALUES (?, ?, ?)',
} as const;

export type EventInsert = [
  id: string,
  organizationId: string,
  assistantIds: string | null,
  endpointId: string | null,
  type: string,
  payload: string,
  createdAt: string,
];

/** The outbox rows for the drafts some endpoint wants (none when nobody listens). */
export function eventRows(
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

/** The rows to write for `drafts`: endpoints read with `q` (the caller's transaction). */
export async function rowsFor(
  q: Queryable,
  clock: Clock,
  organizationId: string,
  drafts: readonly EventDraft[],
  onlyEndpointId: string | undefined,
): Promise<EventInsert[]> {
  const endpoints = onlyEndpointId
    ? [await q.get<EndpointRow>(SQL.enabledEndpoint, [onlyEndpointId])].filter((e): e is EndpointRow => !!e).map(toSubscriber)
    : await subscribers(q, organizationId);
  return eventRows(organizationId, endpoints, drafts, onlyEndpointId, new Date(clock.now()).toISOString());
}

/** Writes the event rows; resolves with their ids (webhook-ids). */
export async function insertEventRows(tx: Tx, rows: readonly EventInsert[]): Promise<string[]> {
  for (const r of rows) await tx.run(SQL.insertEvent, r);
  return rows.map((r) => r[0]);
}

/**
 * Turns new events into deliveries: one per endpoint that wants the event, is enabled and
 * existed when it happened. Deliveries are created in event order; the cursor moves in the
 * same transaction, so a crash repeats the step, never half of it. Returns whether more
 * events are waiting (the batch was full).
 */
export async function fanOutNewEvents(tx: Tx, queue: DeliveryQueue, clock: Clock): Promise<boolean> {
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
export async function subscribers(q: Queryable, organizationId: string): Promise<Subscriber[]> {
  return (await q.all<EndpointRow>(SQL.subscribers, [organizationId])).map(toSubscriber);
}
