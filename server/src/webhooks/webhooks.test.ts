import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { startReceiver, type Received, type Receiver } from '../../test/webhook-receiver.js';
import { createApp } from '../app.js';
import { createFakeClock, type FakeClock } from '../lib/clock.js';
import type { PostgresStorage } from '../storage/postgres.js';

let server: TestServer;
let receiver: Receiver;
let clock: FakeClock;

beforeEach(async () => {
  // Near real time: the reference verifier refuses timestamps more than 5 minutes off.
  clock = createFakeClock(Date.now());
  server = await startServer({ clock, config: { webhookAllowPrivate: true } });
  receiver = await startReceiver();
});
afterEach(async () => {
  await server.close();
  await receiver.close();
});

type Shop = Awaited<ReturnType<typeof setupShop>>;

async function shopWithWebhook(body: Record<string, unknown> = {}, shopOverrides: Record<string, unknown> = {}) {
  const shop = await setupShop(server.url, shopOverrides);
  await shop.api.patch(`/v1/organizations/${shop.organization.id}`, { plan: 'enterprise' });
  const created = await shop.api.post('/v1/webhooks', { url: receiver.url, events: ['*'], ...body });
  expect(created.status, created.text).toBe(201);
  return { shop, hook: created.body.data as { id: string; secret: string } };
}

/** Delivers everything due and returns what the receiver got, as [event, data] pairs. */
async function delivered(): Promise<Received[]> {
  await server.webhooks.drain();
  return receiver.received;
}
const events = (list: Received[]) => list.map((r) => r.json.event);

