import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectEvents, textOf } from '../../../test/answer-events.js';
import { startFakeOpenAi, type FakeProvider } from '../../../test/fake-openai.js';
import type { Passage } from '../extractive.js';
import { ProviderError } from '../../net/provider-http.js';
import type { RetryPolicy } from '../../net/retry.js';
import { createModelUrlGuard } from './model-url-guard.js';
import { createOpenAiProvider, openAiRequestBody } from './openai.js';
import type { AnswerRequest } from './types.js';

const FAST: RetryPolicy = { retries: 2, baseDelayMs: 5, maxDelayMs: 100 };
const passage: Passage = {
  id: '7',
  title: 'Returns',
  url: 'https://shop.example.com/returns',
  headingPath: ['Returns', 'Window'],
  score: 1,
  text: 'Return unused items within 30 days.',
};

function request(overrides: Partial<AnswerRequest> = {}): AnswerRequest {
  return {
    question: 'How long can I return items?',
    passages: [passage],
    history: [],
    systemPrompt: 'You help {{company}}.\n{{knowledge}}',
    variables: { company: 'Acme' },
    language: 'en',
    maxResponseLength: 2000,
    model: { provider: 'openai', name: 'gpt-test' },
    ...overrides,
  };
}

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeOpenAi({ apiKey: 'sk-test' });
});
afterEach(async () => {
  await fake.close();
});

