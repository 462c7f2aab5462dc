import crypto from 'node:crypto';
import os from 'node:os';
import type { Queryable, Storage, Tx } from '../storage/port.js';
import { leaseKind } from '../storage/leases.js';
import { readHorizon } from '../storage/postgres/horizon.js';

/**
 * The part of the outbox that differs between dialects: which new events the fan-out may take,
 * and which endpoint queues this instance may work on.
 *
 * SQLite has one writer and one server: `seq` is commit order and the process's own bookkeeping
 * (one attempt in flight per endpoint) is enough. PostgreSQL may have several servers and several
 * writers at once, so:
 *
 * - Fan-out cursor. Sequence values are taken when a row is inserted, not when it commits: a
 *   transaction holding seq 7 may commit after another's seq 8 was fanned out, and `seq > last`
 *   would then skip 7 for good. The cursor is `(xact_id, seq)` instead (the writing
 *   transaction's id, `pg_current_xact_id()` by column default), and only rows whose transaction
 *   id is below the commit horizon (`storage/postgres/horizon.ts`) are read: every transaction below that
 *   has ended, so no row can appear behind the cursor later. The cursor row is locked with
 *   `FOR UPDATE SKIP LOCKED`: one instance fans out at a time (deliveries are then created in
 *   cursor order, which is each endpoint's delivery order); the others skip the step.
 * - Leases. An instance attempts an endpoint's queue head only while it holds the endpoint's
 *   lease (`webhook_leases`: owner, epoch, expiry), claimed with `FOR UPDATE SKIP LOCKED` so two
 *   instances never wait on each other. The epoch grows whenever the lease changes hands; an
 *   attempt is recorded only if its owner still holds the lease at the epoch it was claimed with
 *   (fencing): an instance that stalled past its lease cannot overwrite what the new holder did.
 *   Its attempt counts as sent once more (at-least-once, same webhook-id).
 */

/** How long a claimed endpoint stays this instance's: well above one attempt (15 s) and its recording. */
export const LEASE_MS = 60_000;

export interface EventRow {
  seq: number;
  organization_id: string;
  assistant_ids: string | null;
  endpoint_id: string | null;
  type: string;
  created_at: string;
  /** PostgreSQL: the writing transaction's id (xid8, as text), the first half of the cursor. */
  xact?: string;
}

export interface DueRow {
  delivery_id: number;
  endpoint_id: string;
  attempts: number;
  event_id: string;
  type: string;
  payload: string;
  url: string;
  secret: string;
  /** PostgreSQL: the lease epoch this head was claimed under. */
  epoch?: number;
}

export interface DeliveryQueue {
  /** This instance's name in leases. */
  readonly owner: string;
  /** Events after the cursor, in cursor order; null when another instance is fanning out. */
  unfanned(tx: Tx, limit: number): Promise<EventRow[] | null>;
  /**
   * Whether a committed event is still ahead of the cursor, whatever holds it back (on
   * PostgreSQL a transaction older than it, still running, keeps it above the horizon).
   */
  hasUnfanned(): Promise<boolean>;
  /** Moves the cursor past `last` (same transaction as the deliveries it created). */
  moveCursor(tx: Tx, last: EventRow): Promise<void>;
  /** The due queue heads this instance may attempt now, `busy` endpoints left out. */
  claimDue(nowMs: number, busy: ReadonlySet<string>): Promise<DueRow[]>;
  /** Inside the recording transaction: whether this instance still holds the endpoint at `epoch`. */
  holds(tx: Tx, endpointId: string, epoch: number | undefined): Promise<boolean>;
  /** Events the cursor has passed, below `seq` (prune). */
  prunableEvents: string;
  /** Gives this instance's leases up (at stop), so another instance takes over at once. */
  release(): Promise<void>;
}

/** The oldest pending delivery of every enabled endpoint: the only one of its queue that may be attempted. */
export const QUEUE_HEAD =
  "JOIN webhook_deliveries d ON d.id = (SELECT id FROM webhook_deliveries WHERE endpoint_id = e.id AND status = 'pending' ORDER BY id LIMIT 1)";
const DUE_HEADS = `SELECT d.id AS delivery_id, d.endpoint_id, d.attempts, ev.id AS event_id, ev.type, ev.payload, e.url, e.secret
  FROM webhook_endpoints e ${QUEUE_HEAD} JOIN webhook_events ev ON ev.seq = d.event_seq
  WHERE e.enabled = 1 AND d.next_attempt_at <= ?`;
const EVENT_COLUMNS = 'seq, organization_id, assistant_ids, endpoint_id, type, created_at';
const NOT_REFERENCED = 'NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = webhook_events.seq)';

