import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

/** Reads an SSE response into its events. */
async function readSse(res: Response): Promise<{ event: string; data: any }[]> {
  const text = await res.text();
  return text
    .trim()
    .split('\n\n')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null');
      return { event, data };
    });
}

describe('POST /v1/integrations/:id/chat (API.md §7)', () => {
  it('answers from the knowledge with sources and confidence, in the bare shape', async () => {
    const shop = await setupShop(server.url);
    const res = await shop.api.post(shop.chatPath, { message: 'How long does international delivery take?' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['confidence', 'messageId', 'response', 'sessionId', 'sources']);
    expect(res.body.response).toContain('7 to 14 business days');
    expect(res.body.response).not.toContain('Refunds go back');
    expect(res.body.sources[0]).toEqual({ title: 'Shipping policy', url: 'https://shop.example.com/help/shipping' });
    expect(res.body.confidence).toBeGreaterThanOrEqual(0.35);
    expect(res.body.confidence).toBeLessThanOrEqual(1);
    expect(res.body.sessionId).toMatch(/^sess_/);
  });

  it('gives unanswerable questions low confidence, the fallback message, and a knowledge gap', async () => {
    const shop = await setupShop(server.url, {
      fallback: {
        message: 'Sorry, I cannot help with that.',
        handoff: { enabled: true, message: 'Talk to us:', email: 'help@shop.example.com' },
      },
    });
    const answerable = await shop.api.post(shop.chatPath, { message: 'How do I reset my password?' });
    const unanswerable = await shop.api.post(shop.chatPath, { message: 'Which football team won the 1998 world cup?' });
    expect(answerable.body.confidence).toBeGreaterThan(unanswerable.body.confidence);
    expect(unanswerable.body.confidence).toBeLessThan(0.35);
    expect(unanswerable.body.response).toMatch(/^Sorry, I cannot help with that\./);
    expect(unanswerable.body.response).toContain('help@shop.example.com');
    expect(unanswerable.body.sources).toEqual([]);
    await shop.api.post(shop.chatPath, { message: 'which team won the world cup in 1998??' });
    const gaps = await shop.api.get('/v1/analytics/knowledge-gaps');
    expect(gaps.body.data).toEqual([
      {
        id: expect.stringMatching(/^gap_/),
        question: 'which team won the world cup in 1998??',
        count: 2,
        lastAskedAt: expect.any(String),
        firstAskedAt: expect.any(String),
        assistantId: shop.assistantId,
        bestConfidence: expect.any(Number),
        cause: 'no_passages',
        status: 'open',
        statusReason: null,
        statusAt: null,
      },
    ]);
  });

  it('answers with a template first: confidence 1, no sources, variables filled', async () => {
    const shop = await setupShop(server.url, {
      variables: { company_name: 'Acme Shop' },
      templates: [
        { trigger: 'opening hours', match: 'contains', response: '{{company_name}} is open 9 to 5.' },
        { trigger: '^(hi|hello)\\b', match: 'regex', response: 'Hello from {{company_name}}! {{unknown}}' },
        { trigger: 'Thanks!', match: 'exact', response: 'You are welcome.' },
      ],
    });
    const a = await shop.api.post(shop.chatPath, { message: 'What are your OPENING HOURS?' });
    expect(a.body).toMatchObject({ response: 'Acme Shop is open 9 to 5.', confidence: 1, sources: [] });
    expect((await shop.api.post(shop.chatPath, { message: 'hello there' })).body.response).toBe('Hello from Acme Shop! {{unknown}}');
    expect((await shop.api.post(shop.chatPath, { message: 'thanks' })).body.response).toBe('You are welcome.');
    expect((await shop.api.post(shop.chatPath, { message: 'thanks for nothing' })).body.response).not.toBe('You are welcome.');
  });

  it('caps the answer at maxResponseLength without cutting a word', async () => {
    const shop = await setupShop(server.url, { maxResponseLength: 100 });
    const res = await shop.api.post(shop.chatPath, { message: 'How do returns and refunds work?' });
    expect(res.body.response.length).toBeLessThanOrEqual(100);
    expect(res.body.response.length).toBeGreaterThan(20);
    expect(res.body.response).toMatch(/(\w[.!?]?|…)$/);
  });

  it('continues a session: same id, history kept, follow-ups use the context', async () => {
    const shop = await setupShop(server.url);
    const first = await shop.api.post(shop.chatPath, { message: 'How do I return an item?', sessionId: 'customer-42.web' });
    expect(first.body.sessionId).toBe('customer-42.web');
    const followUp = await shop.api.post(shop.chatPath, { message: 'and the refund?', sessionId: 'customer-42.web' });
    expect(followUp.body.sessionId).toBe('customer-42.web');
    expect(followUp.body.response).toContain('original payment method');
    const history = await shop.api.get(`/v1/integrations/${shop.assistantId}/conversations/customer-42.web`);
    expect(history.status).toBe(200);
    expect(history.body.data).toMatchObject({
      sessionId: 'customer-42.web',
      assistantId: shop.assistantId,
      status: 'active',
      endedAt: null,
    });
    expect(history.body.data.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('rejects bad input in form 1 with the seed wording', async () => {
    const shop = await setupShop(server.url);
    const missing = await shop.api.post(shop.chatPath, { sessionId: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.stringMatching(/message parameter is required/) } });
    const cases: [unknown, RegExp][] = [
      [{ message: '' }, /message/],
      [{ message: '   ' }, /message/],
      [{ message: 42 }, /message/],
      [{ message: 'x'.repeat(4001) }, /4000/],
      [{ message: 'hi', sessionId: 'has spaces' }, /sessionId/],
      [{ message: 'hi', sessionId: 'x'.repeat(129) }, /sessionId/],
      [{ message: 'hi', metadata: 'nope' }, /metadata/],
      [{ message: 'hi', metadata: { blob: 'x'.repeat(9000) } }, /metadata/],
      [{ message: 'hi', metadata: { userId: 7 } }, /userId/],
    ];
    for (const [body, pattern] of cases) {
      const res = await shop.api.post(shop.chatPath, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.message).toMatch(pattern);
      expect(res.body.status).toBeUndefined();
    }
    expect((await shop.api.post(shop.chatPath, { message: 'x'.repeat(4000) })).status).toBe(200);
    const malformed = await shop.api.request('POST', shop.chatPath, { rawBody: '{"message":' });
    expect(malformed.body).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.any(String) } });
  });

  it('uses form 1 for auth, permission and not-found errors too', async () => {
    const shop = await setupShop(server.url);
    const anon = await client(server.url).post(shop.chatPath, { message: 'hi' });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    const noChat = await shop.api.post('/v1/api-keys', { name: 'ro', permissions: ['assistants:read'] });
    const forbidden = await client(server.url, noChat.body.data.key).post(shop.chatPath, { message: 'hi' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: { code: 'FORBIDDEN', message: expect.any(String) } });
    const missing = await shop.api.post('/v1/integrations/asst_missing/chat', { message: 'hi' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('keeps sessions apart per organization and per assistant', async () => {
    const a = await setupShop(server.url);
    const b = await setupShop(server.url);
    await a.api.post(a.chatPath, { message: 'How do I reset my password?', sessionId: 'shared-id' });
    const other = await b.api.post(b.chatPath, { message: 'How long does shipping take?', sessionId: 'shared-id' });
    expect(other.status).toBe(200);
    expect((await b.api.get(`/v1/integrations/${b.assistantId}/conversations/shared-id`)).body.data.messages).toHaveLength(2);
    expect((await b.api.get(`/v1/integrations/${a.assistantId}/conversations/shared-id`)).status).toBe(404);
    const second = await a.api.post('/v1/assistants', { type: 'api', name: 'Second' });
    const clash = await a.api.post(`/v1/integrations/${second.body.data.id}/chat`, { message: 'hi', sessionId: 'shared-id' });
    expect(clash.status).toBe(400);
  });

  it('streams SSE: deltas that add up to the answer, then done with the full body', async () => {
    const shop = await setupShop(server.url);
    const res = await fetch(server.url + shop.chatPath, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'How long do refunds take?', stream: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readSse(res);
    const deltas = events.filter((e) => e.event === 'delta');
    const done = events.at(-1);
    expect(deltas.length).toBeGreaterThan(1);
    expect(done?.event).toBe('done');
    expect(deltas.map((d) => d.data.text).join('')).toBe(done?.data.response);
    expect(done?.data).toMatchObject({ sessionId: expect.any(String), confidence: expect.any(Number), sources: expect.any(Array) });
    expect(done?.data.response).toContain('5 business days');
  });

  it('streams when asked with Accept: text/event-stream', async () => {
    const shop = await setupShop(server.url);
    const res = await fetch(server.url + shop.chatPath, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'How do I delete my account?' }),
    });
    const events = await readSse(res);
    expect(events.at(-1)?.event).toBe('done');
  });
});

describe('knowledge base priorities', () => {
  it('ranks an equally relevant passage from a higher-priority knowledge base first', async () => {
    const shop = await setupShop(server.url);
    const official = (await shop.api.post('/v1/knowledge-bases', { name: 'Official' })).body.data.id;
    const forum = (await shop.api.post('/v1/knowledge-bases', { name: 'Forum' })).body.data.id;
    const text = 'Gift wrapping costs four euros per parcel and is chosen at checkout.';
    await shop.api.post(`/v1/knowledge-bases/${forum}/documents`, {
      title: 'Forum: gift wrapping',
      content: text,
      url: 'https://forum.example.com/wrap',
    });
    await shop.api.post(`/v1/knowledge-bases/${official}/documents`, {
      title: 'Official: gift wrapping',
      content: text,
      url: 'https://shop.example.com/wrap',
    });
    const ask = async (forumPriority: number, officialPriority: number) => {
      await shop.api.patch(`/v1/assistants/${shop.assistantId}`, {
        knowledgeBases: [
          { id: forum, priority: forumPriority },
          { id: official, priority: officialPriority },
        ],
      });
      return (await shop.api.post(shop.chatPath, { message: 'How much does gift wrapping cost?' })).body.sources[0].title;
    };
    expect(await ask(2, 9)).toBe('Official: gift wrapping');
    expect(await ask(9, 2)).toBe('Forum: gift wrapping');
  });
});

describe('POST /v1/apps/:id/chat', () => {
  it('answers in the envelope with conversation_id', async () => {
    const shop = await setupShop(server.url);
    const res = await shop.api.post(`/v1/apps/${shop.assistantId}/chat`, { message: 'How do I reset my password?' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.data).toMatchObject({
      response: expect.stringContaining('Reset password'),
      conversation_id: expect.any(String),
      confidence: expect.any(Number),
    });
    const again = await shop.api.post(`/v1/apps/${shop.assistantId}/chat`, {
      message: 'thanks',
      conversation_id: res.body.data.conversation_id,
    });
    expect(again.body.data.conversation_id).toBe(res.body.data.conversation_id);
    const bad = await shop.api.post(`/v1/apps/${shop.assistantId}/chat`, {});
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      status: 'error',
      error: { code: 'validation_error', message: expect.stringMatching(/message parameter is required/) },
    });
  });
});
