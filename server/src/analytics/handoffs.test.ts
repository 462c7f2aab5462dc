import { describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { serverPerTest } from '../../test/server-per-test.js';

const env = serverPerTest('2026-05-01T10:00:00Z');

const SITE = 'https://www.shop.example';

describe('GET /v1/handoffs', () => {
  it('orders by when the user asked for a human, oldest first, with the email and note left with the request', async () => {
    const shop = await setupShop(env.server.url, {
      type: 'web',
      widget: { allowedOrigins: [SITE] },
      fallback: { handoff: { enabled: true } },
    });
    const widget = (p: string, body: unknown) =>
      client(env.server.url).post(`/v1/widget/${shop.assistantId}${p}`, body, { headers: { origin: SITE } });
    // Three conversations start 10:00, 10:10, 10:20; they ask for a human at 11:30, 10:40 and 11:00.
    const sessions: string[] = [];
    for (const minutes of [0, 10, 20]) {
      env.clock.set(Date.parse('2026-05-01T10:00:00Z') + minutes * 60_000);
      const res = await widget('/chat', { message: 'Do you sell gift cards?' });
      sessions.push(res.body.data.sessionId as string);
    }
    const [early, middle, late] = sessions as [string, string, string];
    env.clock.set(Date.parse('2026-05-01T10:40:00Z'));
    expect((await widget('/handoff', { sessionId: middle, email: 'mo@example.com', note: 'Order 1234 never arrived' })).status).toBe(200);
    env.clock.set(Date.parse('2026-05-01T11:00:00Z'));
    expect((await widget('/handoff', { sessionId: late })).status).toBe(200);
    env.clock.set(Date.parse('2026-05-01T11:30:00Z'));
    expect((await widget('/handoff', { sessionId: early, email: 'ed@example.com' })).status).toBe(200);

    const queue = await shop.keyApi.get('/v1/handoffs');
    expect(queue.status).toBe(200);
    expect(queue.body.pagination.total).toBe(3);
    expect(
      queue.body.data.map((h: { sessionId: string; handoffRequestedAt: string; handoff: unknown }) => [
        h.sessionId,
        h.handoffRequestedAt,
        h.handoff,
      ]),
    ).toEqual([
      [middle, '2026-05-01T10:40:00.000Z', { email: 'mo@example.com', note: 'Order 1234 never arrived' }],
      [late, '2026-05-01T11:00:00.000Z', { email: null, note: null }],
      [early, '2026-05-01T11:30:00.000Z', { email: 'ed@example.com', note: null }],
    ]);
    // The summary fields stay.
    expect(queue.body.data[0]).toMatchObject({
      channel: 'widget',
      handoffRequested: true,
      status: 'active',
      startedAt: '2026-05-01T10:10:00.000Z',
    });
    // Paging keeps the order; a reply takes the conversation out.
    expect((await shop.keyApi.get('/v1/handoffs?limit=1&page=2')).body.data.map((h: { sessionId: string }) => h.sessionId)).toEqual([late]);
    await shop.keyApi.post(`/v1/conversations/${middle}/messages`, { content: 'Hi, this is Dana from support.' });
    expect((await shop.keyApi.get('/v1/handoffs')).body.data.map((h: { sessionId: string }) => h.sessionId)).toEqual([late, early]);
    expect((await shop.keyApi.get('/v1/handoffs/count')).body.data).toEqual({ pending: 2 });
  });
});
