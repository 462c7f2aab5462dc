import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeParley, type FakeParley } from '../test-support/fake-parley.js';
import { createParleyClient, type ParleyClientOptions } from './parley-client.js';
import { ParleyError } from './parley-error.js';

/** The retry loop against a scriptable HTTP server: what the real server cannot do on demand. */
describe('parley client', () => {
  let fake: FakeParley;
  let sleeps: number[];

  beforeEach(async () => {
    fake = await startFakeParley({ discord: { command: 'ask' } });
    sleeps = [];
  });
  afterEach(() => fake.close());

  const client = (options: Partial<ParleyClientOptions> = {}) =>
    createParleyClient({
      baseUrl: `${fake.url}/`,
      apiKey: fake.apiKey,
      assistantId: fake.assistantId,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      ...options,
    });
  const request = { message: 'Hello?', sessionId: 'discord:1:2', metadata: { source: 'discord' as const, userId: '2' } };
  const rateLimited = (retryAfter?: string) => () => ({
    status: 429,
    ...(retryAfter === undefined ? {} : { headers: { 'retry-after': retryAfter } }),
    body: { error: { code: 'RATE_LIMITED', message: 'Too many requests' } },
  });

  it('posts the chat request with the bearer key and returns the bare answer', async () => {
    const answer = await client().chat(request);
    expect(answer).toMatchObject({ response: 'Answer to: Hello?', sessionId: 'discord:1:2', messageId: 'msg_1' });
    expect(answer.sources).toEqual([{ title: 'Getting started', url: 'https://docs.example.com/start' }]);
    const sent = fake.chatRequests()[0];
    expect(sent?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.body).toEqual(request);
  });

  it('waits exactly Retry-After seconds on 429, then succeeds', async () => {
    fake.chatResponses.push(rateLimited('2'));
    const answer = await client().chat(request);
    expect(answer.response).toBe('Answer to: Hello?');
    expect(sleeps).toEqual([2000]);
    expect(fake.chatRequests()).toHaveLength(2);
  });

  it('understands Retry-After as an HTTP date', async () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    fake.chatResponses.push(rateLimited(new Date(now + 3000).toUTCString()));
    await client({ now: () => now }).chat(request);
    expect(sleeps).toEqual([3000]);
  });

  it('backs off exponentially on 5xx and gives up after maxAttempts with the last error', async () => {
    for (let i = 0; i < 5; i++)
      fake.chatResponses.push(() => ({ status: 503, body: { error: { code: 'INTERNAL_ERROR', message: 'down' } } }));
    const error = await client({ maxAttempts: 4, baseDelayMs: 100 })
      .chat(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({ status: 503, code: 'INTERNAL_ERROR' });
    // Full jitter (core/backoff.ts) with random() = 0.5: half of the ceilings 100, 200, 400.
    expect(sleeps).toEqual([50, 100, 200]);
    expect(fake.chatRequests()).toHaveLength(4);
  });

  it('does not sleep through a Retry-After longer than it accepts: fails fast as rate limited', async () => {
    fake.chatResponses.push(rateLimited('120'));
    const error = (await client({ maxRetryDelayMs: 10_000 })
      .chat(request)
      .catch((e: unknown) => e)) as ParleyError;
    expect(error.isRateLimited).toBe(true);
    expect(error.retryAfterSeconds).toBe(120);
    expect(sleeps).toEqual([]);
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it('never retries a 4xx other than 429', async () => {
    fake.chatResponses.push(() => ({
      status: 400,
      body: { error: { code: 'INVALID_REQUEST', message: 'The message parameter is required' } },
    }));
    const error = await client()
      .chat(request)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_REQUEST', message: 'The message parameter is required' });
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it('reads the enveloped error form too (401 on a wrong key)', async () => {
    const error = await client({ apiKey: 'sk_wrong' })
      .getAssistant()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('times out a hung request and does not resend it (the server may still be answering)', async () => {
    fake.chatResponses.push(() => ({ status: 200, body: 'unused' }));
    const hung = createParleyClient({
      baseUrl: fake.url,
      apiKey: fake.apiKey,
      assistantId: fake.assistantId,
      timeoutMs: 50,
      sleep: async (ms) => void sleeps.push(ms),
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    });
    const error = (await hung.chat(request).catch((e: unknown) => e)) as ParleyError;
    expect(error.code).toBe('TIMEOUT');
    expect(error.isUnreachable).toBe(true);
    expect(sleeps).toEqual([]);
  });

  it('retries a refused connection, which never reached the server', async () => {
    const closedUrl = fake.url;
    await fake.close();
    const error = (await createParleyClient({
      baseUrl: closedUrl,
      apiKey: 'k',
      assistantId: 'a',
      maxAttempts: 3,
      sleep: async (ms) => void sleeps.push(ms),
      random: () => 0,
    })
      .chat(request)
      .catch((e: unknown) => e)) as ParleyError;
    expect(error.code).toBe('UNREACHABLE');
    expect(sleeps).toHaveLength(2);
    fake = await startFakeParley();
  });

  it('turns a malformed 200 into a ParleyError instead of crashing later', async () => {
    fake.chatResponses.push(() => ({ body: { unexpected: true } }));
    await expect(client().chat(request)).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });

  it('reads the assistant record and posts feedback to the conversation', async () => {
    const assistant = await client().getAssistant();
    expect(assistant).toMatchObject({ id: fake.assistantId, discord: { command: 'ask' } });
    await client().sendFeedback('slack:T:C:1700000000.000100', { messageId: 'msg_9', rating: 'down' });
    const feedback = fake.requests.find((r) => r.path.endsWith('/feedback'));
    expect(feedback?.path).toBe('/v1/conversations/slack:T:C:1700000000.000100/feedback');
    expect(feedback?.body).toEqual({ messageId: 'msg_9', rating: 'down' });
  });
});
