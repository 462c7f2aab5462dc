import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi } from '../../test/fake-openai.js';
import type { FakeProvider } from '../../test/fake-llm.js';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { parseExposition, type Exposition } from '../../test/prometheus.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { createExtractiveProvider } from '../answer/providers/extractive.js';
import { createOpenAiProvider } from '../answer/providers/openai.js';
import { loadConfig } from '../config.js';
import { createFakeClock } from '../lib/clock.js';

const TOKEN = 'metrics-test-token-0123456789';

async function scrape(url: string, token = TOKEN): Promise<Exposition> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return parseExposition(await res.text());
}

describe('GET /metrics: access (API.md §12)', () => {
  it('is 404 while METRICS_TOKEN is unset, whatever the credentials', async () => {
    const server = await startServer();
    try {
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
        const res = await fetch(`${server.url}/metrics`, { headers });
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ status: 'error', error: { code: 'resource_not_found' } });
      }
    } finally {
      await server.close();
    }
  });

  it('is 401 without the token, with a wrong one, a prefix of it or another scheme; 200 with it', async () => {
    const server = await startServer({ config: { metricsToken: TOKEN } });
    try {
      const refused = [
        undefined,
        'Bearer wrong-token-wrong-token-00',
        `Bearer ${TOKEN.slice(0, -1)}`,
        `Bearer ${TOKEN}x`,
        `Basic ${TOKEN}`,
        TOKEN,
      ];
      for (const authorization of refused) {
        const res = await fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });
        expect(res.status, authorization).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
        expect(await res.json()).toMatchObject({ error: { code: 'authentication_error' } });
      }
      const ok = await fetch(`${server.url}/metrics`, { headers: { authorization: `bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(ok.headers.get('cache-control')).toBe('no-store');
    } finally {
      await server.close();
    }
  });

  it('METRICS_TOKEN: 16 to 256 printable characters without spaces', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined(); // empty = unset
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken).toBe('a'.repeat(16));
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(256) }).metricsToken).toBe('a'.repeat(256));
    expect(() => loadConfig({ METRICS_TOKEN: 'a'.repeat(15) })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(() => loadConfig({ METRICS_TOKEN: 'a'.repeat(257) })).toThrow(/METRICS_TOKEN: must be at most 256 characters/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in it, 0123' })).toThrow(/METRICS_TOKEN: must be printable ASCII without spaces/);
  });
});

describe('GET /metrics: what it counts', () => {
  let server: TestServer;
  let receiver: Receiver;
  const clock = createFakeClock(Date.now());
  beforeAll(async () => {
    server = await startServer({ clock, config: { metricsToken: TOKEN, webhookAllowPrivate: true } });
    receiver = await startReceiver((_r, i) => (i === 0 ? 200 : 503));
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it("answers the text exposition format: the §12 families, typed, and Node's process_ and nodejs_ ones", async () => {
    const m = await scrape(server.url);
    expect(Object.fromEntries([...m.types].filter(([name]) => name.startsWith('parley_')))).toEqual({
      parley_http_requests_total: 'counter',
      parley_http_request_duration_seconds: 'histogram',
      parley_chat_turns_total: 'counter',
      parley_chat_stage_duration_seconds: 'histogram',
      parley_model_requests_total: 'counter',
      parley_webhook_deliveries_total: 'counter',
      parley_rate_limited_total: 'counter',
      parley_webhook_backlog: 'gauge',
      parley_jobs_backlog: 'gauge',
    });
    expect(m.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(m.types.get('process_resident_memory_bytes')).toBe('gauge');
    expect(m.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(m.types.get('nodejs_heap_size_used_bytes')).toBe('gauge');
    expect(m.value('parley_jobs_backlog', { kind: 'fetch' })).toBe(0);
    expect(m.value('parley_jobs_backlog', { kind: 'crawl' })).toBe(0);
    expect(m.samples.some((s) => s.name === 'parley_webhook_backlog')).toBe(true);
  });

  it('counts chat turns by channel and outcome, and times their stages', async () => {
    const shop = await setupShop(server.url, {
      fallback: { message: 'Sorry, I cannot help with that.', handoff: { enabled: false } },
      templates: [{ trigger: 'opening hours', match: 'contains', response: 'We are open 9 to 5.' }],
    });
    const before = await scrape(server.url);
    const answered = await shop.keyApi.post(shop.chatPath, { message: 'How do I reset my password?' });
    expect(answered.body.confidence).toBeGreaterThanOrEqual(0.35);
    expect((await shop.keyApi.post(shop.chatPath, { message: 'Which football team won the 1998 world cup?' })).body.response).toMatch(
      /^Sorry/,
    );
    expect((await shop.keyApi.post(shop.chatPath, { message: 'What are your opening hours?' })).body.response).toBe('We are open 9 to 5.');
    // The dashboard's playground and the /apps route are channels of their own.
    await shop.keyApi.post(`/api/v1/apps/${shop.assistantId}/chat`, { message: 'How do I reset my password?' });
    await shop.keyApi.post(shop.chatPath, { message: 'How do I reset my password?', metadata: { source: 'playground' } });
    const after = await scrape(server.url);
    const moved = (labels: Record<string, string>) =>
      after.value('parley_chat_turns_total', labels) - before.value('parley_chat_turns_total', labels);
    expect(moved({ channel: 'api', outcome: 'answered' })).toBe(1);
    expect(moved({ channel: 'api', outcome: 'fallback' })).toBe(1);
    expect(moved({ channel: 'api', outcome: 'template' })).toBe(1);
    expect(moved({ channel: 'app', outcome: 'answered' })).toBe(1);
    expect(moved({ channel: 'playground', outcome: 'answered' })).toBe(1);
    expect(moved({ channel: 'api', outcome: 'error' })).toBe(0);
    // A template skips retrieval and answering: 4 turns were timed, not 5.
    const stage = (m: Exposition, s: string) => m.value('parley_chat_stage_duration_seconds_count', { stage: s });
    expect(stage(after, 'retrieval') - stage(before, 'retrieval')).toBe(4);
    expect(stage(after, 'answer') - stage(before, 'answer')).toBe(4);
    expect(stage(after, 'model')).toBe(0); // extractive: no model request
    expect(after.value('parley_chat_stage_duration_seconds_bucket', { stage: 'retrieval', le: '+Inf' })).toBe(stage(after, 'retrieval'));
    expect(after.value('parley_chat_stage_duration_seconds_sum', { stage: 'retrieval' })).toBeGreaterThan(0);

    // A fallback that offers a human is a handoff; a turn that fails is an error.
    await shop.api.patch(`/v1/assistants/${shop.assistantId}`, {
      fallback: { message: 'Sorry.', handoff: { enabled: true, message: 'Talk to us:', email: 'help@shop.example.com' } },
    });
    await shop.keyApi.post(shop.chatPath, { message: 'Which football team won the 1998 world cup?' });
    const other = await shop.api.post('/v1/assistants', { type: 'api', name: 'Other' });
    const session = await shop.keyApi.post(shop.chatPath, { message: 'How do I reset my password?' });
    const misuse = await shop.keyApi.post(`/v1/integrations/${other.body.data.id}/chat`, {
      message: 'How do I reset my password?',
      sessionId: session.body.sessionId,
    });
    expect(misuse.status).toBe(400); // the session belongs to the other assistant: refused inside the turn
    const last = await scrape(server.url);
    expect(
      last.value('parley_chat_turns_total', { channel: 'api', outcome: 'answered' }) -
        before.value('parley_chat_turns_total', { channel: 'api', outcome: 'answered' }),
    ).toBe(2);
    expect(
      last.value('parley_chat_turns_total', { channel: 'api', outcome: 'handoff' }) -
        before.value('parley_chat_turns_total', { channel: 'api', outcome: 'handoff' }),
    ).toBe(1);
    expect(
      last.value('parley_chat_turns_total', { channel: 'api', outcome: 'error' }) -
        before.value('parley_chat_turns_total', { channel: 'api', outcome: 'error' }),
    ).toBe(1);
  });

  it('labels requests by route pattern, never by the raw path; unknown paths are "unmatched"', async () => {
    const shop = await setupShop(server.url);
    const before = await scrape(server.url);
    await shop.keyApi.post(shop.chatPath, { message: 'How do I reset my password?' });
    await shop.keyApi.post(`/api/v1/integrations/${shop.assistantId}/chat`, { message: 'How do I reset my password?' });
    expect((await shop.api.get(`/v1/assistants/${shop.assistantId}`)).status).toBe(200);
    // Thrown inside a route of a nested router and answered by the app's error handler: still its pattern.
    expect((await shop.api.get('/api/v1/assistants/asst_nope')).status).toBe(404);
    expect((await shop.api.get(`/v1/knowledge-bases/${shop.kbId}/documents`)).status).toBe(200);
    expect((await shop.api.get(`/v1/no/such/${shop.assistantId}`)).status).toBe(404);
    // Refused by the API router's authentication, before any route matched.
    expect((await client(server.url).get(`/v1/assistants/${shop.assistantId}`)).status).toBe(401);
    expect((await client(server.url).get('/healthz')).status).toBe(200);
    const dashboard = await client(server.url).get('/dashboard/assistants/asst_x'); // not a route: labelled by its mount
    const after = await scrape(server.url);
    const moved = (labels: Record<string, string>) =>
      after.value('parley_http_requests_total', labels) - before.value('parley_http_requests_total', labels);
    expect(moved({ method: 'POST', route: '/v1/integrations/:id/chat', status: '200' })).toBe(1);
    expect(moved({ method: 'POST', route: '/api/v1/integrations/:id/chat', status: '200' })).toBe(1);
    expect(moved({ method: 'GET', route: '/v1/assistants/:id', status: '200' })).toBe(1);
    expect(moved({ method: 'GET', route: '/api/v1/assistants/:id', status: '404' })).toBe(1);
    expect(moved({ method: 'GET', route: '/v1/knowledge-bases/:id/documents', status: '200' })).toBe(1);
    expect(moved({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(moved({ method: 'GET', route: 'unmatched', status: '401' })).toBe(1);
    expect(moved({ method: 'GET', route: '/healthz', status: '200' })).toBe(1);
    expect(moved({ method: 'GET', route: '/dashboard/*path', status: String(dashboard.status) })).toBe(1);
    expect(moved({ method: 'GET', route: '/metrics', status: '200' })).toBe(1); // the scrape before this one
    const routes = new Set(after.samples.filter((s) => s.name.startsWith('parley_http_')).map((s) => s.labels.route ?? ''));
    expect([...routes].filter((r) => r.includes(shop.assistantId) || r.includes(shop.kbId) || r.includes('asst_nope'))).toEqual([]);
    // Every counted request was also timed, with the same labels.
    const durationCount = after.value('parley_http_request_duration_seconds_count', {
      method: 'POST',
      route: '/v1/integrations/:id/chat',
      status: '200',
    });
    expect(durationCount).toBe(
      after.value('parley_http_requests_total', { method: 'POST', route: '/v1/integrations/:id/chat', status: '200' }),
    );
  });

  it('counts a refused request in parley_rate_limited_total{scope}', async () => {
    const shop = await setupShop(server.url);
    const key = await shop.api.post('/v1/api-keys', { name: 'slow', permissions: ['chat'], rateLimit: { perMinute: 2 } });
    const slow = client(server.url, key.body.data.key as string);
    const before = await scrape(server.url);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await slow.post(shop.chatPath, { message: 'How do I reset my password?' })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const after = await scrape(server.url);
    expect(
      after.value('parley_rate_limited_total', { scope: 'credential' }) -
        before.value('parley_rate_limited_total', { scope: 'credential' }),
    ).toBe(1);
    expect(after.value('parley_http_requests_total', { method: 'POST', route: '/v1/integrations/:id/chat', status: '429' })).toBe(1);
  });

  it('counts webhook deliveries by outcome; the backlog gauge shows the one still pending', async () => {
    const shop = await setupShop(server.url);
    await shop.api.patch(`/v1/organizations/${shop.organization.id}`, { plan: 'enterprise' });
    expect((await shop.api.post('/v1/webhooks', { url: receiver.url, events: ['message.sent'] })).status).toBe(201);
    const before = await scrape(server.url);
    await shop.keyApi.post(shop.chatPath, { message: 'How do I reset my password?' });
    await server.webhooks.drain();
    await shop.keyApi.post(shop.chatPath, { message: 'How do I delete my account?' });
    await server.webhooks.drain(); // the receiver answers 503: a retry, due later on the fake clock
    expect(receiver.received).toHaveLength(2);
    const after = await scrape(server.url);
    const moved = (outcome: string) =>
      after.value('parley_webhook_deliveries_total', { outcome }) - before.value('parley_webhook_deliveries_total', { outcome });
    expect(moved('delivered')).toBe(1);
    expect(moved('retry')).toBe(1);
    expect(after.value('parley_webhook_backlog') - before.value('parley_webhook_backlog')).toBe(1);
  });

  it('shows queued background jobs per kind in parley_jobs_backlog', async () => {
    const shop = await setupShop(server.url);
    const doc = await shop.api.get(`/v1/knowledge-bases/${shop.kbId}/documents`);
    const documentId = doc.body.data[0].id as string;
    const later = clock.now() + 86_400_000; // not due: no worker takes them during the test
    const at = new Date(clock.now()).toISOString();
    const insert =
      'INSERT INTO ingest_jobs (id, document_id, kind, status, run_after, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)';
    await server.ctx.storage.run(insert, ['job_m1', documentId, 'crawl', 'queued', later, at, at]);
    // One live job per document (a unique index): the others on other documents.
    const second = doc.body.data[1].id as string;
    const third = doc.body.data[2].id as string;
    await server.ctx.storage.run(insert, ['job_m2', second, 'fetch', 'queued', later, at, at]);
    await server.ctx.storage.run(insert, ['job_m3', third, 'fetch', 'done', later, at, at]);
    const m = await scrape(server.url);
    expect(m.value('parley_jobs_backlog', { kind: 'crawl' })).toBe(1);
    expect(m.value('parley_jobs_backlog', { kind: 'fetch' })).toBe(1);
    await server.ctx.storage.run("DELETE FROM ingest_jobs WHERE id IN ('job_m1', 'job_m2', 'job_m3')");
  });
});

describe('GET /metrics: model requests', () => {
  let fake: FakeProvider;
  let server: TestServer;
  beforeEach(async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-test' });
    server = await startServer({
      config: { metricsToken: TOKEN, openaiApiKey: 'sk-test', openaiBaseUrl: `${fake.url}/v1` },
      providers: {
        extractive: createExtractiveProvider(),
        openai: createOpenAiProvider({
          apiKey: 'sk-test',
          baseUrl: `${fake.url}/v1`,
          retry: { retries: 0, baseDelayMs: 5, maxDelayMs: 10 },
          timeoutMs: 2_000,
        }),
      },
    });
  });
  afterEach(async () => {
    await server.close();
    await fake.close();
  });

  it('counts each model request by provider and outcome, and times the model stage', async () => {
    const shop = await setupShop(server.url, { model: { provider: 'openai', name: 'gpt-test' } });
    fake.enqueue({ chunks: ['Open Settings, then Security.'] }, { kind: 'error', status: 401 }, { chunks: ['NO_ANSWER'] });
    for (let i = 0; i < 3; i++)
      expect((await shop.keyApi.post(shop.chatPath, { message: 'How do I reset my password?' })).status).toBe(200);
    const m = await scrape(server.url);
    expect(m.value('parley_model_requests_total', { provider: 'openai', outcome: 'answered' })).toBe(1);
    expect(m.value('parley_model_requests_total', { provider: 'openai', outcome: 'auth' })).toBe(1);
    expect(m.value('parley_model_requests_total', { provider: 'openai', outcome: 'declined' })).toBe(1);
    expect(m.value('parley_chat_stage_duration_seconds_count', { stage: 'model' })).toBe(3);
  });
});
