import type { Tx } from '../storage/port.js';
import type { DeliveryQueue } from './queue.js';

/**
 * Recording a delivery attempt (the outbox's `settle`): the attempt row, the delivery's next
 * step (delivered, retried after the schedule's next delay, or given up) and the endpoint's
 * health (disabled after a 410 Gone or five days of failures).
 */

/** Seconds after each failed attempt until the next: 8 attempts in all, over ~27.6 hours. */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000] as const;
/** An endpoint whose every attempt has failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;

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

/** The statements of an attempt's recording; the same text runs on SQLite and PostgreSQL (storage/README.md). */
const SQL = {
  markDelivered: "UPDATE webhook_deliveries SET status = 'delivered', attempts = ?, finished_at = ? WHERE id = ? AND status = 'pending'",
  markFailed: "UPDATE webhook_deliveries SET status = 'failed', attempts = ?, finished_at = ? WHERE id = ? AND status = 'pending'",
  markRetry: "UPDATE webhook_deliveries SET attempts = ?, next_attempt_at = ? WHERE id = ? AND status = 'pending'",
  insertAttempt: `INSERT INTO webhook_attempts (endpoint_id, delivery_id, webhook_id, event_type, attempt, attempted_at, succeeded, response_code, latency_ms, error, next_retry_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  endpointSucceeded: 'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL',
  endpointFailed: 'UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?) WHERE id = ? RETURNING failing_since',
  disable: 'UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, disabled_at = ?, updated_at = ? WHERE id = ? AND enabled = 1',
} as const;

/** Records one attempt's outcome and decides what follows it; runs inside `settle`'s transaction. */
export async function recordAttempt(
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
