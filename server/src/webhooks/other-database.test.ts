import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { postgresUrlFor, testDatabase } from '../../test/postgres.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { createFakeClock } from '../lib/clock.js';

/**
 * Webhooks end to end while a transaction of ANOTHER database of the same PostgreSQL server stays
 * open (someone's psql session, a report, another application): the fan-out cursor reads below
 * the commit horizon of Parley's own database (storage/postgres/horizon.ts), so the event is
 * delivered at once. With a server-wide horizon it waited until that transaction ended. On SQLite
 * the open transaction is simply unrelated (the file runs on both backends).
 */

const HOUR = 3_600_000;
let server: TestServer;
let receiver: Receiver;
let other: pg.Client;

beforeEach(async () => {
  server = await startServer({
    clock: createFakeClock(Date.parse('2026-03-01T00:00:00.000Z')),
    config: { webhookAllowPrivate: true },
    webhooks: { pollMs: HOUR },
  });
  receiver = await startReceiver();
  other = new pg.Client({ connectionString: postgresUrlFor('postgres'), application_name: 'parley-test-other-database' });
  other.on('error', () => undefined);
  await other.connect();
});
afterEach(async () => {
  await other.end().catch(() => undefined);
  await receiver.close();
  await server.close();
});

describe('an open transaction in another database', () => {
  it('does not hold a webhook event back', async () => {
    await other.query('BEGIN');
    const foreign = BigInt((await other.query<{ x: string }>('SELECT CAST(pg_current_xact_id() AS TEXT) AS x')).rows[0]!.x);

    const shop = await setupShop(server.url);
    await shop.api.patch(`/v1/organizations/${shop.organization.id}`, { plan: 'enterprise' });
    const created = await shop.api.post('/v1/webhooks', { url: receiver.url, events: ['*'] });
    expect(created.status, created.text).toBe(201);
    const sent = await shop.api.post(`/v1/webhooks/${(created.body.data as { id: string }).id}/test`);
    expect(sent.status, sent.text).toBeLessThan(300);

    if (testDatabase === 'postgres') {
      // The control: the event's transaction came after the foreign one, which still holds the
      // server-wide xmin (what the cursor used to read below).
      const s = server.ctx.storage;
      const ev = await s.get<{
        x: string;
        xmin: string;
      }>(`SELECT CAST(xact_id AS TEXT) AS x, CAST(pg_snapshot_xmin(pg_current_snapshot()) AS TEXT) AS xmin
        FROM webhook_events ORDER BY seq DESC LIMIT 1`);
      expect(BigInt(ev!.x)).toBeGreaterThan(foreign);
      expect(BigInt(ev!.xmin)).toBeLessThanOrEqual(foreign);
    }
    // A transaction of Parley's own (a background job) may hold the cursor for a moment: a few
    // rounds, all while the foreign transaction stays open.
    const t0 = performance.now();
    while (receiver.received.length === 0 && performance.now() - t0 < 3_000) {
      await server.webhooks.drain();
      if (!receiver.received.length) await new Promise((r) => setTimeout(r, 25));
    }
    expect(receiver.received.map((r) => r.webhookId)).toEqual([(sent.body.data as { webhookId: string }).webhookId]);
    console.log(
      `webhook delivered ${(performance.now() - t0).toFixed(1)} ms after the event, another database's transaction open (${testDatabase})`,
    );
    await other.query('COMMIT');
  });
});
