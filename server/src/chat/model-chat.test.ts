import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../../test/fake-anthropic.js';
import type { FakeProvider, RecordedRequest, Reply } from '../../test/fake-llm.js';
import { startFakeOpenAi } from '../../test/fake-openai.js';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { createAnthropicProvider } from '../answer/providers/anthropic.js';
import { createExtractiveProvider } from '../answer/providers/extractive.js';
import type { RetryPolicy } from '../net/retry.js';
import { createOpenAiProvider } from '../answer/providers/openai.js';
import { assistantConfigSchema } from '../assistants/schemas.js';
import { createAssistantStore } from '../assistants/service.js';

const FAST: RetryPolicy = { retries: 2, baseDelayMs: 5, maxDelayMs: 100 };
const MODEL = { provider: 'openai', name: 'gpt-test' };
/** The provider timeout in these tests: well above the fakes' pauses, except where a test hangs on purpose. */
const TIMEOUT_MS = 600;

interface SseEvent {
  event: string;
  data: any;
}

/** Reads an SSE response event by event, as it arrives. */
async function readSse(res: Response, onEvent?: (e: SseEvent) => void): Promise<SseEvent[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const out: SseEvent[] = [];
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let i = buffer.indexOf('\n\n'); i !== -1; i = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, i);
      buffer = buffer.slice(i + 2);
      const e = { event: /^event: (.*)$/m.exec(block)?.[1] ?? '', data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') };
      out.push(e);
      onEvent?.(e);
    }
  }
  return out;
}

/** The prompt number of the passage titled `title` in a recorded request's system text. */
function passageNumber(r: RecordedRequest, title: string): number {
  const system: string = r.body.system ?? r.body.messages?.[0]?.content ?? '';
  const m = new RegExp(`<passage number="(\\d+)" title="${title}"`).exec(system);
  if (!m) throw new Error(`no passage titled ${title} in the prompt`);
  return Number(m[1]);
}

/** A reply that cites the passage it read, by the number the prompt gave it. */
const citing =
  (title: string, before: string, after = '.', extra: Partial<Extract<Reply, { kind?: 'text' }>> = {}) =>
  (r: RecordedRequest): Reply => ({ chunks: [before, ` [${passageNumber(r, title)}]`, after], ...extra });

function stream(server: TestServer, path: string, token: string, body: Record<string, unknown>) {
  return fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });
}

