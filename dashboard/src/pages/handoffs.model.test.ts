import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestServer, type Server } from '../../e2e/support.js';
import { fetchPendingHandoffs } from '../lib/handoffs.js';
import { widgetHandoff } from './analytics.traffic.js';
import { byLongestWait, contactOf, createHandoffsModel, waitingFor, waitingSince } from './handoffs.model.js';
import { createConversationModel } from './conversation.model.js';

// The human takeover queue: widget visitors who asked for a person appear, longest waiting
// first, and leave the queue (and the navigation count) once an agent replies.

let server: Server;
beforeAll(async () => {
  server = await startTestServer();
  await server.ctx.storage.run("UPDATE organizations SET plan = 'enterprise'");
});
afterAll(async () => {
  await server?.close();
});

describe('handoffs model', () => {
  it('queues handoffs oldest first and drops one when an agent replies', async () => {
    const api = clientFor(server);
    expect(await fetchPendingHandoffs(api)).toBe(0);
    const first = await widgetHandoff(server);
    const second = await widgetHandoff(server, 'Can I talk to someone?');
    expect(await fetchPendingHandoffs(api)).toBe(2);

    const m = createHandoffsModel(api);
    await m.load();
    expect(m.queue.error.value).toBeNull();
    expect(m.queue.data.value!.items.map((h) => h.sessionId)).toEqual([first, second]);
    // Each item says when the user asked and what they left with the request (the widget form).
    const [head] = m.queue.data.value!.items;
    expect(head!.handoffRequestedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(head!.handoff).toEqual({ email: 'visitor@example.com', note: 'Please call me' });
    expect(contactOf(head!)).toEqual({ email: 'visitor@example.com', label: 'visitor@example.com' });

    const c = createConversationModel(api, first);
    await c.load();
    c.replyText.value = 'Hello, a person here.';
    expect(await c.sendReply()).toBe(true);
    await m.load();
    expect(m.queue.data.value!.items.map((h) => h.sessionId)).toEqual([second]);
    expect(await fetchPendingHandoffs(api)).toBe(1);
  });

  it('orders by the request time and says how long someone has waited', () => {
    const items = [
      {
        sessionId: 'b',
        assistantId: 'a',
        startedAt: '2026-01-01T10:00:00Z',
        lastMessageAt: '',
        handoffRequestedAt: '2026-01-01T10:30:00Z',
      },
      {
        sessionId: 'a',
        assistantId: 'a',
        startedAt: '2026-01-01T10:10:00Z',
        lastMessageAt: '',
        handoffRequestedAt: '2026-01-01T10:20:00Z',
      },
    ];
    expect(byLongestWait(items).map((h) => h.sessionId)).toEqual(['a', 'b']);
    expect(waitingSince(items[0]!)).toBe('2026-01-01T10:30:00Z');
    expect(waitingSince({ ...items[0]!, handoffRequestedAt: null })).toBe('2026-01-01T10:00:00Z');
    expect(contactOf({ ...items[0]!, userId: 'ann', handoff: { email: null, note: 'x' } })).toEqual({ email: null, label: 'ann' });
    const now = Date.parse('2026-01-01T12:05:00Z');
    expect(waitingFor('2026-01-01T12:00:00Z', now)).toBe('5 min');
    expect(waitingFor('2026-01-01T09:00:00Z', now)).toBe('3 h 5 min');
    expect(waitingFor('2025-12-29T12:00:00Z', now)).toBe('3 days');
  });
});
