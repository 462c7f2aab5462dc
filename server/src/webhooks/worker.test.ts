import type dns from 'node:dns';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { createApp } from '../app.js';
import { openDb } from '../db/open.js';
import { createFakeClock, type FakeClock } from '../lib/clock.js';
import type { WebhookWorkerTuning } from '../server.js';
import { DISABLE_AFTER_FAILING_MS, RETRY_DELAYS_MS } from './attempts.js';
import { FANOUT_BATCH } from './fan-out.js';
import { signWebhook } from './signing.js';
import { createWebhookStore } from './store.js';
import { ATTEMPT_TIMEOUT_MS } from './worker.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const HOUR = 3_600_000;
let clock: FakeClock;
let server: TestServer;
let receiver: Receiver;
const extra: { close(): Promise<void> }[] = [];

// The poll timer is pushed out of the way: every attempt below happens in drain(), on the fake clock.
const quiet: WebhookWorkerTuning = { pollMs: HOUR };

beforeEach(async () => {
  clock = createFakeClock(T0);
  server = await startServer({ clock, config: { webhookAllowPrivate: true }, webhooks: quiet });
  receiver = await startReceiver();
});
afterEach(async () => {
  for (const c of extra.splice(0).reverse()) await c.close();
  await receiver.close();
  await server.close();
});

async function hookFor(s: TestServer, url: string, body: Record<string, unknown> = {}) {
  const shop = await setupShop(s.url);
  await shop.api.patch(`/v1/organizations/${shop.organization.id}`, { plan: 'enterprise' });
  const created = await shop.api.post('/v1/webhooks', { url, events: ['*'], ...body });
  expect(created.status, created.text).toBe(201);
  return { shop, hook: created.body.data as { id: string; secret: string } };
}
type Shop = Awaited<ReturnType<typeof hookFor>>['shop'];

const attemptsOf = async (shop: Shop, hookId: string) =>
  (await shop.api.get(`/v1/webhooks/${hookId}/deliveries?limit=100`)).body.data.reverse();
const drain = () => server.webhooks.drain();

describe('retries', () => {
  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with the same webhook-id, then gives up', async () => {
    expect(RETRY_DELAYS_MS).toEqual([5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
    receiver.respondWith(() => 500);
    const { shop, hook } = await hookFor(server, receiver.url);
    const sent = await shop.api.post(`/v1/webhooks/${hook.id}/test`);
    await drain();
    expect(receiver.received).toHaveLength(1);
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      clock.advance(delay - 1);
      await drain();
      expect(receiver.received, `retry ${i + 1} must wait its full delay`).toHaveLength(i + 1);
      clock.advance(1);
      await drain();
      expect(receiver.received).toHaveLength(i + 2);
    }
    clock.advance(100 * HOUR);
    await drain();
    expect(receiver.received).toHaveLength(8);

    const seconds = receiver.received.map((r) => Number(r.timestamp));
    expect(seconds.slice(1).map((s, i) => s - (seconds[i] as number))).toEqual(RETRY_DELAYS_MS.map((d) => d / 1000));
    expect(new Set(receiver.received.map((r) => r.webhookId))).toEqual(new Set([sent.body.data.webhookId]));
    for (const r of receiver.received) expect(r.signature).toBe(signWebhook(hook.secret, r.webhookId, Number(r.timestamp), r.body));
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1); // the same bytes every time

    const log = await attemptsOf(shop, hook.id);
    expect(log.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const [i, a] of log.entries()) {
      expect(a).toMatchObject({ status: 'failed', responseCode: 500, error: 'HTTP 500' });
      const delay = RETRY_DELAYS_MS[i];
      expect(a.nextRetryAt === null ? null : Date.parse(a.nextRetryAt) - Date.parse(a.attemptedAt)).toBe(delay ?? null);
    }
    const endpoint = (await shop.api.get(`/v1/webhooks/${hook.id}`)).body.data;
    expect(endpoint).toMatchObject({ enabled: true, failingSince: new Date(T0).toISOString(), pendingDeliveries: 0 });
  });

  it('times out after the attempt timeout, never follows redirects, and reports refused connections', async () => {
    expect(ATTEMPT_TIMEOUT_MS).toBe(15_000);
    const fast = await startServer({ clock, config: { webhookAllowPrivate: true }, webhooks: { ...quiet, timeoutMs: 200 } });
    extra.push(fast);
    receiver.respondWith((_r, i) =>
      i === 0 ? 'hang' : i === 1 ? { status: 302, headers: { location: `http://127.0.0.1:${receiver.port}/elsewhere` } } : 200,
    );
    const { shop, hook } = await hookFor(fast, receiver.url);
    await shop.api.post(`/v1/webhooks/${hook.id}/test`);
    await fast.webhooks.drain();
    clock.advance(5_000);
    await fast.webhooks.drain();
    clock.advance(300_000);
    await fast.webhooks.drain();
    const log = await attemptsOf(shop, hook.id);
    expect(
      log.map((a: { status: string; responseCode: number | null; error: string | null }) => [a.status, a.responseCode, a.error]),
    ).toEqual([
      ['failed', null, 'timed out after 0.2 s'],
      ['failed', 302, `HTTP 302 (redirect to http://127.0.0.1:${receiver.port}/elsewhere not followed)`],
      ['succeeded', 200, null],
    ]);
    expect(log[0].latencyMs).toBeGreaterThanOrEqual(190);
    expect(receiver.received.map((r) => r.path)).toEqual(['/hooks', '/hooks', '/hooks']);

    const closed = await startReceiver();
    await closed.close();
    const refused = await shop.api.post('/v1/webhooks', { url: closed.url, events: ['*'] });
    await shop.api.post(`/v1/webhooks/${refused.body.data.id}/test`);
    await fast.webhooks.drain();
    expect((await attemptsOf(shop, refused.body.data.id))[0]).toMatchObject({
      status: 'failed',
      responseCode: null,
      error: 'connection refused',
    });
  });
});