describe('chat with an OpenAI-compatible model', () => {
  let fake: FakeProvider;
  let server: TestServer;
  beforeEach(async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-test' });
    server = await startServer({
      config: { openaiApiKey: 'sk-test', openaiBaseUrl: `${fake.url}/v1` },
      providers: {
        extractive: createExtractiveProvider(),
        openai: createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1`, retry: FAST, timeoutMs: TIMEOUT_MS }),
      },
    });
  });
  afterEach(async () => {
    await server.close();
    await fake.close();
  });

  it('sends the prompt: system text, knowledge, variables, history and language; maps citations back to sources', async () => {
    const shop = await setupShop(server.url, {
      model: MODEL,
      language: 'de',
      variables: { company_name: 'Acme Shop' },
      systemPrompt: 'You are {{assistant_name}} of {{company_name}}. {{knowledge}} Mention {{coupon_code}}.',
    });
    const created = await shop.api.get(`/v1/assistants/${shop.assistantId}`);
    expect(created.body.data.model).toEqual(MODEL);
    fake.fallback = citing('Returns and refunds', 'Rücksendungen sind 30 Tage möglich');
    const first = await shop.api.post(shop.chatPath, { message: 'How do returns work?', sessionId: 'prompt-check' });
    expect(first.status).toBe(200);
    const second = await shop.api.post(shop.chatPath, { message: 'And how long do refunds take?', sessionId: 'prompt-check' });
    expect(second.body).toMatchObject({
      response: 'Rücksendungen sind 30 Tage möglich [1].',
      confidence: expect.any(Number),
      sources: [{ title: 'Returns and refunds', url: 'https://shop.example.com/help/returns' }],
    });
    expect(second.body.confidence).toBeGreaterThanOrEqual(0.6); // cited

    const sent = fake.requests[1]?.body;
    expect(sent.model).toBe('gpt-test');
    expect(sent.stream).toBe(true); // even for a JSON chat: timeouts measure silence, the cap can stop generation
    const messages = sent.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages.slice(1).map((m) => m.content)).toEqual(['How do returns work?', first.body.response, 'And how long do refunds take?']);
    const system = messages[0]?.content ?? '';
    expect(system).toMatch(/^You are Shop helper of Acme Shop\. The numbered passages below/);
    expect(system).toContain('Mention {{coupon_code}}.');
    expect(system).toMatch(
      /<passage number="\d" title="Returns and refunds" section="Refunds" url="https:\/\/shop\.example\.com\/help\/returns">\nRefunds go back to the original payment method/,
    );
    expect(system).toContain('Write the answer in German (language tag "de")');
    expect(system).toContain('NO_ANSWER');

    const messagesApi = await shop.api.get('/v1/conversations/prompt-check/messages');
    const answer = messagesApi.body.at(-1);
    expect(answer.metadata.sources).toEqual({
      1: {
        title: 'Returns and refunds',
        url: expect.any(String),
        text: expect.stringContaining('Refunds go back'),
        score: expect.any(Number),
        chunkId: expect.any(Number),
      },
    });
    expect(answer.metadata.model).toEqual({ provider: 'openai', name: 'gpt-test', providerMs: expect.any(Number) });
    expect(answer.metadata.usage).toEqual({ promptTokens: expect.any(Number), completionTokens: 3 });
  });

  it('reports unknown placeholders and model defaults as warnings when the assistant is saved', async () => {
    const shop = await setupShop(server.url);
    const res = await shop.api.patch(`/v1/assistants/${shop.assistantId}`, {
      model: { provider: 'openai' },
      systemPrompt: 'Hi from {{compnay}}: {{knowledge}}',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.warnings).toEqual([
      'model.name is not set: the openai provider uses gpt-4o-mini.',
      'systemPrompt uses {{compnay}}, which no variable fills: it stays visible as written. Add it to variables or fix the name.',
    ]);
    expect((await shop.api.get(`/v1/assistants/${shop.assistantId}`)).body.data.warnings).toBeUndefined();
  });

  it('streams through /chat SSE as the provider writes: the first delta leaves before the provider has finished', async () => {
    const shop = await setupShop(server.url, { model: MODEL });
    fake.fallback = (r) => ({
      chunks: ['Refunds ', 'take 5 business days', ` [${passageNumber(r, 'Returns and refunds')}]`, '.'],
      delayMs: 150,
    });
    const res = await stream(server, shop.chatPath, shop.token, { message: 'How long do refunds take?' });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    let providerFinished = false;
    let firstDeltaWhileProviderBusy: boolean | null = null;
    const events = await readSse(res, (e) => {
      if (e.event !== 'delta' || firstDeltaWhileProviderBusy !== null) return;
      void fake.requests[0]?.done.then(() => {
        providerFinished = true;
      });
      firstDeltaWhileProviderBusy = !providerFinished && fake.requests[0]?.clientAborted === false;
    });
    expect(firstDeltaWhileProviderBusy).toBe(true);
    const deltas = events.filter((e) => e.event === 'delta').map((e) => e.data.text as string);
    const done = events.at(-1);
    expect(deltas[0]).toBe('Refunds');
    expect(done?.event).toBe('done');
    expect(deltas.join('')).toBe(done?.data.response);
    expect(done?.data).toMatchObject({ response: 'Refunds take 5 business days [1].', sources: [{ title: 'Returns and refunds' }] });
    expect(fake.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('caps a long streamed answer at maxResponseLength without cutting a word, and stops the provider', async () => {
    const shop = await setupShop(server.url, { model: MODEL, maxResponseLength: 120 });
    const words = Array.from({ length: 300 }, (_, i) => `refund${i} `);
    fake.fallback = (r) => ({ chunks: [`Refunds [${passageNumber(r, 'Returns and refunds')}] `, ...words], delayMs: 2 });
    const events = await readSse(await stream(server, shop.chatPath, shop.token, { message: 'How long do refunds take?' }));
    const done = events.at(-1)?.data;
    expect(done.response.length).toBeLessThanOrEqual(120);
    expect(done.response).toMatch(/^Refunds \[1\] refund0 refund1 .*refund\d+…$/);
    expect(
      events
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.text)
        .join(''),
    ).toBe(done.response);
    await fake.requests[0]?.done;
    expect(fake.requests[0]?.clientAborted).toBe(true); // no need for the other 250 words
  });

  it('retries 429 and 5xx, then answers; when retries run out it sends the fallback message (no knowledge gap)', async () => {
    const shop = await setupShop(server.url, { model: MODEL, fallback: { message: 'Sorry, try again later.', suggestions: false } });
    fake.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '0' } }, { kind: 'error', status: 500 });
    fake.fallback = citing('Returns and refunds', 'Within 5 business days');
    const ok = await shop.api.post(shop.chatPath, { message: 'How long do refunds take?' });
    expect(ok.body.response).toBe('Within 5 business days [1].');
    expect(fake.requests).toHaveLength(3);

    fake.enqueue({ kind: 'error', status: 503 }, { kind: 'error', status: 502 }, { kind: 'error', status: 503 });
    const down = await shop.api.post(shop.chatPath, { message: 'How long do refunds take?', sessionId: 'outage' });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ response: 'Sorry, try again later.', confidence: 0 });
    // The page that most likely holds the answer is still linked (issue 26).
    expect(down.body.sources[0]).toEqual({ title: 'Returns and refunds', url: 'https://shop.example.com/help/returns' });
    expect(fake.requests).toHaveLength(6);
    const stored = (await shop.api.get('/v1/conversations/outage/messages')).body.at(-1);
    expect(stored.metadata).toMatchObject({ fallback: true });
    expect(stored.metadata.providerError).toEqual({ code: 'provider_error' }); // no upstream status for the tenant
    expect((await shop.api.get('/v1/analytics/knowledge-gaps')).body.data).toEqual([]);
  });

  it('gives the fallback message when the provider stays silent past the timeout', async () => {
    const shop = await setupShop(server.url, { model: MODEL, fallback: { message: 'Sorry, no answer right now.', suggestions: false } });
    fake.enqueue({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    const t0 = performance.now();
    const res = await shop.api.post(shop.chatPath, { message: 'How long do refunds take?' });
    expect(res.body.response).toBe('Sorry, no answer right now.');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(3 * TIMEOUT_MS - 50);
    expect(fake.requests.every((r) => r.clientAborted)).toBe(true);
  });

  it('cancels the provider request when the chat client disconnects, and stores nothing', async () => {
    const shop = await setupShop(server.url, { model: MODEL });
    fake.fallback = citing('Returns and refunds', 'Refunds take', ' five days.', { delayMs: 300 });
    // node:http without keep-alive, so the hang-up is a plain socket close (fetch's pool would
    // also open a spare connection that a graceful server close then waits out).
    let abortedAt = 0;
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        `${server.url}${shop.chatPath}`,
        {
          method: 'POST',
          agent: false,
          headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
        },
        (res) => {
          res.on('data', (chunk: Buffer) => {
            if (abortedAt || !chunk.toString().includes('event: delta')) return;
            abortedAt = performance.now();
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', (err) => {
        if (!abortedAt) reject(err);
      });
      req.end(JSON.stringify({ message: 'How long do refunds take?', sessionId: 'walked-away' }));
    });
    await fake.requests[0]?.done;
    expect(fake.requests[0]?.clientAborted).toBe(true);
    // Closed because the client left, not by a timeout or the end of the script (next chunk due 300 ms later).
    expect(performance.now() - abortedAt).toBeLessThan(200);
    await new Promise((r) => setTimeout(r, 50));
    expect((await shop.api.get(`/v1/integrations/${shop.assistantId}/conversations/walked-away`)).status).toBe(404);
  });

  it('a model that declines gets the fallback message and a knowledge gap; the marker never reaches the client', async () => {
    const shop = await setupShop(server.url, { model: MODEL, fallback: { message: 'I do not know that yet.', suggestions: false } });
    fake.fallback = { chunks: ['NO_', 'ANSWER'] };
    const events = await readSse(await stream(server, shop.chatPath, shop.token, { message: 'How long do refunds take for gift cards?' }));
    const deltas = events
      .filter((e) => e.event === 'delta')
      .map((e) => e.data.text)
      .join('');
    expect(events.at(-1)?.data).toMatchObject({ response: 'I do not know that yet.' });
    expect(events.at(-1)?.data.sources[0]).toMatchObject({ title: 'Returns and refunds' });
    expect(events.at(-1)?.data.confidence).toBeLessThan(0.35);
    expect(deltas).toBe('I do not know that yet.');
    expect((await shop.api.get('/v1/analytics/knowledge-gaps')).body.data).toMatchObject([
      { question: 'How long do refunds take for gift cards?', count: 1 },
    ]);
  });

  it('stores usage per message and totals it in analytics', async () => {
    const shop = await setupShop(server.url, { model: MODEL });
    fake.fallback = (r) => ({
      chunks: ['Five days', ` [${passageNumber(r, 'Returns and refunds')}].`],
      usage: { prompt: 400, completion: 12 },
    });
    await shop.api.post(shop.chatPath, { message: 'How long do refunds take?' });
    await readSse(await stream(server, shop.chatPath, shop.token, { message: 'How long do refunds take?' }));
    await shop.api.post(shop.chatPath, { message: 'When do refunds arrive?' });
    const metrics = (await shop.api.get('/v1/analytics/metrics')).body.data;
    expect(metrics.usage).toEqual({
      modelAnswers: 3,
      promptTokens: 1200,
      completionTokens: 36,
      avgProviderMs: expect.any(Number),
      p95ProviderMs: expect.any(Number),
      byModel: [
        { provider: 'openai', model: 'gpt-test', answers: 3, promptTokens: 1200, completionTokens: 36, avgProviderMs: expect.any(Number) },
      ],
    });
    const row = await server.ctx.storage.get(
      "SELECT provider, model, prompt_tokens, completion_tokens, provider_ms FROM messages WHERE role = 'assistant' LIMIT 1",
    );
    expect(row).toEqual({
      provider: 'openai',
      model: 'gpt-test',
      prompt_tokens: 400,
      completion_tokens: 12,
      provider_ms: expect.any(Number),
    });
  });
});

describe('a missing API key', () => {
  let server: TestServer;
  // No OPENAI_API_KEY, no ANTHROPIC_API_KEY; a local Ollama the operator allowed.
  beforeEach(async () => {
    server = await startServer({ config: { modelBaseUrlAllowlist: ['http://127.0.0.1:11434'] } });
  });
  afterEach(async () => {
    await server.close();
  });

  it('is a clear error when the assistant is saved and at chat time, never a crash', async () => {
    const shop = await setupShop(server.url);
    const refused = await shop.api.patch(`/v1/assistants/${shop.assistantId}`, { model: { provider: 'openai', name: 'gpt-4o-mini' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({ code: 'validation_error', message: expect.stringContaining('set OPENAI_API_KEY') });
    const anthropic = await shop.api.post('/v1/assistants', { type: 'api', name: 'Claude', model: { provider: 'anthropic' } });
    expect(anthropic.status).toBe(400);
    expect(anthropic.body.error.message).toMatch(/ANTHROPIC_API_KEY/);
    // A keyless local server (Ollama) is fine.
    const ollama = await shop.api.patch(`/v1/assistants/${shop.assistantId}`, {
      model: { provider: 'openai', name: 'llama3.2', baseUrl: 'http://127.0.0.1:11434/v1' },
    });
    expect(ollama.status).toBe(200);

    // Saved while a key existed (or written behind the API's back), then the key went away.
    const stale = await createAssistantStore(server.ctx.storage).create(
      shop.organization.id,
      'api',
      assistantConfigSchema.parse({
        name: 'Stale',
        model: { provider: 'openai', name: 'gpt-4o-mini' },
        knowledgeBases: [{ id: shop.kbId }],
      }),
      new Date().toISOString(),
    );
    const chat = await shop.api.post(`/v1/integrations/${stale.id}/chat`, { message: 'How long do refunds take?' });
    expect(chat.status).toBe(400);
    expect(chat.body).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.stringContaining('set OPENAI_API_KEY') } });
    const sse = await readSse(
      await stream(server, `/v1/integrations/${stale.id}/chat`, shop.token, { message: 'How long do refunds take?' }),
    );
    expect(sse).toEqual([
      { event: 'error', data: { error: { code: 'INVALID_REQUEST', message: expect.stringContaining('OPENAI_API_KEY') } } },
    ]);
    // Unrelated edits still save, with the problem as a warning.
    const renamed = await shop.api.patch(`/v1/assistants/${stale.id}`, { name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.warnings[0]).toMatch(/OPENAI_API_KEY.*Chat requests to this assistant fail/);
    expect((await client(server.url).get('/healthz')).status).toBe(200);
  });
});

describe('chat with an Anthropic model', () => {
  let fake: FakeProvider;
  let server: TestServer;
  beforeEach(async () => {
    fake = await startFakeAnthropic({ apiKey: 'ak-test' });
    server = await startServer({
      providers: {
        extractive: createExtractiveProvider(),
        anthropic: createAnthropicProvider({ apiKey: 'ak-test', baseUrl: fake.url, retry: FAST }),
      },
    });
  });
  afterEach(async () => {
    await server.close();
    await fake.close();
  });

  it('streams end to end through /chat SSE with the Messages API', async () => {
    const shop = await setupShop(server.url, { model: { provider: 'anthropic', name: 'claude-test' }, language: 'fr' });
    fake.fallback = (r) => ({
      chunks: ['Les remboursements ', 'prennent 5 jours ouvrés', ` [${passageNumber(r, 'Returns and refunds')}].`],
      thinking: 'Let me think',
      delayMs: 20,
      usage: { prompt: 90, completion: 8 },
    });
    const events = await readSse(await stream(server, shop.chatPath, shop.token, { message: 'How long do refunds take?' }));
    const done = events.at(-1);
    expect(done?.event).toBe('done');
    expect(done?.data).toMatchObject({
      response: 'Les remboursements prennent 5 jours ouvrés [1].',
      sources: [{ title: 'Returns and refunds' }],
    });
    expect(
      events
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.text)
        .join(''),
    ).toBe(done?.data.response);
    const sent = fake.requests[0];
    expect(sent?.headers).toMatchObject({ 'x-api-key': 'ak-test', 'anthropic-version': '2023-06-01' });
    expect(sent?.body).toMatchObject({
      model: 'claude-test',
      stream: true,
      messages: [{ role: 'user', content: 'How long do refunds take?' }],
    });
    expect(sent?.body.system).toContain('Write the answer in French');
    const metrics = (await shop.api.get('/v1/analytics/metrics')).body.data;
    expect(metrics.usage).toMatchObject({
      modelAnswers: 1,
      promptTokens: 90,
      completionTokens: 8,
      byModel: [{ provider: 'anthropic', model: 'claude-test' }],
    });
  });
});
