import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeProvider } from '../../test/fake-openai.js';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { addMemberWithRole } from '../../test/members.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { createExtractiveProvider } from '../answer/providers/extractive.js';
import { createOpenAiProvider } from '../answer/providers/openai.js';

let server: TestServer;
let fake: FakeProvider | null = null;
afterEach(async () => {
  await server?.close();
  await fake?.close();
  fake = null;
});

const PLAYGROUND = { source: 'playground' };

/** The SSE events of a response, parsed. */
async function sseEvents(res: Response): Promise<{ event: string; data: any }[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1] ?? '',
      data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null'),
    }));
}

describe('explain: true ("why this answer", the playground)', () => {
  it('returns the passages, confidence against the threshold, outcome and timings; keeps them in the message metadata', async () => {
    server = await startServer();
    const shop = await setupShop(server.url);
    const res = await shop.api.post(shop.chatPath, {
      message: 'How long does standard shipping take?',
      sessionId: 'pg-1',
      metadata: PLAYGROUND,
      explain: true,
    });
    expect(res.status).toBe(200);
    const explain = res.body.explain;
    expect(explain).toEqual({
      passages: expect.any(Array),
      confidence: res.body.confidence,
      threshold: 0.35,
      outcome: 'answered',
      reason: null,
      templateId: null,
      timings: { retrievalMs: expect.any(Number), answerMs: expect.any(Number), totalMs: expect.any(Number) },
      usage: null,
    });
    expect(explain.passages.length).toBeGreaterThan(0);
    expect(explain.passages[0]).toEqual({
      chunkId: expect.any(String),
      documentId: expect.stringMatching(/^doc_/),
      title: 'Shipping policy',
      url: expect.stringContaining('shop.example.com/help/shipping'),
      heading: expect.stringContaining('Delivery times'),
      text: expect.stringContaining('Standard shipping takes 3 to 5 business days'),
      score: 1,
    });
    expect(explain.passages.every((p: { score: number }) => p.score > 0 && p.score <= 1)).toBe(true);
    expect(explain.timings.totalMs).toBeGreaterThanOrEqual(explain.timings.retrievalMs);
    const messages = await shop.api.get('/v1/conversations/pg-1/messages');
    expect(messages.body.at(-1).metadata.explain).toEqual(explain);
  });

  it('marks playground conversations with channel playground; others keep api', async () => {
    server = await startServer();
    const shop = await setupShop(server.url);
    await shop.api.post(shop.chatPath, { message: 'Returns?', sessionId: 'pg', metadata: PLAYGROUND });
    await shop.api.post(shop.chatPath, { message: 'Returns?', sessionId: 'plain' });
    await shop.api.post(`/v1/apps/${shop.assistantId}/chat`, { message: 'Returns?', conversation_id: 'pg-app', metadata: PLAYGROUND });
    const channel = async (sid: string) =>
      (await server.ctx.storage.get<{ channel: string }>('SELECT channel FROM conversations WHERE session_id = ?', [sid]))?.channel;
    expect(await channel('pg')).toBe('playground');
    expect(await channel('plain')).toBe('api');
    expect(await channel('pg-app')).toBe('playground');
  });

  it('streams it in the done event, and the apps route carries it in data', async () => {
    server = await startServer();
    const shop = await setupShop(server.url);
    const res = await fetch(server.url + shop.chatPath, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'How do I reset my password?', metadata: PLAYGROUND, explain: true, stream: true }),
    });
    const events = await sseEvents(res);
    const done = events.find((e) => e.event === 'done')?.data;
    expect(events.filter((e) => e.event === 'delta').length).toBeGreaterThan(0);
    expect(done.explain).toMatchObject({ outcome: 'answered', passages: expect.any(Array) });
    expect(done.explain.passages[0].title).toBe('Account help');
    const app = await shop.api.post(`/v1/apps/${shop.assistantId}/chat`, { message: 'How do I reset my password?', explain: true });
    expect(app.body.data.explain.outcome).toBe('answered');
  });

  it('names the template, and why a fallback fell back', async () => {
    server = await startServer();
    const shop = await setupShop(server.url, { templates: [{ trigger: 'opening hours', match: 'contains', response: 'Nine to five.' }] });
    const template = await shop.api.post(shop.chatPath, { message: 'opening hours?', explain: true });
    const templateId = template.body.explain.templateId;
    expect(templateId).toMatch(/^tpl_/);
    expect(template.body.explain).toMatchObject({ outcome: 'template', reason: `template ${templateId}`, passages: [], confidence: 1 });
    const nothing = await shop.api.post(shop.chatPath, { message: 'zebra xylophone quantum', explain: true });
    expect(nothing.body.explain).toMatchObject({ outcome: 'fallback', reason: 'no passages', passages: [] });
    await shop.api.patch(`/v1/assistants/${shop.assistantId}`, { confidenceThreshold: 1 });
    const low = await shop.api.post(shop.chatPath, { message: 'How long does standard shipping take?', explain: true });
    expect(low.body.explain).toMatchObject({ outcome: 'fallback', reason: 'below threshold', threshold: 1 });
    expect(low.body.explain.passages.length).toBeGreaterThan(0);
  });

  it('reports model usage for a model answer', async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-test' });
    server = await startServer({
      config: { openaiApiKey: 'sk-test', openaiBaseUrl: `${fake.url}/v1` },
      providers: { extractive: createExtractiveProvider(), openai: createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1` }) },
    });
    const shop = await setupShop(server.url, { model: { provider: 'openai', name: 'gpt-test' }, confidenceThreshold: 0.1 });
    fake.fallback = { chunks: ['Standard shipping takes 3 to 5 business days', ' [1]', '.'], usage: { prompt: 120, completion: 11 } };
    const res = await shop.api.post(shop.chatPath, { message: 'How long does standard shipping take?', explain: true });
    expect(res.body.explain.usage).toEqual({ provider: 'openai', model: 'gpt-test', promptTokens: 120, completionTokens: 11 });
    expect(res.body.explain.outcome).toBe('answered');
  });

  it('is refused to a key without assistants:read (403, form 1) and absent unless asked', async () => {
    server = await startServer();
    const shop = await setupShop(server.url);
    const chatOnly = await shop.api.post('/v1/api-keys', { name: 'c', permissions: ['chat'] });
    const refused = await client(server.url, chatOnly.body.data.key).post(shop.chatPath, { message: 'Returns?', explain: true });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { code: 'FORBIDDEN', message: expect.stringContaining('assistants:read') } });
    const plain = await client(server.url, chatOnly.body.data.key).post(shop.chatPath, { message: 'Returns?' });
    expect(plain.status).toBe(200);
    expect(plain.body.explain).toBeUndefined();
    // Every role reads assistants, so a viewer's playground explains.
    const viewer = await addMemberWithRole(server.url, shop.api, shop.organization.id, 'viewer');
    expect(
      (await viewer.api.post(shop.chatPath, { message: 'Returns?', explain: true, metadata: PLAYGROUND })).body.explain.outcome,
    ).toBeDefined();
  });
});
