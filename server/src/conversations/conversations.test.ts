import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { createFakeClock, type FakeClock } from '../lib/clock.js';
import { createApp } from '../app.js';

let server: TestServer;
let clock: FakeClock;
beforeEach(async () => {
  clock = createFakeClock(Date.parse('2026-05-04T09:00:00Z'));
  server = await startServer({ clock });
});
afterEach(async () => {
  await server.close();
});

describe('conversations (API.md §7)', () => {
  it('returns the bare message array, oldest first, with sources and confidence on answers', async () => {
    const shop = await setupShop(server.url);
    await shop.api.post(shop.chatPath, {
      message: 'How do I reset my password?',
      sessionId: 's-1',
      metadata: { userId: 'u-7', source: 'web' },
    });
    clock.advance(1000);
    await shop.api.post(shop.chatPath, { message: 'How long does shipping take?', sessionId: 's-1' });
    for (const prefix of ['/api/v1', '/v1']) {
      const res = await shop.api.get(`${prefix}/conversations/s-1/messages`);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      const [user, answer] = res.body;
      expect(user).toEqual({
        id: expect.any(String),
        role: 'user',
        content: 'How do I reset my password?',
        timestamp: '2026-05-04T09:00:00.000Z',
        metadata: { userId: 'u-7', source: 'web' },
      });
      expect(answer.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(answer.metadata.confidence).toBeGreaterThan(0.35);
      expect(answer.metadata.sources['1']).toEqual({
        text: expect.stringContaining('Reset password'),
        url: 'https://shop.example.com/help/account',
        score: expect.any(Number),
        title: 'Account help',
        chunkId: expect.any(Number),
      });
      expect(res.body[2].timestamp > res.body[0].timestamp).toBe(true);
    }
  });

  it('adds human_agent replies, records feedback and ends conversations', async () => {
    const shop = await setupShop(server.url);
    const chat = await shop.api.post(shop.chatPath, { message: 'How do I delete my account?', sessionId: 's-2' });
    const human = await shop.keyApi.post('/v1/conversations/s-2/messages', { content: 'Hi, this is Sam from support. I can help.' });
    expect(human.status).toBe(201);
    expect(human.body.data).toMatchObject({ role: 'human_agent', content: 'Hi, this is Sam from support. I can help.' });
    const fb = await shop.keyApi.post('/v1/conversations/s-2/feedback', { messageId: chat.body.messageId, rating: 'up', comment: 'clear' });
    expect(fb.status).toBe(200);
    expect((await shop.keyApi.post('/v1/conversations/s-2/feedback', { messageId: chat.body.messageId, rating: 'meh' })).status).toBe(400);
    expect((await shop.keyApi.post('/v1/conversations/s-2/feedback', { messageId: 'msg_nope', rating: 'up' })).status).toBe(404);
    const ended = await shop.keyApi.post('/v1/conversations/s-2/end');
    expect(ended.body.data).toMatchObject({ sessionId: 's-2', status: 'ended' });
    expect((await shop.keyApi.post('/v1/conversations/s-2/end')).status).toBe(409);
    const view = await shop.keyApi.get(`/v1/integrations/${shop.assistantId}/conversations/s-2`);
    expect(view.body.data).toMatchObject({ status: 'ended', endedAt: expect.any(String) });
    expect(view.body.data.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'human_agent']);
    expect((await shop.keyApi.post('/v1/conversations/s-2/messages', { content: '' })).status).toBe(400);
  });

  it('ends a conversation idle for 30 minutes', async () => {
    const shop = await setupShop(server.url);
    await shop.api.post(shop.chatPath, { message: 'hello', sessionId: 'idle-1' });
    const { maintain } = createApp(server.ctx);
    clock.advance(29 * 60_000);
    await maintain();
    expect((await shop.api.get(`/v1/integrations/${shop.assistantId}/conversations/idle-1`)).body.data.status).toBe('active');
    clock.advance(60_000);
    await maintain();
    expect((await shop.api.get(`/v1/integrations/${shop.assistantId}/conversations/idle-1`)).body.data.status).toBe('ended');
  });

  it('hides sessions of other organizations and needs conversations:read', async () => {
    const a = await setupShop(server.url);
    const b = await setupShop(server.url);
    await a.api.post(a.chatPath, { message: 'hi', sessionId: 'private' });
    expect((await b.api.get('/v1/conversations/private/messages')).status).toBe(404);
    expect((await b.api.post('/v1/conversations/private/messages', { content: 'x' })).status).toBe(404);
    const chatOnly = await a.api.post('/v1/api-keys', { name: 'c', permissions: ['chat'] });
    const res = await client(server.url, chatOnly.body.data.key).get('/v1/conversations/private/messages');
    expect(res.status).toBe(403);
  });
});
