import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client, registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { createFakeClock, type FakeClock } from '../lib/clock.js';
import { RETRY_DELAYS_MS } from './attempts.js';

let server: TestServer;
let receiver: Receiver;
let status = 200;

beforeEach(async () => {
  status = 200;
  server = await startServer({ clock: createFakeClock(Date.now()), config: { webhookAllowPrivate: true } });
  receiver = await startReceiver(() => status);
});
afterEach(async () => {
  await server.close();
  await receiver.close();
});

async function shopWithHook() {
  const shop = await setupShop(server.url);
  const hook = await shop.api.post('/v1/webhooks', { url: receiver.url, events: ['*'] });
  return { shop, hookId: hook.body.data.id as string };
}

describe('webhook delivery log and redeliver (dashboard)', () => {
  it('lists attempts with the dashboard fields', async () => {
    const { shop, hookId } = await shopWithHook();
    await shop.api.post(`/v1/webhooks/${hookId}/test`);
    await server.webhooks.drain();
    const log = await shop.api.get(`/v1/webhooks/${hookId}/deliveries`);
    expect(log.body.data[0]).toEqual({
      id: expect.stringMatching(/^att_\d+$/),
      deliveryId: expect.stringMatching(/^dlv_\d+$/),
      eventId: receiver.received[0]?.webhookId,
      webhookId: receiver.received[0]?.webhookId,
      event: 'webhook.test',
      status: 'succeeded',
      responseCode: 200,
      latencyMs: expect.any(Number),
      error: null,
      attempt: 1,
      nextAttemptAt: null,
      nextRetryAt: null,
      createdAt: expect.any(String),
      attemptedAt: expect.any(String),
    });
  });

  it('redelivers a failed delivery now, with the same webhook-id (202), from its deliveryId or its attempt id', async () => {
    const { shop, hookId } = await shopWithHook();
    status = 500;
    await shop.api.post(`/v1/webhooks/${hookId}/test`);
    await server.webhooks.drain();
    expect(receiver.received).toHaveLength(1);
    const failed = (await shop.api.get(`/v1/webhooks/${hookId}/deliveries`)).body.data[0];
    expect(failed).toMatchObject({ status: 'failed', responseCode: 500, nextAttemptAt: expect.any(String) });
    // Still pending (next retry in 5 s): redeliver makes it due now.
    status = 200;
    const res = await shop.api.post(`/v1/webhooks/${hookId}/deliveries/${failed.deliveryId}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      deliveryId: failed.deliveryId,
      webhookId: failed.eventId,
      event: 'webhook.test',
      status: 'pending',
    });
    await server.webhooks.drain();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]?.webhookId).toBe(receiver.received[0]?.webhookId);
    // A delivered one is sent again as a new delivery (fresh attempt count), same webhook-id; the attempt id works too.
    const log = (await shop.api.get(`/v1/webhooks/${hookId}/deliveries`)).body.data;
    expect(log[0]).toMatchObject({ status: 'succeeded', attempt: 2 });
    const again = await shop.api.post(`/v1/webhooks/${hookId}/deliveries/${log[0].id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body.data.deliveryId).not.toBe(failed.deliveryId);
    await server.webhooks.drain();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2]?.webhookId).toBe(receiver.received[0]?.webhookId);
    const latest = (await shop.api.get(`/v1/webhooks/${hookId}/deliveries`)).body.data[0];
    expect(latest).toMatchObject({ deliveryId: again.body.data.deliveryId, attempt: 1, status: 'succeeded' });
  });

  it('a delivery given up after every retry can be redelivered', async () => {
    const clock = server.ctx.clock as FakeClock;
    const { shop, hookId } = await shopWithHook();
    status = 503;
    await shop.api.post(`/v1/webhooks/${hookId}/test`);
    await server.webhooks.drain();
    for (const delay of RETRY_DELAYS_MS) {
      clock.advance(delay);
      await server.webhooks.drain();
    }
    const log = (await shop.api.get(`/v1/webhooks/${hookId}/deliveries`)).body.data;
    expect(log[0]).toMatchObject({ attempt: RETRY_DELAYS_MS.length + 1, nextAttemptAt: null });
    status = 200;
    expect((await shop.api.post(`/v1/webhooks/${hookId}/deliveries/${log[0].deliveryId}/redeliver`)).status).toBe(202);
    await server.webhooks.drain();
    expect(receiver.received.at(-1)?.webhookId).toBe(receiver.received[0]?.webhookId);
    expect((await shop.api.get(`/v1/webhooks/${hookId}/deliveries`)).body.data[0]).toMatchObject({ status: 'succeeded', attempt: 1 });
  });

  it('404 for unknown deliveries and other organizations; 409 when disabled; needs webhooks:write', async () => {
    const { shop, hookId } = await shopWithHook();
    await shop.api.post(`/v1/webhooks/${hookId}/test`);
    await server.webhooks.drain();
    const item = (await shop.api.get(`/v1/webhooks/${hookId}/deliveries`)).body.data[0];
    const path = `/v1/webhooks/${hookId}/deliveries/${item.deliveryId}/redeliver`;
    expect((await shop.api.post(`/v1/webhooks/${hookId}/deliveries/dlv_999999/redeliver`)).status).toBe(404);
    expect((await shop.api.post(`/v1/webhooks/${hookId}/deliveries/nonsense/redeliver`)).status).toBe(404);
    const other = await registerAccount(server.url);
    expect((await other.api.post(path)).status).toBe(404);
    const key = await shop.api.post('/v1/api-keys', { name: 'k', permissions: ['chat'] });
    expect((await client(server.url, key.body.data.key).post(path)).status).toBe(403);
    await shop.api.patch(`/v1/webhooks/${hookId}`, { enabled: false });
    expect((await shop.api.post(path)).status).toBe(409);
  });
});
