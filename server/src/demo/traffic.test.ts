import { afterEach, describe, expect, it } from 'vitest';
import { client } from '../../test/http.js';
import { startTestServer, type DemoTestServer } from '../../test/test-server.js';
import { createAssistantStore } from '../assistants/service.js';
import { seedPendingDemoTraffic, seedTraffic } from './traffic.js';

const servers: DemoTestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
const NOW = Date.parse('2026-05-01T12:00:00Z');

async function demo() {
  const s = await startTestServer();
  servers.push(s);
  return s;
}

// 200 conversations through the real chat path: ~22 s on PostgreSQL on a loaded 2-core machine.
describe('demo traffic (npm run seed:traffic, first npm start)', { timeout: 120_000 }, () => {
  it('writes conversations over 90 days through the chat path: channels, gaps, ratings, handoffs in the analytics', async () => {
    const s = await demo();
    const result = await seedPendingDemoTraffic(s.ctx, createAssistantStore(s.ctx.storage), { nowMs: NOW, conversations: 200 });
    expect(result).toMatchObject({ conversations: 200, messages: expect.any(Number) });
    expect(result?.messages).toBeGreaterThan(400);
    // Once only: the first seed's flag is cleared.
    expect(await seedPendingDemoTraffic(s.ctx, createAssistantStore(s.ctx.storage), { nowMs: NOW, conversations: 200 })).toBeNull();

    const api = client(s.url, s.apiKey);
    const m = (await api.get('/v1/analytics/metrics?from=2026-01-31&to=2026-05-01')).body.data;
    expect(m.totalConversations).toBe(200);
    expect(m.totalMessages).toBe(result?.messages);
    expect(m.satisfaction.up).toBeGreaterThan(0);
    expect(m.satisfaction.down).toBeGreaterThan(0);
    expect(m.handoffs).toBeGreaterThan(0);
    expect(m.knowledgeBaseCoverage).toBeGreaterThan(0.5);
    expect(m.knowledgeBaseCoverage).toBeLessThan(1);
    const series = (await api.get('/v1/analytics/timeseries?metric=conversations&interval=day&from=2026-01-31&to=2026-05-01')).body
      .data as { value: number }[];
    expect(series).toHaveLength(91);
    expect(series.filter((p) => p.value > 0).length).toBeGreaterThan(45);
    const channels = new Set<string>();
    for (const c of ['widget', 'api', 'slack', 'discord', 'teams']) {
      if ((await api.get(`/v1/analytics/conversations?channel=${c}&limit=1`)).body.pagination.total > 0) channels.add(c);
    }
    expect(channels.size).toBe(5);
    const gaps = (await api.get('/v1/analytics/knowledge-gaps?limit=100')).body.data as { cause: string; count: number }[];
    expect(gaps.length).toBeGreaterThan(3);
    expect(gaps.some((g) => g.count > 1)).toBe(true);
    expect(new Set(gaps.map((g) => g.cause))).toContain('rated_down');
  });

  it('is deterministic: the same seed writes the same conversations at the same times', async () => {
    const rows = async () => {
      const s = await demo();
      await seedTraffic(s.ctx, createAssistantStore(s.ctx.storage), {
        organizationId: s.organizationId,
        assistantId: s.assistantId,
        nowMs: NOW,
        conversations: 40,
        seed: 7,
      });
      const jsonl = await client(s.url, s.apiKey).get(
        '/v1/analytics/conversations/export?format=jsonl&from=2026-01-01&sort=startedAt&order=asc',
      );
      return jsonl.text
        .trim()
        .split('\n')
        .map((l) => {
          const r = JSON.parse(l) as {
            sessionId: string;
            role: string;
            content: string;
            timestamp: string;
            channel: string;
            rating: string | null;
          };
          return [r.sessionId, r.role, r.content, r.timestamp, r.channel, r.rating].join('|');
        });
    };
    const a = await rows();
    const b = await rows();
    expect(a.length).toBeGreaterThan(80);
    expect(b).toEqual(a);
  });
});
