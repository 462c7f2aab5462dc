import { describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { csvCell } from './routes.js';
import { serverPerTest } from '../../test/server-per-test.js';

const env = serverPerTest('2026-05-01T10:00:00Z');

async function seedTraffic() {
  const shop = await setupShop(env.server.url);
  const a1 = await shop.api.post(shop.chatPath, {
    message: 'How do I reset my password?',
    sessionId: 'c1',
    metadata: { userId: 'ann', source: 'web' },
  });
  await shop.api.post(shop.chatPath, { message: 'Which football team won in 1998?', sessionId: 'c1' });
  env.clock.set(Date.parse('2026-05-03T10:00:00Z'));
  const b1 = await shop.api.post(shop.chatPath, {
    message: 'How long does shipping take?',
    sessionId: 'c2',
    metadata: { userId: 'bob', source: 'slack' },
  });
  await shop.api.post('/v1/conversations/c1/feedback', { messageId: a1.body.messageId, rating: 'up' });
  await shop.api.post('/v1/conversations/c2/feedback', { messageId: b1.body.messageId, rating: 'down' });
  return shop;
}

describe('analytics (API.md §8)', () => {
  it('lists conversations with their figures, newest first', async () => {
    const shop = await seedTraffic();
    const res = await shop.api.get('/v1/analytics/conversations');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ total: 2, page: 1, limit: 20, pages: 1 });
    expect(res.body.data[0]).toEqual({
      sessionId: 'c2',
      assistantId: shop.assistantId,
      userId: 'bob',
      source: 'slack',
      startedAt: '2026-05-03T10:00:00.000Z',
      lastMessageAt: '2026-05-03T10:00:00.000Z',
      messageCount: 2,
      avgResponseMs: expect.any(Number),
      rating: 'down',
      channel: 'slack',
      fellBack: false,
      handoffRequested: false,
      status: 'active',
      firstQuestion: 'How long does shipping take?',
    });
    // The visitor's first question, not the last (c1 asked two).
    expect(res.body.data[1]).toMatchObject({
      sessionId: 'c1',
      userId: 'ann',
      messageCount: 4,
      rating: 'up',
      firstQuestion: 'How do I reset my password?',
    });
  });

  it("shows each conversation's first question, cut at 160 characters", async () => {
    const shop = await setupShop(env.server.url);
    const long = `How do I reset my password ${'and then change it again '.repeat(12)}?`;
    await shop.api.post(shop.chatPath, { message: long, sessionId: 'long' });
    const [row] = (await shop.api.get('/v1/analytics/conversations')).body.data;
    expect(row.firstQuestion).toBe(long.slice(0, 160));
  });

  it('filters by date, user, source, assistant and content', async () => {
    const shop = await seedTraffic();
    const ids = async (q: string) =>
      (await shop.api.get(`/v1/analytics/conversations?${q}`)).body.data.map((c: { sessionId: string }) => c.sessionId);
    expect(await ids('from=2026-05-02')).toEqual(['c2']);
    expect(await ids('to=2026-05-01')).toEqual(['c1']);
    expect(await ids('userId=ann')).toEqual(['c1']);
    expect(await ids('source=slack')).toEqual(['c2']);
    expect(await ids('q=football')).toEqual(['c1']);
    expect(await ids('q=100%25')).toEqual([]);
    expect(await ids(`assistantId=${shop.assistantId}`)).toEqual(['c2', 'c1']);
    expect((await shop.api.get('/v1/analytics/conversations?from=yesterday')).status).toBe(400);
    expect((await shop.api.get('/v1/analytics/conversations?from=2026-05-03&to=2026-05-01')).status).toBe(400);
  });

  it('computes metrics over the same filters', async () => {
    const shop = await seedTraffic();
    const res = await shop.api.get('/v1/analytics/metrics');
    expect(res.body.data).toEqual({
      totalConversations: 2,
      totalMessages: 6,
      avgConversationLength: 3,
      avgResponseMs: expect.any(Number),
      p95ResponseMs: expect.any(Number),
      satisfaction: { up: 1, down: 1, rate: 0.5 },
      knowledgeBaseCoverage: 0.667,
      unansweredCount: 1,
      handoffs: 0,
      previous: null,
      // The extractive answerer costs no tokens: no model usage to show.
      usage: { modelAnswers: 0, promptTokens: 0, completionTokens: 0, avgProviderMs: null, p95ProviderMs: null, byModel: [] },
    });
    const slack = await shop.api.get('/v1/analytics/metrics?source=slack');
    expect(slack.body.data).toMatchObject({ totalConversations: 1, totalMessages: 2, unansweredCount: 0, knowledgeBaseCoverage: 1 });
  });

  it('exports CSV and JSON Lines', async () => {
    const shop = await seedTraffic();
    const csv = await shop.api.get('/v1/analytics/conversations/export?format=csv');
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="parley-conversations-2026-05-03\.csv"/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('sessionId,assistantId,userId,source,messageId,role,content,timestamp,confidence,rating,channel');
    expect(lines).toHaveLength(7);
    const jsonl = await shop.api.get('/v1/analytics/conversations/export?format=jsonl&source=slack');
    const rows = jsonl.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.role)).toEqual(['user', 'assistant']);
    expect(rows[1]).toMatchObject({ sessionId: 'c2', rating: 'down' });
    expect((await shop.api.get('/v1/analytics/conversations/export?format=xml')).status).toBe(400);
  });

  it('quotes CSV cells and defuses spreadsheet formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(null)).toBe('');
  });

  it('lists knowledge gaps, most frequent first', async () => {
    const shop = await seedTraffic();
    await shop.api.post(shop.chatPath, { message: 'Do you sell gift cards?' });
    await shop.api.post(shop.chatPath, { message: 'Gift cards: do you sell them?' });
    const res = await shop.api.get('/v1/analytics/knowledge-gaps');
    // The answered question rated down is a gap too (cause rated_down).
    expect(res.body.data.map((g: { question: string; count: number; cause: string }) => [g.question, g.count, g.cause])).toEqual([
      ['Gift cards: do you sell them?', 2, 'no_passages'],
      ['How long does shipping take?', 1, 'rated_down'],
      ['Which football team won in 1998?', 1, 'no_passages'],
    ]);
    expect(res.body.pagination.total).toBe(3);
  });
});