describe('webhook endpoints (API.md §9)', () => {
  it('creates an endpoint with a whsec_ secret shown once, lists, reads, updates and deletes it', async () => {
    const shop = await setupShop(server.url);
    const created = await shop.api.post('/v1/webhooks', {
      url: receiver.url,
      events: ['message.received', 'message.sent', 'message.sent'],
      description: 'CRM sync',
    });
    expect(created.status).toBe(201);
    const hook = created.body.data;
    expect(hook).toEqual({
      id: expect.stringMatching(/^wh_/),
      url: receiver.url,
      description: 'CRM sync',
      events: ['message.received', 'message.sent'],
      assistantId: null,
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
      pendingDeliveries: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdBy: { userId: shop.user.id, email: shop.email, name: null },
    });

    const list = await shop.api.get('/api/v1/webhooks?limit=5');
    expect(list.body.pagination).toEqual({ total: 1, page: 1, limit: 5, pages: 1 });
    expect(list.body.data[0].id).toBe(hook.id);
    expect(list.body.data[0]).not.toHaveProperty('secret');
    const one = await shop.api.get(`/v1/webhooks/${hook.id}`);
    expect(one.body.data).not.toHaveProperty('secret');

    const patched = await shop.api.patch(`/v1/webhooks/${hook.id}`, { events: ['*', 'message.sent'], description: null, enabled: false });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      events: ['*'],
      description: null,
      enabled: false,
      disabledReason: 'manual',
      disabledAt: expect.any(String),
    });
    const reenabled = await shop.api.patch(`/v1/webhooks/${hook.id}`, { enabled: true });
    expect(reenabled.body.data).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });

    expect((await shop.api.del(`/v1/webhooks/${hook.id}`)).body.data).toEqual({ id: hook.id, deleted: true });
    expect((await shop.api.get(`/v1/webhooks/${hook.id}`)).status).toBe(404);
    expect((await shop.api.get(`/v1/webhooks/${hook.id}/deliveries`)).status).toBe(404);
  });

  it('validates URLs, events and fields', async () => {
    const shop = await setupShop(server.url);
    const bad = async (body: unknown) => {
      const res = await shop.api.post('/v1/webhooks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      return res.body.error.message as string;
    };
    expect(await bad({ url: 'ftp://example.com/x', events: ['*'] })).toMatch(/^url: must be an http\(s\) URL/);
    expect(await bad({ url: 'https://u:p@example.com/x', events: ['*'] })).toMatch(/credentials/);
    expect(await bad({ url: receiver.url, events: ['message.deleted'] })).toMatch(
      /events\.0: must be "\*" or one of conversation\.started/,
    );
    expect(await bad({ url: receiver.url, events: [] })).toMatch(/^events:/);
    expect(await bad({ url: receiver.url })).toMatch(/^events:/);
    expect(await bad({ url: receiver.url, events: ['*'], secret: 'mine' })).toMatch(/secret/);
    expect(await bad({ url: receiver.url, events: ['webhook.test'] })).toMatch(/events\.0/);
    expect((await shop.api.post('/v1/webhooks', { url: receiver.url, events: ['*'], assistantId: 'asst_nope' })).status).toBe(404);
    expect((await shop.api.get('/v1/webhooks?limit=101')).status).toBe(400);
  });

  it('refuses private and loopback URLs unless WEBHOOK_ALLOW_PRIVATE=true', async () => {
    const strict = await startServer({ config: { webhookAllowPrivate: false } });
    try {
      const shop = await setupShop(strict.url);
      for (const url of [
        receiver.url,
        'http://localhost:3000/',
        'http://[::1]/',
        'http://[::ffff:127.0.0.1]/',
        'http://0.0.0.0/',
        'http://169.254.169.254/',
        'http://10.1.2.3/',
        'http://2130706433/',
      ]) {
        const res = await shop.api.post('/v1/webhooks', { url, events: ['*'] });
        expect(res.status, url).toBe(400);
        expect(res.body.error.message).toMatch(/WEBHOOK_ALLOW_PRIVATE/);
      }
      expect((await shop.api.post('/v1/webhooks', { url: 'https://hooks.example.com/parley', events: ['*'] })).status).toBe(201);
    } finally {
      await strict.close();
    }
  });

  it('keeps organizations apart and binds assistant-bound keys to their assistant', async () => {
    const { shop, hook } = await shopWithWebhook();
    const other = await setupShop(server.url);
    expect((await other.api.get(`/v1/webhooks/${hook.id}`)).status).toBe(404);
    expect((await other.api.del(`/v1/webhooks/${hook.id}`)).status).toBe(404);
    expect((await other.api.get('/v1/webhooks')).body.data).toEqual([]);

    const boundKey = await shop.api.post('/v1/api-keys', { name: 'bound', permissions: ['webhooks:write'], assistantId: shop.assistantId });
    const bound = client(server.url, boundKey.body.data.key);
    // The org-wide endpoint is invisible to the bound key; its own default to its assistant.
    expect((await bound.get(`/v1/webhooks/${hook.id}`)).status).toBe(404);
    const own = await bound.post('/v1/webhooks', { url: receiver.url, events: ['*'] });
    expect(own.body.data.assistantId).toBe(shop.assistantId);
    expect((await bound.get('/v1/webhooks')).body.data.map((h: { id: string }) => h.id)).toEqual([own.body.data.id]);
    expect((await bound.patch(`/v1/webhooks/${own.body.data.id}`, { assistantId: null })).status).toBe(404);
    const second = await shop.api.post('/v1/assistants', { type: 'api', name: 'Other' });
    expect((await bound.post('/v1/webhooks', { url: receiver.url, events: ['*'], assistantId: second.body.data.id })).status).toBe(404);

    const noPerm = await shop.api.post('/v1/api-keys', { name: 'chat only', permissions: ['chat'] });
    const res = await client(server.url, noPerm.body.data.key).get('/v1/webhooks');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('permission_denied');
  });
});