describe('openai provider (Chat Completions protocol)', () => {
  it('streams: sends the exact request and yields the deltas, finish reason and usage', async () => {
    fake.enqueue({ chunks: ['Within ', '30 days ', '[1].'], usage: { prompt: 321, completion: 9 } });
    const provider = createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1`, retry: FAST });
    const events = await collectEvents(
      provider.answer(request({ model: { provider: 'openai', name: 'gpt-test', temperature: 0.2 } }), { stream: true }),
    );
    expect(events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text)).toEqual(['Within ', '30 days ', '[1].']);
    expect(events.at(-1)).toEqual({
      type: 'done',
      finishReason: 'stop',
      usage: { promptTokens: 321, completionTokens: 9 },
      usedPassageIds: null,
      coverage: null,
    });
    const [sent] = fake.requests;
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe('Bearer sk-test');
    expect(sent?.headers.accept).toBe('text/event-stream');
    expect(sent?.body).toMatchObject({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 1064,
    });
    expect(sent?.body.max_completion_tokens).toBeUndefined();
    const messages = sent?.body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[0]?.content).toMatch(/^You help Acme\./);
    expect(messages[0]?.content).toContain(
      '<passage number="1" title="Returns" section="Window" url="https://shop.example.com/returns">\nReturn unused items within 30 days.\n</passage>',
    );
    expect(messages[1]?.content).toBe('How long can I return items?');
  });

  it('answers in one JSON body when not streaming', async () => {
    fake.enqueue({ chunks: ['Thirty days.'], finish: 'length' });
    const provider = createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1`, retry: FAST });
    const events = await collectEvents(provider.answer(request(), {}));
    expect(textOf(events)).toBe('Thirty days.');
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      finishReason: 'length',
      usage: { promptTokens: expect.any(Number), completionTokens: 1 },
    });
    expect(fake.requests[0]?.body.stream).toBeUndefined();
    expect(fake.requests[0]?.body.stream_options).toBeUndefined();
  });

  it('retries 429 (honouring Retry-After) and 5xx, then answers', async () => {
    fake.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '0' } }, { kind: 'error', status: 503 }, { chunks: ['OK'] });
    const retries: string[] = [];
    const provider = createOpenAiProvider({
      apiKey: 'sk-test',
      baseUrl: `${fake.url}/v1`,
      retry: FAST,
      onRetry: (e) => retries.push(e.code),
    });
    expect(textOf(await collectEvents(provider.answer(request(), { stream: true })))).toBe('OK');
    expect(fake.requests).toHaveLength(3);
    expect(retries).toEqual(['rate_limited', 'upstream']);
  });

  it('gives up after the retries, and never retries a wrong key or a bad request', async () => {
    const provider = createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1`, retry: FAST });
    fake.enqueue({ kind: 'error', status: 500 }, { kind: 'error', status: 502 }, { kind: 'error', status: 500, message: 'still down' });
    await expect(collectEvents(provider.answer(request(), { stream: true }))).rejects.toMatchObject({
      code: 'upstream',
      status: 500,
      message: expect.stringContaining('still down'),
    });
    expect(fake.requests).toHaveLength(3);

    const wrongKey = createOpenAiProvider({ apiKey: 'sk-wrong', baseUrl: `${fake.url}/v1`, retry: FAST });
    await expect(collectEvents(wrongKey.answer(request(), {}))).rejects.toMatchObject({
      code: 'auth',
      status: 401,
      message: expect.stringContaining('Incorrect API key'),
    });
    fake.enqueue({ kind: 'error', status: 404, message: 'The model `gpt-nope` does not exist' });
    await expect(collectEvents(provider.answer(request(), {}))).rejects.toMatchObject({ code: 'bad_request', status: 404 });
    expect(fake.requests).toHaveLength(5);
  });

  it('does not wait out a long Retry-After: a live chat gives up instead', async () => {
    fake.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '60' } });
    const provider = createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1`, retry: FAST });
    const t0 = performance.now();
    await expect(collectEvents(provider.answer(request(), {}))).rejects.toMatchObject({ code: 'rate_limited', retryAfterMs: 60_000 });
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('retries a stream that fails before any text, but not one that fails after', async () => {
    const provider = createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1`, retry: FAST });
    fake.enqueue({ kind: 'stream-error', chunks: [] }, { chunks: ['Recovered'] });
    expect(textOf(await collectEvents(provider.answer(request(), { stream: true })))).toBe('Recovered');
    fake.enqueue({ kind: 'drop', chunks: ['Half an ans'] });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const e of provider.answer(request(), { stream: true })) if (e.type === 'delta') seen.push(e.text);
      })(),
    ).rejects.toMatchObject({ code: 'network' });
    expect(seen).toEqual(['Half an ans']);
    expect(fake.requests).toHaveLength(3);
  });

  it('times out on silence — before the answer and between chunks — but not on a slow steady stream', async () => {
    const provider = createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1`, retry: { ...FAST, retries: 0 }, timeoutMs: 150 });
    fake.enqueue({ kind: 'hang' });
    await expect(collectEvents(provider.answer(request(), {}))).rejects.toMatchObject({ code: 'timeout' });
    fake.enqueue({ kind: 'hang', chunks: ['Start'] });
    await expect(collectEvents(provider.answer(request(), { stream: true }))).rejects.toMatchObject({ code: 'timeout' });
    fake.enqueue({ chunks: ['a ', 'slow ', 'but ', 'steady ', 'answer'], delayMs: 60 });
    expect(textOf(await collectEvents(provider.answer(request(), { stream: true })))).toBe('a slow but steady answer');
  });

  it('reuses its keep-alive connection after a complete stream, so no handshake precedes the next first token', async () => {
    const provider = createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1`, retry: FAST });
    for (let i = 0; i < 6; i++) {
      expect(textOf(await collectEvents(provider.answer(request(), { stream: true })))).toBe('This is the default answer [1].');
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(new Set(fake.requests.map((r) => r.remotePort)).size).toBe(1);
  });

  it('cancels the provider request when the caller aborts', async () => {
    fake.enqueue({ chunks: ['One ', 'two ', 'three'], delayMs: 200 });
    const provider = createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1`, retry: FAST });
    const abort = new AbortController();
    const it = provider.answer(request(), { stream: true, signal: abort.signal });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const e of it) {
          if (e.type === 'delta') seen.push(e.text);
          abort.abort();
        }
      })(),
    ).rejects.toBeInstanceOf(ProviderError);
    await fake.requests[0]?.done;
    expect(fake.requests[0]?.clientAborted).toBe(true);
    expect(seen).toEqual(['One ']);
  });

  it('sends the server key only to the server base URL, and says when a key is missing', () => {
    const keyed = createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1` });
    expect(keyed.check?.({ provider: 'openai' })).toBeNull();
    expect(keyed.warnings?.({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' })).toEqual([
      'model.name is not set: the openai provider uses gpt-4o-mini.',
      "model.baseUrl differs from the server's OPENAI_BASE_URL: requests to it carry no API key.",
    ]);
    const keyless = createOpenAiProvider({});
    expect(keyless.check?.({ provider: 'openai' })).toMatch(/OPENAI_API_KEY/);
    expect(keyless.check?.({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' })).toBeNull(); // Ollama needs none
    expect(
      createOpenAiProvider({ apiKey: 'sk', baseUrl: 'http://gateway.local/v1' }).check?.({
        provider: 'openai',
        baseUrl: 'https://api.openai.com/v1',
      }),
    ).toMatch(/only sent to its own base URL/);
    expect(() => keyless.answer(request(), {})).toThrow(/OPENAI_API_KEY/);
  });

  it('calls a keyless server (Ollama-style model.baseUrl) without the server key', async () => {
    const open = await startFakeOpenAi({ apiKey: null, reply: { chunks: ['Local'] } });
    try {
      // The local server is on loopback: allowed the way an operator would (MODEL_BASE_URL_ALLOWLIST).
      const urlGuard = createModelUrlGuard({ allowPrivate: false, allowlist: [open.url], trusted: [`${fake.url}/v1`] });
      const provider = createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${fake.url}/v1`, urlGuard });
      const events = await collectEvents(
        provider.answer(request({ model: { provider: 'openai', name: 'llama3.2', baseUrl: `${open.url}/v1` } }), {}),
      );
      expect(textOf(events)).toBe('Local');
      expect(open.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await open.close();
    }
  });

  it('uses max_completion_tokens for api.openai.com itself, max_tokens elsewhere', () => {
    const official = openAiRequestBody(request({ maxResponseLength: 500 }), false, 'https://api.openai.com/v1');
    expect(official).toMatchObject({ max_completion_tokens: 314 });
    expect(official.max_tokens).toBeUndefined();
    expect(openAiRequestBody(request({ maxResponseLength: 500 }), true, 'http://127.0.0.1:11434/v1')).toMatchObject({
      max_tokens: 314,
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});