describe('ordering', () => {
  it("delivers each endpoint's events in event order: a failing head holds its own queue, not other endpoints'", async () => {
    const steady = await startReceiver();
    extra.push(steady);
    receiver.respondWith((_r, i) => (i === 0 ? 500 : 200));
    const { shop } = await hookFor(server, receiver.url);
    await shop.api.post('/v1/webhooks', { url: steady.url, events: ['*'] });
    await shop.keyApi.post(shop.chatPath, { message: 'How do I reset my password?', sessionId: 'o-1' });
    await shop.keyApi.post(shop.chatPath, { message: 'And shipping times?', sessionId: 'o-1' });
    await drain();
    expect(steady.received).toHaveLength(10);
    expect(receiver.received).toHaveLength(1); // the failed head; the nine behind it wait
    clock.advance(5_000);
    await drain();
    const order = steady.received.map((r) => r.webhookId);
    expect(receiver.received.map((r) => r.webhookId)).toEqual([order[0], ...order]);
    const times = steady.received.map((r) => r.json.timestamp);
    expect([...times].sort()).toEqual(times);
  });
});

describe('disabling', () => {
  it('410 Gone disables the endpoint at once; what was queued waits and is delivered, in order, once it is re-enabled', async () => {
    receiver.respondWith((_r, i) => (i === 0 ? 410 : 200));
    const { shop, hook } = await hookFor(server, receiver.url);
    await shop.keyApi.post(shop.chatPath, { message: 'Hello', sessionId: 'g-1' });
    await drain();
    expect(receiver.received).toHaveLength(1);
    let endpoint = (await shop.api.get(`/v1/webhooks/${hook.id}`)).body.data;
    expect(endpoint).toMatchObject({
      enabled: false,
      disabledReason: 'gone',
      disabledAt: new Date(T0).toISOString(),
      pendingDeliveries: 5,
    });
    expect((await attemptsOf(shop, hook.id))[0]).toMatchObject({ status: 'failed', responseCode: 410, nextRetryAt: null });

    clock.advance(24 * HOUR);
    await shop.keyApi.post(shop.chatPath, { message: 'Anyone there?', sessionId: 'g-1' }); // not queued: disabled
    await drain();
    expect(receiver.received).toHaveLength(1);

    endpoint = (await shop.api.patch(`/v1/webhooks/${hook.id}`, { enabled: true })).body.data;
    expect(endpoint).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    await drain();
    expect(receiver.received.slice(1).map((r) => r.json.event)).toEqual([
      'conversation.created',
      'message.received',
      'conversation.message.created',
      'message.sent',
      'conversation.message.created',
    ]);
    expect(receiver.received.every((r) => r.json.data.message !== 'Anyone there?')).toBe(true);
  });

  it('an endpoint whose every attempt fails for 5 days is disabled and marked so', async () => {
    receiver.respondWith(() => 503);
    const { shop, hook } = await hookFor(server, receiver.url);
    for (let i = 0; i < 5; i++) await shop.api.post(`/v1/webhooks/${hook.id}/test`);
    await drain();
    for (let guard = 0; guard < 100; guard++) {
      const next = await server.ctx.webhooks.outbox.nextDueAt();
      const enabled = (await shop.api.get(`/v1/webhooks/${hook.id}`)).body.data.enabled;
      if (next === null || !enabled) break;
      clock.set(Math.max(next, clock.now()));
      await drain();
    }
    const endpoint = (await shop.api.get(`/v1/webhooks/${hook.id}`)).body.data;
    expect(endpoint).toMatchObject({
      enabled: false,
      disabledReason: 'failing',
      failingSince: new Date(T0).toISOString(),
      pendingDeliveries: 1,
    });
    const log = await attemptsOf(shop, hook.id);
    const last = log.at(-1);
    const beforeLast = log.at(-2);
    expect(Date.parse(last.attemptedAt) - T0).toBeGreaterThanOrEqual(DISABLE_AFTER_FAILING_MS);
    expect(Date.parse(beforeLast.attemptedAt) - T0).toBeLessThan(DISABLE_AFTER_FAILING_MS);
    expect(endpoint.disabledAt).toBe(last.attemptedAt);
    // Four deliveries used their whole schedule (8 attempts each); the fifth was cut short.
    expect(log).toHaveLength(4 * 8 + 7);
    clock.advance(48 * HOUR);
    await drain();
    expect(receiver.received).toHaveLength(log.length);
  });

  it('a success ends a failure streak', async () => {
    receiver.respondWith((_r, i) => (i === 0 ? 500 : 200));
    const { shop, hook } = await hookFor(server, receiver.url);
    await shop.api.post(`/v1/webhooks/${hook.id}/test`);
    await drain();
    expect((await shop.api.get(`/v1/webhooks/${hook.id}`)).body.data.failingSince).toBe(new Date(T0).toISOString());
    clock.advance(5_000);
    await drain();
    expect((await shop.api.get(`/v1/webhooks/${hook.id}`)).body.data.failingSince).toBeNull();
  });
});

