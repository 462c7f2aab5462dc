import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sharedPostgresDatabase, type SharedPostgres } from '../../test/postgres.js';
import { createFakeClock } from '../lib/clock.js';
import type { PostgresStorage } from '../storage/postgres.js';
import type { AttemptOutcome } from './attempts.js';
import type { EventDraft } from './fan-out.js';
import { createOutbox, type Outbox } from './outbox.js';
import { LEASE_MS } from './queue.js';

/**
 * The PostgreSQL outbox with several writers and several instances (queue.ts): the fan-out
 * cursor does not skip an event whose transaction commits after a later one's, and an endpoint's
 * queue is worked by one lease holder at a time, fenced by its epoch. Two storages (two pools) on
 * one database stand for two servers.
 */

const ORG = 'org_pg_outbox';
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const ok: AttemptOutcome = { ok: true, status: 200, latencyMs: 1, error: null };
const draft = (message: string): EventDraft => ({ type: 'message.received', assistantIds: null, data: { message } });

let pg: SharedPostgres;
let second: PostgresStorage;
const clock = createFakeClock(T0);

beforeAll(async () => {
  pg = await sharedPostgresDatabase();
  second = pg.open({ poolSize: 2 });
});
afterAll(async () => {
  await pg?.drop();
});

beforeEach(async () => {
  clock.set(T0);
  await pg.storage.tx(async (tx) => {
    await tx.run('DELETE FROM webhook_endpoints');
    await tx.run('DELETE FROM webhook_events');
    await tx.run('DELETE FROM organizations WHERE id = ?', [ORG]);
    await tx.run('UPDATE webhook_fanout SET last_seq = 0, last_xact = pg_current_xact_id() WHERE id = 1');
    await tx.run("INSERT INTO organizations (id, name, plan, created_at) VALUES (?, 'PG outbox', 'free', ?)", [
      ORG,
      new Date(T0).toISOString(),
    ]);
    await tx.run(
      `INSERT INTO webhook_endpoints (id, organization_id, url, events, secret, created_at, updated_at)
      VALUES ('wh_pg', ?, 'http://127.0.0.1:9/hook', '["*"]', 'whsec_x', ?, ?)`,
      [ORG, new Date(T0 - 1).toISOString(), new Date(T0 - 1).toISOString()],
    );
  });
});

/** The delivered order of one endpoint's queue: each event's message, by delivery id. */
async function queueOrder(): Promise<string[]> {
  const rows = await pg.storage.all<{
    payload: string;
  }>(`SELECT ev.payload FROM webhook_deliveries d JOIN webhook_events ev ON ev.seq = d.event_seq
    WHERE d.endpoint_id = 'wh_pg' ORDER BY d.id`);
  return rows.map((r) => (JSON.parse(r.payload) as { data: { message: string } }).data.message);
}

/**
 * Fans out until `n` deliveries exist: the cursor waits for the oldest write transaction still
 * running in this database (storage/postgres/horizon.ts), which the test's own may briefly be.
 */
async function fanOutUntil(outbox: Outbox, n: number): Promise<string[]> {
  for (let i = 0; i < 200; i++) {
    await outbox.settle([], true);
    const order = await queueOrder();
    if (order.length >= n) return order;
    await new Promise((r) => setTimeout(r, 25));
  }
  return queueOrder();
}