describe('events and their payloads', () => {
  it('a first message fires conversation.started/created, then message.received, message.sent and conversation.message.created, in order and signed', async () => {
    const { shop, hook } = await shopWithWebhook();
    const chat = await shop.keyApi.post(shop.chatPath, {
      message: 'How do I reset my password?',
      sessionId: 'sess-1',
      metadata: { userId: 'u-42', source: 'crm' },
    });
    expect(chat.status).toBe(200);
    const got = await delivered();
    expect(events(got)).toEqual([
      'conversation.started',
      'conversation.created',
      'message.received',
      'conversation.message.created',
      'message.sent',
      'conversation.message.created',
    ]);

    // Every delivery verifies with the reference library and the secret given at creation.
    const verifier = new Webhook(hook.secret);
    for (const r of got) {
      expect(
        verifier.verify(r.body, { 'webhook-id': r.webhookId, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature }),
      ).toEqual(r.json);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.json.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Object.keys(r.json)).toEqual(['event', 'timestamp', 'data']);
    }
    expect(new Set(got.map((r) => r.webhookId)).size).toBe(6);
    expect(got.every((r) => /^evt_[0-9a-f]{32}$/.test(r.webhookId))).toBe(true);

    const [started, created, received, userCreated, sent, answerCreated] = got.map((r) => r.json.data);
    const conversation = {
      integrationId: shop.assistantId,
      sessionId: 'sess-1',
      channel: 'api',
      metadata: { userId: 'u-42', source: 'crm' },
      startedAt: expect.any(String),
    };
    expect(started).toEqual(conversation);
    expect(created).toEqual(conversation);
    // The seed's payload, exactly.
    expect(received).toEqual({
      integrationId: shop.assistantId,
      sessionId: 'sess-1',
      message: 'How do I reset my password?',
      metadata: { userId: 'u-42', source: 'crm' },
    });
    expect(sent).toEqual({
      integrationId: shop.assistantId,
      sessionId: 'sess-1',
      message: chat.body.response,
      metadata: { userId: 'u-42', source: 'crm' },
      confidence: chat.body.confidence,
      sources: chat.body.sources,
      messageId: chat.body.messageId,
      role: 'assistant',
    });
    expect(userCreated).toEqual({
      integrationId: shop.assistantId,
      sessionId: 'sess-1',
      message: {
        id: expect.stringMatching(/^msg_/),
        role: 'user',
        content: 'How do I reset my password?',
        timestamp: expect.any(String),
        metadata: { userId: 'u-42', source: 'crm' },
      },
    });
    expect(answerCreated.message).toMatchObject({
      id: chat.body.messageId,
      role: 'assistant',
      content: chat.body.response,
      metadata: { confidence: chat.body.confidence },
    });

    // The next message of the same session does not start a conversation again.
    await shop.keyApi.post(shop.chatPath, { message: 'And shipping?', sessionId: 'sess-1' });
    const more = (await delivered()).slice(6);
    expect(events(more)).toEqual(['message.received', 'conversation.message.created', 'message.sent', 'conversation.message.created']);
    expect(more[0]?.json.data.metadata).toEqual({});
    expect(more[2]?.json.data.metadata).toEqual({ userId: 'u-42', source: 'crm' }); // the conversation's
  });

  it('the apps chat and the widget fire the same events', async () => {
    const { shop } = await shopWithWebhook(
      { events: ['conversation.started', 'message.received'] },
      { type: 'web', widget: { allowedOrigins: ['https://www.shop.example'] } },
    );
    await shop.keyApi.post(`/v1/apps/${shop.assistantId}/chat`, { message: 'Return window?', conversation_id: 'app-1' });
    const widget = await client(server.url).post(
      `/v1/widget/${shop.assistantId}/chat`,
      { message: 'Do you ship to Japan?' },
      { headers: { origin: 'https://www.shop.example' } },
    );
    expect(widget.status).toBe(200);
    const got = await delivered();
    expect(events(got)).toEqual(['conversation.started', 'message.received', 'conversation.started', 'message.received']);
    expect(got[0]?.json.data).toMatchObject({ sessionId: 'app-1', channel: 'app' });
    expect(got[2]?.json.data).toMatchObject({ sessionId: widget.body.data.sessionId, channel: 'widget' });
    expect(got[3]?.json.data).toEqual({
      integrationId: shop.assistantId,
      sessionId: widget.body.data.sessionId,
      message: 'Do you ship to Japan?',
      metadata: { source: 'widget', origin: 'https://www.shop.example' },
    });
  });

  it('a human agent reply fires message.sent and conversation.message.created; /end and 30 idle minutes fire conversation.ended', async () => {
    const { shop } = await shopWithWebhook({ events: ['message.sent', 'conversation.message.created', 'conversation.ended'] });
    await shop.keyApi.post(shop.chatPath, { message: 'I need a person', sessionId: 'h-1', metadata: { userId: 'u-1' } });
    await delivered();
    receiver.received.length = 0;
    const human = await shop.keyApi.post('/v1/conversations/h-1/messages', { content: 'Hi, Sam here.' });
    const got = await delivered();
    expect(events(got)).toEqual(['message.sent', 'conversation.message.created']);
    expect(got[0]?.json.data).toEqual({
      integrationId: shop.assistantId,
      sessionId: 'h-1',
      message: 'Hi, Sam here.',
      metadata: { userId: 'u-1' },
      confidence: null,
      sources: [],
      messageId: human.body.data.id,
      role: 'human_agent',
    });
    expect(got[1]?.json.data.message).toEqual(human.body.data);

    receiver.received.length = 0;
    await shop.keyApi.post('/v1/conversations/h-1/end');
    expect((await shop.keyApi.post('/v1/conversations/h-1/end')).status).toBe(409);
    const ended = await delivered();
    expect(events(ended)).toEqual(['conversation.ended']);
    expect(ended[0]?.json.data).toEqual({
      integrationId: shop.assistantId,
      sessionId: 'h-1',
      channel: 'api',
      metadata: { userId: 'u-1' },
      startedAt: expect.any(String),
      reason: 'api',
      lastMessageAt: expect.any(String),
      endedAt: expect.any(String),
      messageCount: 3,
    });

    receiver.received.length = 0;
    await shop.keyApi.post(shop.chatPath, { message: 'hello', sessionId: 'idle-1' });
    const { maintain } = createApp(server.ctx);
    clock.advance(29 * 60_000);
    await maintain();
    expect(events(await delivered()).filter((e) => e === 'conversation.ended')).toEqual([]);
    clock.advance(60_000);
    await maintain();
    await maintain(); // ended once, announced once
    const idle = (await delivered()).filter((r) => r.json.event === 'conversation.ended');
    expect(idle.map((r) => [r.json.data.sessionId, r.json.data.reason, r.json.data.messageCount])).toEqual([['idle-1', 'idle', 2]]);
  });

  it('knowledge base changes fire knowledge_base.updated: document added, replaced, removed, base edited and deleted', async () => {
    const { shop } = await shopWithWebhook({ events: ['knowledge_base.updated'] });
    const base = `/v1/knowledge-bases/${shop.kbId}`;
    const doc = await shop.api.post(`${base}/documents`, {
      title: 'Gift cards',
      content: 'Gift cards never expire.',
      url: 'https://shop.example.com/help/gift-cards',
    });
    const again = await shop.api.post(`${base}/documents`, {
      title: 'Gift cards',
      content: 'Gift cards never expire. They work online.',
      url: 'https://shop.example.com/help/gift-cards',
    });
    await shop.api.del(`${base}/documents/${again.body.data.id}`);
    await shop.api.patch(base, { name: 'Help centre' });
    await shop.api.del(base);
    const got = (await delivered()).map((r) => r.json);
    expect(got.map((e) => [e.event, e.data.change])).toEqual([
      ['knowledge_base.updated', 'document.added'],
      ['knowledge_base.updated', 'document.added'],
      ['knowledge_base.updated', 'document.removed'],
      ['knowledge_base.updated', 'updated'],
      ['knowledge_base.updated', 'deleted'],
    ]);
    expect(got[0]?.data).toEqual({
      knowledgeBaseId: shop.kbId,
      name: 'Help center',
      change: 'document.added',
      document: {
        id: doc.body.data.id,
        title: 'Gift cards',
        url: 'https://shop.example.com/help/gift-cards',
        format: 'text',
        chunkCount: 1,
      },
      documentCount: 4,
      chunkCount: expect.any(Number),
      updatedAt: expect.any(String),
    });
    expect(got[1]?.data.replacedDocumentIds).toEqual([doc.body.data.id]);
    expect(got[2]?.data).toMatchObject({ change: 'document.removed', document: { id: again.body.data.id }, documentCount: 3 });
    expect(got[3]?.data).toMatchObject({ change: 'updated', name: 'Help centre', document: null });
    expect(got[4]?.data).toMatchObject({ change: 'deleted', documentCount: 0, chunkCount: 0 });
  });

  it.runIf(process.env.PARLEY_TEST_DATABASE === 'postgres')(
    'an event held above the fan-out horizon by an older running transaction is delivered once that one ends (drain waits for it)',
    async () => {
      const { shop } = await shopWithWebhook({ events: ['knowledge_base.updated'] });
      // Another writer of the database, begun before the event: its xid holds the horizon down.
      const other = await (server.ctx.storage as PostgresStorage).pool.connect();
      try {
        await other.query('BEGIN');
        await other.query('SELECT pg_current_xact_id()');
        await shop.api.patch(`/v1/knowledge-bases/${shop.kbId}`, { name: 'Help centre' });
        const drained = delivered();
        await new Promise((r) => setTimeout(r, 300));
        expect(receiver.received).toHaveLength(0); // not before the older transaction ends
        await other.query('COMMIT');
        expect((await drained).map((r) => r.json.data.change)).toEqual(['updated']);
      } finally {
        other.release();
      }
    },
  );

  it('assistant changes to the widget, a bot or the model fire app.deployment.updated; other edits do not', async () => {
    const { shop } = await shopWithWebhook({ events: ['app.deployment.updated'] });
    const path = `/v1/assistants/${shop.assistantId}`;
    await shop.api.patch(path, { description: 'no deployment change', historyLimit: 4 });
    await shop.api.patch(path, { widget: { theme: 'dark' } });
    await shop.api.patch(path, { widget: { theme: 'dark' } }); // same value: nothing changed
    await shop.api.patch(`/v1/apps/${shop.assistantId}`, { slack: { channels: ['C123'] }, model: { provider: 'extractive', name: 'v2' } });
    const got = (await delivered()).map((r) => r.json);
    expect(got.map((e) => e.data.changed)).toEqual([['widget'], ['slack', 'model']]);
    expect(got[0]).toEqual({
      event: 'app.deployment.updated',
      timestamp: expect.any(String),
      data: {
        appId: shop.assistantId,
        name: 'Shop helper',
        type: 'api',
        changed: ['widget'],
        widget: expect.objectContaining({ theme: 'dark' }),
        discord: expect.any(Object),
        slack: expect.any(Object),
        teams: expect.any(Object),
        model: { provider: 'extractive', name: null },
        updatedAt: expect.any(String),
      },
    });
    expect(got[1]?.data.slack.channels).toEqual(['C123']);
    expect(got[1]?.data.model).toEqual({ provider: 'extractive', name: 'v2' });
  });

  it('filters by event list and by assistant, knowledge base events included through connections', async () => {
    const shop = await setupShop(server.url);
    await shop.api.patch(`/v1/organizations/${shop.organization.id}`, { plan: 'enterprise' });
    const other = await shop.api.post('/v1/assistants', { type: 'api', name: 'Other bot' });
    const only = await startReceiver();
    const mine = await startReceiver();
    const theirs = await startReceiver();
    try {
      await shop.api.post('/v1/webhooks', { url: only.url, events: ['message.received'] });
      await shop.api.post('/v1/webhooks', { url: mine.url, events: ['*'], assistantId: shop.assistantId });
      await shop.api.post('/v1/webhooks', { url: theirs.url, events: ['*'], assistantId: other.body.data.id });
      await shop.keyApi.post(shop.chatPath, { message: 'Hello there', sessionId: 'f-1' });
      await shop.keyApi.post(`/v1/integrations/${other.body.data.id}/chat`, { message: 'Hi other', sessionId: 'f-2' });
      await shop.api.post(`/v1/knowledge-bases/${shop.kbId}/documents`, { title: 'New', content: 'New policy text.' }); // connected to shop.assistantId only
      await server.webhooks.drain();
      expect(only.received.map((r) => [r.json.event, r.json.data.sessionId])).toEqual([
        ['message.received', 'f-1'],
        ['message.received', 'f-2'],
      ]);
      expect(new Set(mine.received.map((r) => r.json.data.sessionId ?? r.json.data.knowledgeBaseId))).toEqual(new Set(['f-1', shop.kbId]));
      expect(events(mine.received).at(-1)).toBe('knowledge_base.updated');
      expect(new Set(theirs.received.map((r) => r.json.data.sessionId))).toEqual(new Set(['f-2']));
      // One event, several endpoints: the same webhook-id everywhere it went.
      expect(mine.received.find((r) => r.json.event === 'message.received')?.webhookId).toBe(only.received[0]?.webhookId);
    } finally {
      await Promise.all([only.close(), mine.close(), theirs.close()]);
    }
  });

  it('queues nothing when nobody listens, and nothing for a disabled endpoint', async () => {
    const { shop, hook } = await shopWithWebhook();
    await shop.api.patch(`/v1/webhooks/${hook.id}`, { enabled: false });
    await shop.keyApi.post(shop.chatPath, { message: 'Hello', sessionId: 'n-1' });
    expect(await delivered()).toEqual([]);
    expect(await server.ctx.storage.get('SELECT count(*) AS n FROM webhook_events')).toEqual({ n: 0 });
    expect((await shop.api.post(`/v1/webhooks/${hook.id}/test`)).status).toBe(409);
  });
});

