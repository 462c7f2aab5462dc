import { describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { channelOf, CHANNELS } from './channel.js';
import { addToHistogram, bucketValue, MAX_BUCKETS, percentileOf } from './timeseries.js';
import { serverPerTest } from '../../test/server-per-test.js';

const env = serverPerTest('2026-05-01T10:15:00Z');

const SITE = 'https://www.shop.example';

/** A web assistant (widget allowed from SITE, handoff on) with traffic over two days and four channels. */
async function seed() {
  const shop = await setupShop(env.server.url, {
    type: 'web',
    widget: { allowedOrigins: [SITE] },
    fallback: { handoff: { enabled: true } },
  });
  const site = client(env.server.url);
  const widget = (p: string, body: unknown) => site.post(`/v1/widget/${shop.assistantId}${p}`, body, { headers: { origin: SITE } });
  // Day 1, 10:xx: API (answered, rated up) + a fallback in the same conversation.
  const a1 = await shop.api.post(shop.chatPath, {
    message: 'How do I reset my password?',
    sessionId: 'api-1',
    metadata: { userId: 'ann' },
  });
  await shop.api.post(shop.chatPath, { message: 'Which football team won in 1998?', sessionId: 'api-1' });
  await shop.api.post('/v1/conversations/api-1/feedback', { messageId: a1.body.messageId, rating: 'up' });
  // Day 1, 12:xx: Slack, answered, rated down.
  env.clock.set(Date.parse('2026-05-01T12:30:00Z'));
  const s1 = await shop.api.post(shop.chatPath, {
    message: 'How long does shipping take?',
    sessionId: 'slack-1',
    metadata: { source: 'slack', userId: 'bob' },
  });
  await shop.api.post('/v1/conversations/slack-1/feedback', { messageId: s1.body.messageId, rating: 'down' });
  // Day 2, 09:xx: the widget, a fallback, then the user asks for a human.
  env.clock.set(Date.parse('2026-05-02T09:05:00Z'));
  const w = await widget('/chat', { message: 'Do you sell gift cards?' });
  const widgetSession = w.body.data.sessionId as string;
  await widget('/handoff', { sessionId: widgetSession, email: 'cy@example.com' });
  // Day 2: the playground (left out of analytics unless asked).
  await shop.api.post(shop.chatPath, { message: 'How do I reset my password?', sessionId: 'play-1', metadata: { source: 'playground' } });
  return { ...shop, widgetSession, widget };
}

describe('channel of a conversation', () => {
  it('is the same in TypeScript and in the stored virtual column', async () => {
    const shop = await setupShop(env.server.url);
    const cases: [string, string | null][] = [
      ['api', null],
      ['app', null],
      ['widget', null],
      ['api', 'Slack'],
      ['api', 'discord'],
      ['widget', 'teams'],
      ['api', 'playground'],
      ['api', 'web'],
    ];
    const storage = env.server.ctx.storage;
    for (const [i, [channel, source]] of cases.entries()) {
      await storage.run(
        `INSERT INTO conversations (id, organization_id, assistant_id, session_id, channel, source, started_at, last_message_at)
        VALUES (?, ?, ?, ?, ?, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
        [`conv_t${i}`, shop.organization.id, shop.assistantId, `s${i}`, channel, source],
      );
    }
    const stored = await storage.all<{ channel: string; source: string | null; g: string }>(
      "SELECT channel, source, channel_group AS g FROM conversations WHERE id LIKE 'conv_t%' ORDER BY id",
    );
    for (const r of stored) {
      expect(r.g).toBe(channelOf(r.channel, r.source));
      expect(CHANNELS).toContain(r.g);
    }
    expect(stored.map((r) => r.g)).toEqual(['api', 'api', 'widget', 'slack', 'discord', 'teams', 'playground', 'api']);
  });
});

describe('GET /v1/analytics/timeseries', () => {
  it('counts per hour and per day from the rollups, empty buckets 0 (or null for ratios), playground left out', async () => {
    const shop = await seed();
    const ts = async (q: string) => {
      const res = await shop.keyApi.get(`/v1/analytics/timeseries?${q}`);
      expect(res.status, res.text).toBe(200);
      return res.body.data as { t: string; value: number | null }[];
    };
    const range = 'from=2026-05-01&to=2026-05-02';
    expect(await ts(`metric=conversations&interval=day&${range}`)).toEqual([
      { t: '2026-05-01T00:00:00.000Z', value: 2 },
      { t: '2026-05-02T00:00:00.000Z', value: 1 },
    ]);
    expect(await ts(`metric=messages&interval=day&${range}`)).toEqual([
      { t: '2026-05-01T00:00:00.000Z', value: 6 },
      { t: '2026-05-02T00:00:00.000Z', value: 2 },
    ]);
    expect(await ts(`metric=conversations&interval=day&${range}&channel=playground`)).toEqual([
      { t: '2026-05-01T00:00:00.000Z', value: 0 },
      { t: '2026-05-02T00:00:00.000Z', value: 1 },
    ]);
    expect(await ts(`metric=satisfaction&interval=day&${range}`)).toEqual([
      { t: '2026-05-01T00:00:00.000Z', value: 0.5 },
      { t: '2026-05-02T00:00:00.000Z', value: null },
    ]);
    expect(await ts(`metric=coverage&interval=day&${range}`)).toEqual([
      { t: '2026-05-01T00:00:00.000Z', value: 0.667 },
      { t: '2026-05-02T00:00:00.000Z', value: 0 },
    ]);
    expect(await ts(`metric=unanswered&interval=day&${range}`)).toEqual([
      { t: '2026-05-01T00:00:00.000Z', value: 1 },
      { t: '2026-05-02T00:00:00.000Z', value: 1 },
    ]);
    expect(await ts(`metric=handoffs&interval=day&${range}&channel=widget`)).toEqual([
      { t: '2026-05-01T00:00:00.000Z', value: 0 },
      { t: '2026-05-02T00:00:00.000Z', value: 1 },
    ]);

    const hours = await ts('metric=messages&interval=hour&from=2026-05-01T09:30:00Z&to=2026-05-01T13:00:00Z');
    expect(hours.map((p) => p.t)).toEqual([
      '2026-05-01T09:00:00.000Z',
      '2026-05-01T10:00:00.000Z',
      '2026-05-01T11:00:00.000Z',
      '2026-05-01T12:00:00.000Z',
      '2026-05-01T13:00:00.000Z',
    ]);
    expect(hours.map((p) => p.value)).toEqual([0, 4, 0, 2, 0]);
    const slackOnly = await ts('metric=messages&interval=hour&from=2026-05-01T09:30:00Z&to=2026-05-01T13:00:00Z&channel=slack,teams');
    expect(slackOnly.map((p) => p.value)).toEqual([0, 0, 0, 2, 0]);

    const p50Hours = await ts('metric=response_ms_p50&interval=hour&from=2026-05-01T09:30:00Z&to=2026-05-01T13:00:00Z');
    expect(p50Hours.map((p) => p.value === null)).toEqual([true, false, true, false, true]);
    const p95 = await ts(`metric=response_ms_p95&interval=day&${range}`);
    expect(p95[0]?.value).toEqual(expect.any(Number));
    // The stored answers' own response times, read back through the histogram (±5 %).
    const times = (
      await env.server.ctx.storage.all<{ ms: number }>(
        "SELECT m.response_ms AS ms FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.channel_group != 'playground' AND m.created_at < '2026-05-02' AND m.response_ms IS NOT NULL ORDER BY ms",
      )
    ).map((r) => r.ms);
    const exact = times[Math.ceil(times.length * 0.95) - 1] as number;
    expect(Math.abs((p95[0]?.value as number) - exact)).toBeLessThanOrEqual(Math.max(0.5, exact * 0.05) + 0.05);
  });

  it('validates metric, interval, channel and the number of buckets', async () => {
    const shop = await seed();
    const status = async (q: string) => (await shop.keyApi.get(`/v1/analytics/timeseries?${q}`)).status;
    expect(await status('interval=day')).toBe(400);
    expect(await status('metric=bogus')).toBe(400);
    expect(await status('metric=messages&interval=week')).toBe(400);
    expect(await status('metric=messages&channel=fax')).toBe(400);
    expect(await status('metric=messages&from=2026-05-03&to=2026-05-01')).toBe(400);
    // 2,200 hourly buckets are allowed, 2,201 are not.
    const from = Date.parse('2026-01-01T00:00:00Z');
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(await status(`metric=messages&interval=hour&from=${iso(from)}&to=${iso(from + (MAX_BUCKETS - 1) * 3_600_000)}`)).toBe(200);
    const tooMany = await shop.keyApi.get(
      `/v1/analytics/timeseries?metric=messages&interval=hour&from=${iso(from)}&to=${iso(from + MAX_BUCKETS * 3_600_000)}`,
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toMatch(/2201 hour buckets; at most 2200/);
    // Default range: the last 30 days, one bucket each (31 with today's partial day).
    expect((await shop.keyApi.get('/v1/analytics/timeseries?metric=messages')).body.data).toHaveLength(31);
  });

  it('reads the histogram percentile within its stated error', () => {
    for (const ms of [1, 3.7, 12, 250, 9_999]) {
      const bucket = 1 + Math.floor(Math.log(ms) / Math.log(1.1));
      expect(Math.abs(bucketValue(bucket) - ms) / ms).toBeLessThanOrEqual(0.0489);
    }
    const hist = (entries: [number, number][]) => {
      const h = new Float64Array(256);
      for (const [b, n] of entries) h[b] = n;
      return h;
    };
    expect(
      percentileOf(
        hist([
          [10, 50],
          [20, 50],
        ]),
        0.5,
      ),
    ).toBe(Math.round(bucketValue(10) * 10) / 10);
    expect(
      percentileOf(
        hist([
          [10, 50],
          [20, 50],
        ]),
        0.51,
      ),
    ).toBe(Math.round(bucketValue(20) * 10) / 10);
    expect(percentileOf(hist([]), 0.95)).toBeNull();
    // Stored bucket rows merge by adding; a bucket beyond the last counts in the last.
    const merged = new Float64Array(256);
    for (const [b, n] of [
      [0, 2],
      [52, 13],
      [255, 1],
      [52, 7],
      [300, 4],
    ] as const)
      addToHistogram(merged, b, n);
    expect([merged[0], merged[52], merged[255], merged[1]]).toEqual([2, 20, 5, 0]);
  });
});

describe('GET /v1/analytics/metrics', () => {
  it('adds handoffs and the previous period of the same length', async () => {
    const shop = await seed();
    const m = (await shop.keyApi.get('/v1/analytics/metrics?from=2026-05-02&to=2026-05-02')).body.data;
    expect(m).toMatchObject({ totalConversations: 1, handoffs: 1, unansweredCount: 1 });
    expect(m.previous).toMatchObject({
      from: '2026-05-01T00:00:00.000Z',
      to: '2026-05-01T23:59:59.999Z',
      totalConversations: 2,
      totalMessages: 6,
      handoffs: 0,
      satisfaction: { up: 1, down: 1, rate: 0.5 },
    });
    const withPlayground = (await shop.keyApi.get('/v1/analytics/metrics?from=2026-05-02&to=2026-05-02&channel=widget,playground')).body
      .data;
    expect(withPlayground.totalConversations).toBe(2);
  });
});

describe('conversations for the dashboard', () => {
  it('filters, sorts, and exports exactly the filtered list', async () => {
    const shop = await seed();
    const list = async (q: string) =>
      (await shop.keyApi.get(`/v1/analytics/conversations?${q}`)).body.data as {
        sessionId: string;
        channel: string;
        fellBack: boolean;
        handoffRequested: boolean;
        status: string;
      }[];
    const ids = async (q: string) => (await list(q)).map((c) => c.sessionId);
    const all = await list('');
    expect(
      all.map((c) => [c.sessionId === shop.widgetSession ? 'widget' : c.sessionId, c.channel, c.fellBack, c.handoffRequested, c.status]),
    ).toEqual([
      ['widget', 'widget', true, true, 'active'],
      ['slack-1', 'slack', false, false, 'active'],
      ['api-1', 'api', true, false, 'active'],
    ]);
    expect(await ids('channel=playground')).toEqual(['play-1']);
    expect(await ids('rating=down')).toEqual(['slack-1']);
    expect(await ids('rating=up')).toEqual(['api-1']);
    expect(await ids('fellBack=false')).toEqual(['slack-1']);
    expect(await ids('handoff=true')).toEqual([shop.widgetSession]);
    expect(await ids('handoff=false&sort=startedAt&order=asc')).toEqual(['api-1', 'slack-1']);
    expect(await ids('sort=messageCount&order=desc')).toEqual(['api-1', shop.widgetSession, 'slack-1']); // ties: newest first
    expect((await shop.keyApi.get('/v1/analytics/conversations?sort=size')).status).toBe(400);
    expect((await shop.keyApi.get('/v1/analytics/conversations?fellBack=yes')).status).toBe(400);

    const q = 'sort=messageCount&order=desc&channel=api,slack,widget';
    const listed = await ids(q);
    const jsonl = await shop.keyApi.get(`/v1/analytics/conversations/export?format=jsonl&${q}`);
    const rows = jsonl.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { sessionId: string; channel: string });
    expect([...new Set(rows.map((r) => r.sessionId))]).toEqual(listed);
    expect(rows).toHaveLength(4 + 2 + 2);
    const csv = await shop.keyApi.get(`/v1/analytics/conversations/export?format=csv&${q}&rating=down`);
    expect(
      csv.text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[0]),
    ).toEqual(['slack-1', 'slack-1']);
  });

  it("shows one conversation with every turn's metadata, and the handoff queue", async () => {
    const shop = await seed();
    const detail = await shop.keyApi.get('/v1/conversations/api-1');
    expect(detail.status).toBe(200);
    const d = detail.body.data;
    expect(d).toMatchObject({
      sessionId: 'api-1',
      assistantId: shop.assistantId,
      channel: 'api',
      userId: 'ann',
      status: 'active',
      threshold: expect.any(Number),
      corrections: [],
    });
    expect(d.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(d.messages[1]).toMatchObject({
      fellBack: false,
      rating: 'up',
      templateId: null,
      responseMs: expect.any(Number),
      confidence: expect.any(Number),
    });
    expect(d.messages[1].sources[0]).toMatchObject({
      title: 'Account help',
      text: expect.stringContaining('Reset password'),
      score: expect.any(Number),
      chunkId: expect.any(Number),
    });
    expect(d.messages[3]).toMatchObject({ fellBack: true, sources: [] });
    expect((await shop.keyApi.get('/v1/conversations/nope')).status).toBe(404);
    const other = await setupShop(env.server.url);
    expect((await other.keyApi.get('/v1/conversations/api-1')).status).toBe(404);

    const queue = await shop.keyApi.get('/v1/handoffs');
    expect(queue.body.data.map((c: { sessionId: string }) => c.sessionId)).toEqual([shop.widgetSession]);
    expect((await shop.keyApi.get('/v1/handoffs/count')).body.data).toEqual({ pending: 1 });
    // An agent's reply takes the conversation out of the queue.
    await shop.keyApi.post(`/v1/conversations/${shop.widgetSession}/messages`, { content: 'Hi, this is Dana from support.' });
    expect((await shop.keyApi.get('/v1/handoffs/count')).body.data).toEqual({ pending: 0 });
    expect((await shop.keyApi.get('/v1/handoffs')).body.data).toEqual([]);
  });
});

describe('assistant audit log', () => {
  it('records who changed which fields, in the transaction of the change', async () => {
    const shop = await setupShop(env.server.url);
    env.clock.set(Date.parse('2026-05-03T08:00:00Z'));
    await shop.api.patch(`/v1/assistants/${shop.assistantId}`, {
      systemPrompt: 'Be brief.',
      templates: [{ trigger: 'hi', match: 'exact', response: 'Hello' }],
    });
    await shop.api.patch(`/v1/assistants/${shop.assistantId}`, { systemPrompt: 'Be brief.' }); // no change: no entry
    const res = await shop.api.get(`/v1/assistants/${shop.assistantId}/audit`);
    expect(res.status).toBe(200);
    expect(res.body.pagination.total).toBe(2);
    expect(res.body.data[0]).toMatchObject({
      assistantId: shop.assistantId,
      userId: shop.user.id,
      userEmail: shop.email,
      action: 'updated',
      fields: ['systemPrompt', 'templates'],
      createdAt: '2026-05-03T08:00:00.000Z',
    });
    expect(res.body.data[1]).toMatchObject({ action: 'created', fields: expect.arrayContaining(['name', 'knowledgeBases', 'model']) });
    const extra = await shop.api.post('/v1/assistants', { type: 'api', name: 'Second' });
    await shop.api.del(`/v1/assistants/${extra.body.data.id}`);
    const org = await shop.api.get('/v1/audit?from=2026-05-03');
    expect(org.body.data.map((e: { action: string }) => e.action)).toEqual(['deleted', 'created', 'updated']);
    expect(
      (await shop.api.get(`/v1/audit?assistantId=${shop.assistantId}&to=2026-05-02`)).body.data.map((e: { action: string }) => e.action),
    ).toEqual(['created']);
    expect((await shop.api.get('/v1/audit?from=nope')).status).toBe(400);
    const other = await setupShop(env.server.url);
    expect((await other.api.get(`/v1/assistants/${shop.assistantId}/audit`)).status).toBe(404);
    expect((await other.api.get('/v1/audit')).body.data.map((e: { assistantId: string }) => e.assistantId)).not.toContain(shop.assistantId);
    // A deleted assistant keeps its log.
    const gone = await shop.api.get(`/v1/assistants/${extra.body.data.id}/audit`);
    expect(gone.status).toBe(200);
    expect(gone.body.data.map((e: { action: string }) => e.action)).toEqual(['deleted', 'created']);
  });
});
