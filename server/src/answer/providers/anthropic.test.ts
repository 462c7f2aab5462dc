import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectEvents, textOf } from '../../../test/answer-events.js';
import { startFakeAnthropic } from '../../../test/fake-anthropic.js';
import type { FakeProvider } from '../../../test/fake-llm.js';
import type { Passage } from '../extractive.js';
import { createAnthropicProvider } from './anthropic.js';
import type { RetryPolicy } from '../../net/retry.js';
import { createModelUrlGuard } from './model-url-guard.js';
import type { AnswerRequest } from './types.js';

const FAST: RetryPolicy = { retries: 2, baseDelayMs: 5, maxDelayMs: 100 };
const passage: Passage = { id: '3', title: 'Shipping', url: null, headingPath: [], score: 1, text: 'Express ships the next business day.' };

function request(overrides: Partial<AnswerRequest> = {}): AnswerRequest {
  return {
    question: 'And express?',
    passages: [passage],
    history: [
      { role: 'assistant', content: 'Welcome!' },
      { role: 'user', content: 'How fast is shipping?' },
      { role: 'assistant', content: 'Standard takes 3 days.' },
      { role: 'human_agent', content: 'I can help too.' },
    ],
    systemPrompt: 'Knowledge:\n{{knowledge}}',
    variables: {},
    language: 'fr',
    maxResponseLength: 1000,
    model: { provider: 'anthropic', name: 'claude-test' },
    ...overrides,
  };
}

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeAnthropic({ apiKey: 'ak-test' });
});
afterEach(async () => {
  await fake.close();
});

describe('anthropic provider (Messages API)', () => {
  it('streams: exact headers and body, text deltas only (no thinking), usage and stop reason', async () => {
    fake.enqueue({ chunks: ['Le ', 'lendemain ', '[1].'], thinking: 'secret reasoning', usage: { prompt: 120, completion: 7 } });
    const provider = createAnthropicProvider({ apiKey: 'ak-test', baseUrl: fake.url, retry: FAST });
    const events = await collectEvents(
      provider.answer(request({ model: { provider: 'anthropic', name: 'claude-test', temperature: 1.6 } }), { stream: true }),
    );
    expect(textOf(events)).toBe('Le lendemain [1].');
    expect(events.at(-1)).toEqual({
      type: 'done',
      finishReason: 'stop',
      usage: { promptTokens: 120, completionTokens: 7 },
      usedPassageIds: null,
      coverage: null,
    });
    const [sent] = fake.requests;
    expect(sent?.headers['x-api-key']).toBe('ak-test');
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.body).toMatchObject({ model: 'claude-test', stream: true, max_tokens: 564, temperature: 1 });
    expect(sent?.body.system).toContain('<passage number="1" title="Shipping">\nExpress ships the next business day.\n</passage>');
    expect(sent?.body.system).toContain('Write the answer in French (language tag "fr")');
    // History: the leading assistant turn dropped, the human agent's reply an assistant turn merged with the one before.
    expect(sent?.body.messages).toEqual([
      { role: 'user', content: 'How fast is shipping?' },
      { role: 'assistant', content: 'Standard takes 3 days.\n\nI can help too.' },
      { role: 'user', content: 'And express?' },
    ]);
  });

  it('answers in one JSON message when not streaming; max_tokens is a cut-short finish', async () => {
    fake.enqueue({ chunks: ['Le lendemain.'], finish: 'max_tokens', thinking: 'hidden' });
    const provider = createAnthropicProvider({ apiKey: 'ak-test', baseUrl: fake.url, retry: FAST });
    const events = await collectEvents(provider.answer(request(), {}));
    expect(textOf(events)).toBe('Le lendemain.');
    expect(events.at(-1)).toMatchObject({ finishReason: 'length', usage: { completionTokens: 1 } });
  });

  it('retries 529 overloaded and an overloaded error event before any text; not a 401', async () => {
    fake.enqueue({ kind: 'error', status: 529 }, { kind: 'stream-error', chunks: [], type: 'overloaded_error' }, { chunks: ['OK'] });
    const provider = createAnthropicProvider({ apiKey: 'ak-test', baseUrl: fake.url, retry: FAST });
    expect(textOf(await collectEvents(provider.answer(request(), { stream: true })))).toBe('OK');
    expect(fake.requests).toHaveLength(3);
    const wrong = createAnthropicProvider({ apiKey: 'ak-wrong', baseUrl: fake.url, retry: FAST });
    await expect(collectEvents(wrong.answer(request(), { stream: true }))).rejects.toMatchObject({
      code: 'auth',
      status: 401,
      message: expect.stringContaining('invalid x-api-key'),
    });
    expect(fake.requests).toHaveLength(4);
  });

  it('an error event after text ends the answer with an error, no retry', async () => {
    fake.enqueue({ kind: 'stream-error', chunks: ['Le '], type: 'api_error', message: 'Internal server error' });
    const provider = createAnthropicProvider({ apiKey: 'ak-test', baseUrl: fake.url, retry: FAST });
    await expect(collectEvents(provider.answer(request(), { stream: true }))).rejects.toMatchObject({
      code: 'upstream',
      message: expect.stringContaining('api_error'),
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('requires a key for api.anthropic.com and never sends it elsewhere', async () => {
    expect(createAnthropicProvider({}).check?.({ provider: 'anthropic' })).toMatch(/ANTHROPIC_API_KEY/);
    const open = await startFakeAnthropic({ apiKey: null, reply: { chunks: ['Gateway'] } });
    try {
      const provider = createAnthropicProvider({
        apiKey: 'ak-test',
        baseUrl: fake.url,
        urlGuard: createModelUrlGuard({ allowPrivate: true, allowlist: [], trusted: [] }),
      }); // the gateway is on loopback
      expect(
        textOf(await collectEvents(provider.answer(request({ model: { provider: 'anthropic', name: 'c', baseUrl: open.url } }), {}))),
      ).toBe('Gateway');
      expect(open.requests[0]?.headers['x-api-key']).toBeUndefined();
    } finally {
      await open.close();
    }
  });
});