describe('test sends and the delivery log', () => {
  it('POST /:id/test sends webhook.test; the log lists every attempt, newest first, paginated', async () => {
    const { shop, hook } = await shopWithWebhook();
    receiver.respondWith((_r, i) => (i === 0 ? { status: 503, body: 'maintenance, back soon' } : 204));
    const sent = await shop.api.post(`/v1/webhooks/${hook.id}/test`);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({
      webhookId: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      event: 'webhook.test',
      endpointId: hook.id,
      status: 'pending',
      createdAt: expect.any(String),
    });
    await delivered();
    clock.advance(5_000);
    const got = await delivered();
    expect(got.map((r) => [r.json.event, r.webhookId])).toEqual([
      ['webhook.test', sent.body.data.webhookId],
      ['webhook.test', sent.body.data.webhookId],
    ]);
    expect(got[0]?.json.data).toEqual({ webhookId: hook.id, message: expect.stringContaining('test event') });

    const log = await shop.api.get(`/v1/webhooks/${hook.id}/deliveries?limit=1`);
    expect(log.body.pagination).toEqual({ total: 2, page: 1, limit: 1, pages: 2 });
    expect(log.body.data[0]).toEqual({
      id: expect.stringMatching(/^att_\d+$/),
      webhookId: sent.body.data.webhookId,
      event: 'webhook.test',
      attempt: 2,
      attemptedAt: expect.any(String),
      status: 'succeeded',
      responseCode: 204,
      latencyMs: expect.any(Number),
      error: null,
      nextRetryAt: null,
      // The dashboard's names (additive): the delivery redeliver takes, the event id, next attempt, time.
      deliveryId: expect.stringMatching(/^dlv_\d+$/),
      eventId: sent.body.data.webhookId,
      nextAttemptAt: null,
      createdAt: expect.any(String),
    });
    const first = (await shop.api.get(`/v1/webhooks/${hook.id}/deliveries?page=2&limit=1`)).body.data[0];
    expect(first).toMatchObject({ attempt: 1, status: 'failed', responseCode: 503, error: 'HTTP 503: maintenance, back soon' });
    expect(Date.parse(first.nextRetryAt) - Date.parse(first.attemptedAt)).toBe(5_000);
    expect((await shop.api.get(`/v1/webhooks/${hook.id}`)).body.data).toMatchObject({ failingSince: null, pendingDeliveries: 0 });
  });

  it('answers the chat without waiting for receivers', async () => {
    const { shop } = await shopWithWebhook();
    receiver.respondWith(() => 'hang');
    const t0 = performance.now();
    const chat = await shop.keyApi.post(shop.chatPath, { message: 'How do I reset my password?' });
    expect(chat.status).toBe(200);
    // Waiting on the hung receiver would take the whole 15 s attempt timeout; half of it is room
    // for a loaded machine (a timed bound of 1 s failed at load 14 with 1,016 ms).
    expect(performance.now() - t0).toBeLessThan(7_500);
    await receiver.waitFor((all) => all.length === 1);
    expect(server.webhooks.busy).toBe(1); // still in flight, and the answer is long gone
    await receiver.close(); // the hung attempt fails now instead of holding up shutdown
  });
});