/** An endpoint queue's lease (PostgreSQL; SQLite leaves the table empty). */
const ENDPOINT_LEASES = leaseKind({ table: 'webhook_leases', key: 'endpoint_id', expires: 'expires_at' });

export function sqliteQueue(storage: Queryable): DeliveryQueue {
  return {
    owner: 'sqlite',
    async unfanned(tx, limit) {
      const last = (await tx.get<{ last_seq: number }>('SELECT last_seq FROM webhook_fanout WHERE id = 1'))?.last_seq ?? 0;
      return tx.all<EventRow>(`SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE seq > ? ORDER BY seq LIMIT ?`, [last, limit]);
    },
    async hasUnfanned() {
      return !!(await storage.get<{ x: number }>(
        'SELECT 1 AS x FROM webhook_events WHERE seq > (SELECT last_seq FROM webhook_fanout WHERE id = 1) LIMIT 1',
      ));
    },
    async moveCursor(tx, last) {
      await tx.run('UPDATE webhook_fanout SET last_seq = ? WHERE id = 1', [last.seq]);
    },
    // One server: the worker's in-flight map is the whole truth.
    claimDue: (nowMs) => storage.all<DueRow>(DUE_HEADS, [nowMs]),
    holds: async () => true,
    prunableEvents: `DELETE FROM webhook_events WHERE seq < ? AND seq <= (SELECT last_seq FROM webhook_fanout WHERE id = 1) AND ${NOT_REFERENCED}`,
    release: async () => {},
  };
}

/** The queue for the storage's engine: one server's bookkeeping on SQLite, leases on PostgreSQL. */
export function deliveryQueueFor(storage: Storage, clock: { now(): number }): DeliveryQueue {
  return storage.pick({ sqlite: sqliteQueue, postgres: (s) => postgresQueue(s, clock) });
}

export function postgresQueue(
  storage: Storage,
  clock: { now(): number },
  owner = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`,
): DeliveryQueue {
  return {
    owner,
    async unfanned(tx, limit) {
      const cursor = await tx.get<{ last_seq: number; last_xact: string }>(
        'SELECT last_seq, CAST(last_xact AS TEXT) AS last_xact FROM webhook_fanout WHERE id = 1 FOR UPDATE SKIP LOCKED',
      );
      if (!cursor) return null;
      const horizon = await readHorizon(tx);
      return tx.all<EventRow>(
        `SELECT ${EVENT_COLUMNS}, CAST(xact_id AS TEXT) AS xact FROM webhook_events
        WHERE (xact_id, seq) > (CAST(? AS xid8), ?) AND xact_id < CAST(? AS xid8)
        ORDER BY xact_id, seq LIMIT ?`,
        [cursor.last_xact, cursor.last_seq, horizon, limit],
      );
    },
    async hasUnfanned() {
      return !!(await storage.get<{ x: number }>(`SELECT 1 AS x FROM webhook_events
        WHERE (xact_id, seq) > (SELECT last_xact, last_seq FROM webhook_fanout WHERE id = 1) LIMIT 1`));
    },
    async moveCursor(tx, last) {
      await tx.run('UPDATE webhook_fanout SET last_seq = ?, last_xact = CAST(? AS xid8) WHERE id = 1', [last.seq, last.xact ?? '0']);
    },
    async claimDue(nowMs, busy) {
      const due = (await storage.all<DueRow>(DUE_HEADS, [nowMs])).filter((h) => !busy.has(h.endpoint_id));
      if (!due.length) return [];
      // Free leases are taken, this instance's own renewed (storage/leases.ts).
      const epochs = await storage.tx((tx) =>
        ENDPOINT_LEASES.claimKeys(
          tx,
          due.map((h) => h.endpoint_id),
          owner,
          nowMs,
          clock.now() + LEASE_MS,
        ),
      );
      return due.filter((h) => epochs.has(h.endpoint_id)).map((h) => ({ ...h, epoch: epochs.get(h.endpoint_id) as number }));
    },
    async holds(tx, endpointId, epoch) {
      if (epoch === undefined) return false;
      // FOR UPDATE: nobody takes the lease over between this check and the writes after it.
      return ENDPOINT_LEASES.holds(tx, endpointId, owner, epoch, 'update');
    },
    prunableEvents: `DELETE FROM webhook_events WHERE seq < ?
      AND (xact_id, seq) <= (SELECT last_xact, last_seq FROM webhook_fanout WHERE id = 1) AND ${NOT_REFERENCED}`,
    async release() {
      await ENDPOINT_LEASES.release(storage, owner);
    },
  };
}