describe('PostgreSQL outbox', () => {
  it('fans out an event whose transaction commits after a later event was committed: nothing skipped, nothing twice', async () => {
    const outbox = createOutbox(pg.storage, clock);
    let wrote!: () => void;
    let finish!: () => void;
    const written = new Promise<void>((r) => {
      wrote = r;
    });
    const gate = new Promise<void>((r) => {
      finish = r;
    });
    // A takes the lower seq and stays open; B takes the next seq and commits first.
    const slow = pg.storage.tx(async (tx) => {
      await outbox.enqueue(tx, ORG, [draft('early seq, late commit')]);
      wrote();
      await gate;
    });
    await written;
    await second.tx((tx) => createOutbox(second, clock).enqueue(tx, ORG, [draft('later seq, early commit')]));
    const seqs = await pg.storage.all<{ seq: number }>('SELECT seq FROM webhook_events ORDER BY seq');
    expect(seqs).toHaveLength(1); // only B's is visible; `seq > last` would fan it out and pass A's seq for good

    await outbox.settle([], true);
    expect(await queueOrder()).toEqual([]); // held back while A runs
    finish();
    await slow;
    expect(await fanOutUntil(outbox, 2)).toEqual(['early seq, late commit', 'later seq, early commit']);
    await outbox.settle([], true);
    expect(await queueOrder()).toHaveLength(2);
  });

  it('one instance fans out at a time: the other skips the locked cursor instead of waiting', async () => {
    const one = createOutbox(pg.storage, clock);
    const two = createOutbox(second, clock);
    await pg.storage.tx((tx) => one.enqueue(tx, ORG, [draft('a'), draft('b'), draft('c')]));
    const results = await Promise.all([one.settle([], true), two.settle([], true), one.settle([], true), two.settle([], true)]);
    expect(results.every((r) => !r.moreEvents)).toBe(true);
    expect(await fanOutUntil(one, 3)).toEqual(['a', 'b', 'c']);
  });

  it('an endpoint is worked by one lease holder; a lapsed lease is taken over with a new epoch and the old holder cannot record', async () => {
    const one = createOutbox(pg.storage, clock);
    const two = createOutbox(second, clock);
    await pg.storage.tx((tx) => one.enqueue(tx, ORG, [draft('first'), draft('second')]));
    await fanOutUntil(one, 2);

    const [a, b] = await Promise.all([one.due(clock.now()), two.due(clock.now())]);
    expect(a.length + b.length).toBe(1);
    const [holder, other] = a.length ? [one, two] : [two, one];
    const head = (a[0] ?? b[0])!;
    expect(head.epoch).toBe(1);
    expect(JSON.parse(head.payload).data.message).toBe('first');
    expect(await other.due(clock.now())).toEqual([]); // held, even while the holder has nothing in flight
    expect(await holder.due(clock.now(), new Set(['wh_pg']))).toEqual([]); // busy here: not handed out twice

    // The holder stalls past its lease: the other instance takes the endpoint over.
    clock.advance(LEASE_MS + 1);
    const [taken] = await other.due(clock.now());
    expect(taken).toMatchObject({ deliveryId: head.deliveryId, epoch: 2 });
    const late = await holder.settle([{ delivery: head, attemptedAtMs: T0, outcome: ok }], false);
    expect(late.recorded).toEqual([{ result: 'lost', disabled: null }]);
    const fresh = await other.settle([{ delivery: taken!, attemptedAtMs: clock.now(), outcome: ok }], false);
    expect(fresh.recorded).toEqual([{ result: 'delivered', disabled: null }]);
    expect(await pg.storage.get('SELECT count(*) AS n FROM webhook_attempts')).toEqual({ n: 1 });

    // The next head stays with the holder of the lease, same epoch; released at stop, it passes on at once.
    const [next] = await other.due(clock.now());
    expect(next).toMatchObject({ epoch: 2 });
    expect(JSON.parse(next!.payload).data.message).toBe('second');
    await other.release();
    const [after] = await holder.due(clock.now());
    expect(after).toMatchObject({ deliveryId: next!.deliveryId, epoch: 3 });
  });

  it('records failures, retries and redeliveries, and prunes, with the same SQL as SQLite', async () => {
    const outbox = createOutbox(pg.storage, clock);
    await pg.storage.tx((tx) => outbox.enqueue(tx, ORG, [draft('only')]));
    await fanOutUntil(outbox, 1);
    const [head] = await outbox.due(clock.now());
    const failed = await outbox.settle(
      [{ delivery: head!, attemptedAtMs: clock.now(), outcome: { ok: false, status: 503, latencyMs: 2, error: 'HTTP 503' } }],
      false,
    );
    expect(failed.recorded).toEqual([{ result: 'retry', disabled: null }]);
    expect(await outbox.nextDueAt()).toBe(T0 + 5_000);
    expect(await pg.storage.get('SELECT failing_since FROM webhook_endpoints')).toEqual({ failing_since: new Date(T0).toISOString() });
    const attempt = await pg.storage.get<{ id: number }>('SELECT id FROM webhook_attempts');
    expect(await outbox.deliveryOfAttempt('wh_pg', attempt!.id)).toBe(head!.deliveryId);
    expect(await outbox.redeliver('wh_pg', head!.deliveryId)).toMatchObject({ deliveryId: head!.deliveryId, nextAttemptAt: T0 });
    const [again] = await outbox.due(clock.now());
    expect((await outbox.settle([{ delivery: again!, attemptedAtMs: clock.now(), outcome: ok }], false)).recorded[0]?.result).toBe(
      'delivered',
    );
    const copy = await outbox.redeliver('wh_pg', head!.deliveryId); // finished: a new delivery at the back of the queue
    expect(copy!.deliveryId).toBeGreaterThan(head!.deliveryId);
    clock.advance(31 * 24 * 3_600_000);
    await outbox.prune(clock.now());
    expect(await pg.storage.get('SELECT count(*) AS n FROM webhook_attempts')).toEqual({ n: 0 });
    expect(await pg.storage.get("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'")).toEqual({ n: 1 });
    expect(await pg.storage.get('SELECT count(*) AS n FROM webhook_events')).toEqual({ n: 1 }); // still referenced by the pending copy
  });
});