describe('safety at delivery time', () => {
  it('a URL whose name resolves to a private address when delivering is refused (DNS rebinding), and logged', async () => {
    const resolve = (_h: string, _o: dns.LookupAllOptions, cb: (e: NodeJS.ErrnoException | null, a: dns.LookupAddress[]) => void) =>
      cb(null, [{ address: '127.0.0.1', family: 4 }]);
    const strict = await startServer({ clock, config: { webhookAllowPrivate: false }, webhooks: { ...quiet, resolve } });
    extra.push(strict);
    const { shop, hook } = await hookFor(strict, `http://hooks.customer.example:${receiver.port}/hooks`);
    await shop.api.post(`/v1/webhooks/${hook.id}/test`);
    await strict.webhooks.drain();
    expect(receiver.received).toHaveLength(0);
    const [attempt] = await attemptsOf(shop, hook.id);
    expect(attempt).toMatchObject({
      status: 'failed',
      responseCode: null,
      error: 'hooks.customer.example resolves to 127.0.0.1, a loopback address: refused (set WEBHOOK_ALLOW_PRIVATE=true to allow)',
    });
  });
});

describe('the outbox', () => {
  it('is written in the transaction of the cause: a rolled-back change leaves no event', async () => {
    const { shop } = await hookFor(server, receiver.url);
    const storage = server.ctx.storage;
    const count = async () => (await storage.get<{ n: number }>('SELECT count(*) AS n FROM webhook_events'))?.n;
    await expect(
      storage.tx(async (tx) => {
        await server.ctx.webhooks.knowledgeBaseUpdated(tx, { knowledgeBaseId: shop.kbId, change: 'updated' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await count()).toBe(0);
    await storage.tx((tx) => server.ctx.webhooks.knowledgeBaseUpdated(tx, { knowledgeBaseId: shop.kbId, change: 'updated' }));
    expect(await count()).toBe(1);
  });

  it('wakes the worker once the writing transaction commits: an event of a slow transaction goes out without the poll', async () => {
    const { shop } = await hookFor(server, receiver.url);
    await server.ctx.storage.tx(async (tx) => {
      await server.ctx.webhooks.knowledgeBaseUpdated(tx, { knowledgeBaseId: shop.kbId, change: 'updated' });
      // Still open across turns of the event loop, as on a loaded machine. Woken now, the worker
      // would run its round inside this transaction's context, or find nothing yet on PostgreSQL.
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    // No drain(), and the poll is an hour away: only the wake-up at commit can send it.
    await receiver.waitFor((all) => all.length === 1, 10_000);
    expect(receiver.received.map((r) => r.json.event)).toEqual(['knowledge_base.updated']);
  });

  it('fans an event out to the endpoints that existed when it happened', async () => {
    const { shop } = await hookFor(server, receiver.url);
    const late = await startReceiver();
    extra.push(late);
    // The event is committed; in the same turn, before the worker can fan it out, a second endpoint appears.
    await server.ctx.storage.tx((tx) => server.ctx.webhooks.knowledgeBaseUpdated(tx, { knowledgeBaseId: shop.kbId, change: 'updated' }));
    await createWebhookStore(server.ctx.storage).create(
      shop.organization.id,
      { url: late.url, events: ['*'], assistantId: null, description: null },
      new Date(T0 + 1).toISOString(),
    );
    await drain();
    expect(receiver.received.map((r) => r.json.event)).toEqual(['knowledge_base.updated']);
    expect(late.received).toHaveLength(0);
  });

  it('fans out a backlog larger than one batch', async () => {
    const { shop } = await hookFor(server, receiver.url, { events: ['knowledge_base.updated'] });
    await server.ctx.storage.tx(async (tx) => {
      for (let i = 0; i <= FANOUT_BATCH; i++)
        await server.ctx.webhooks.knowledgeBaseUpdated(tx, { knowledgeBaseId: shop.kbId, change: 'updated' });
    });
    await drain();
    expect(new Set(receiver.received.map((r) => r.webhookId)).size).toBe(FANOUT_BATCH + 1);
    // 1,001 deliveries to one endpoint go one at a time (its order): 12 s on PostgreSQL at load 7.
  }, 90_000);

  it('survives a restart: an attempt cut short by shutdown is sent again, with the same webhook-id, by the next process', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-webhooks-')), 'parley.db');
    const db1 = openDb(file);
    const first = await startServer({ db: db1, clock, config: { webhookAllowPrivate: true }, webhooks: { ...quiet, stopGraceMs: 50 } });
    receiver.respondWith((_r, i) => (i === 0 ? 'hang' : 200));
    const { shop } = await hookFor(first, receiver.url);
    await shop.keyApi.post(shop.chatPath, { message: 'Hello', sessionId: 'r-1' });
    await receiver.waitFor((all) => all.length === 1);
    await first.close(); // the hung attempt is aborted: no outcome, nothing recorded
    db1.close();
    expect(receiver.received).toHaveLength(1);

    const db2 = openDb(file);
    const second = await startServer({ db: db2, clock, config: { webhookAllowPrivate: true }, webhooks: quiet });
    extra.push({
      close: async () => {
        await second.close();
        db2.close();
      },
    });
    await receiver.waitFor((all) => all.length === 7); // start() picks up what is pending
    const ids = receiver.received.map((r) => r.webhookId);
    expect(ids[1]).toBe(ids[0]);
    expect(new Set(ids).size).toBe(6);
    expect(receiver.received.slice(1).map((r) => r.json.event)).toEqual([
      'conversation.started',
      'conversation.created',
      'message.received',
      'conversation.message.created',
      'message.sent',
      'conversation.message.created',
    ]);
  });

  it('an attempt that cannot be recorded rests its endpoint for 30 s instead of hitting it again at once', async () => {
    const { shop, hook } = await hookFor(server, receiver.url);
    const outbox = server.ctx.webhooks.outbox;
    const real = outbox.settle;
    outbox.settle = (attempts, fanOut) => {
      if (attempts.length) throw new Error('disk I/O error');
      return real(attempts, fanOut);
    };
    try {
      await shop.api.post(`/v1/webhooks/${hook.id}/test`);
      await drain();
      await drain();
      expect(receiver.received).toHaveLength(1);
    } finally {
      outbox.settle = real;
    }
    clock.advance(29_999);
    await drain();
    expect(receiver.received).toHaveLength(1);
    clock.advance(1);
    await drain();
    expect(receiver.received.map((r) => r.webhookId)).toEqual([receiver.received[0]?.webhookId, receiver.received[0]?.webhookId]);
    expect((await attemptsOf(shop, hook.id)).map((a: { status: string }) => a.status)).toEqual(['succeeded']);
  });

  it('forgets finished deliveries after 30 days and keeps pending ones', async () => {
    const { shop, hook } = await hookFor(server, receiver.url);
    // A key, not the session: a session expires after 30 days.
    const key = client(server.url, (await shop.api.post('/v1/api-keys', { name: 'ops', permissions: ['webhooks:write'] })).body.data.key);
    await key.post(`/v1/webhooks/${hook.id}/test`);
    await drain();
    receiver.respondWith(() => 500);
    clock.advance(20 * 24 * HOUR);
    await key.post(`/v1/webhooks/${hook.id}/test`);
    await drain();
    const { maintain } = createApp(server.ctx);
    clock.advance(11 * 24 * HOUR);
    await maintain();
    const log = (await key.get(`/v1/webhooks/${hook.id}/deliveries`)).body.data;
    expect(log.map((a: { status: string }) => a.status)).toEqual(['failed']);
    expect((await key.get(`/v1/webhooks/${hook.id}`)).body.data.pendingDeliveries).toBe(1);
    expect(await server.ctx.storage.get('SELECT count(*) AS n FROM webhook_events')).toEqual({ n: 1 });
  });
});
