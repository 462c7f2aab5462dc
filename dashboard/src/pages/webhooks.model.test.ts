import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../../server/test/webhook-receiver.js';
import { clientFor, startTestServer, type Server } from '../../e2e/support.js';
import type { ApiClient } from '../lib/api.js';
import { createWebhookDetailModel, createWebhooksModel, nextRetry } from './webhooks.model.js';

// The webhooks page models against a real Parley and a real local receiver.

let server: Server;
let client: ApiClient;
let receiver: Receiver;

beforeAll(async () => {
  server = await startTestServer({ config: { webhookAllowPrivate: true } });
  client = clientFor(server);
  receiver = await startReceiver((r) => (r.path.includes('fail') ? 500 : 200));
});
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

const until = async (check: () => boolean, ms = 18_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('webhooks model', () => {
  it('"*" and single events exclude each other', () => {
    const m = createWebhooksModel(client);
    expect(m.form.events.value).toEqual(['*']);
    m.toggleEvent('message.sent', true);
    expect(m.form.events.value).toEqual(['message.sent']);
    m.toggleEvent('conversation.started', true);
    expect(m.form.events.value).toEqual(['conversation.started', 'message.sent']);
    m.toggleEvent('*', true);
    expect(m.form.events.value).toEqual(['*']);
    m.toggleEvent('*', false);
    expect(m.form.events.value).toEqual([]);
  });

  it('creates a webhook whose secret is shown once; a bad URL keeps the form with the field message', async () => {
    const m = createWebhooksModel(client);
    await m.load();
    m.form.url.value = 'not a url';
    expect(await m.create()).toBeUndefined();
    expect(m.form.submit.fieldError('url')).toBeTruthy();
    expect(m.form.url.value).toBe('not a url');

    m.form.url.value = receiver.url;
    m.form.assistantId.value = server.assistantId;
    m.form.description.value = 'CRM sync';
    const hook = await m.create();
    expect(hook).toMatchObject({
      url: receiver.url,
      events: ['*'],
      assistantId: server.assistantId,
      description: 'CRM sync',
      enabled: true,
    });
    expect(m.secret.value?.secret).toMatch(/^whsec_/);
    const listed = m.hooks.data.value!.items.find((h) => h.id === hook!.id)!;
    expect(listed.secret).toBeUndefined();

    expect((await m.setEnabled(hook!.id, false))?.enabled).toBe(false);
    expect(m.hooks.data.value!.items.find((h) => h.id === hook!.id)!.enabled).toBe(false);
    expect(await m.remove(hook!.id)).toBe(true);
    expect(m.hooks.data.value!.items.some((h) => h.id === hook!.id)).toBe(false);
  });

  it('sends a test event and the log shows the delivery (status, code, latency)', async () => {
    const hook = await client.post<{ id: string }>('/webhooks', { url: receiver.url, events: ['*'] });
    const m = createWebhookDetailModel(client, hook.id, { pollMs: 50 });
    await m.load();
    expect(m.deliveries.data.value?.items).toEqual([]);
    await m.sendTest();
    await until(() => (m.deliveries.data.value?.items.length ?? 0) > 0);
    const d = m.deliveries.data.value!.items[0]!;
    expect(d).toMatchObject({ event: 'webhook.test', status: 'succeeded', responseCode: 200, attempt: 1 });
    expect(typeof d.latencyMs).toBe('number');
    expect(receiver.received.some((r) => r.json.event === 'webhook.test')).toBe(true);
    m.stop();
  });

  it('a failing endpoint shows the failure with its next retry; redeliver queues a new attempt', async () => {
    const hook = await client.post<{ id: string }>('/webhooks', { url: receiver.url.replace('/hooks', '/fail'), events: ['*'] });
    const m = createWebhookDetailModel(client, hook.id, { pollMs: 50 });
    await m.sendTest();
    await until(() => (m.deliveries.data.value?.items.length ?? 0) > 0);
    const failed = m.deliveries.data.value!.items[0]!;
    expect(failed).toMatchObject({ status: 'failed', responseCode: 500 });
    expect(nextRetry(failed)).toBeTruthy();

    const before = m.deliveries.data.value!.total;
    const ok = await m.redeliver(failed.id);
    expect(m.action.error.value?.message ?? null).toBeNull();
    expect(ok).toBe(true);
    await until(() => (m.deliveries.data.value?.total ?? 0) > before);
    m.stop();
  });

  it('a disabled webhook cannot send a test: the server message is shown', async () => {
    const hook = await client.post<{ id: string }>('/webhooks', { url: receiver.url, events: ['message.sent'] });
    const m = createWebhookDetailModel(client, hook.id);
    await m.load();
    await m.setEnabled(false);
    expect(m.hook.data.value?.enabled).toBe(false);
    await m.sendTest();
    expect(m.action.error.value?.kind).toBe('conflict');
    expect(await m.remove()).toBe(true);
  });
});
