import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestServer, type Server } from '../../e2e/support.js';
import { bucketRange, parseConversationFilters, parseDateFilters, windowOf, type DateFilters } from './analytics-query.js';
import { changeOf, createAnalyticsModel, metricCards, type MetricCard } from './analytics.model.js';
import { createConversationsModel } from './conversations.model.js';
import { writeTraffic, type Traffic } from './analytics.traffic.js';

// The analytics page model against a real server with traffic written through the chat paths:
// cards, series and markers agree with what was written; a chart bucket's link lands on a list
// holding exactly that bucket's conversations.

let server: Server;
let traffic: Traffic;
beforeAll(async () => {
  server = await startTestServer();
  // Each filter change reads nine routes; a test makes more calls a minute than the free plan allows.
  await server.ctx.storage.run("UPDATE organizations SET plan = 'enterprise'");
  traffic = await writeTraffic(server);
});
afterAll(async () => {
  await server?.close();
});

const week = parseDateFilters({}, '7d');

describe('analytics model', () => {
  it('counts what was written, without the playground unless asked', async () => {
    const m = createAnalyticsModel(clientFor(server));
    await m.apply(week);
    expect(m.metrics.error.value).toBeNull();
    const metrics = m.metrics.data.value!;
    expect(metrics.totalConversations).toBe(traffic.all.length);
    expect(metrics.handoffs).toBe(1);
    expect(metrics.satisfaction).toMatchObject({ up: 0, down: 1 });
    expect(metrics.previous).toMatchObject({ totalConversations: 0 });
    const cards = Object.fromEntries(m.cards.value.map((c) => [c.key, c]));
    expect(cards.conversations!.value).toBe(traffic.all.length);
    expect(changeOf(cards.conversations!)).toEqual({ text: 'new', tone: 'neutral' });

    await m.apply({ ...week, channels: [...week.channels, 'playground'] });
    expect(m.metrics.data.value!.totalConversations).toBe(traffic.all.length + 1);
    await m.apply({ ...week, channels: ['slack'] });
    expect(m.metrics.data.value!.totalConversations).toBe(1);
  });

  it('draws every chart with one point per bucket, summing to the cards', async () => {
    const m = createAnalyticsModel(clientFor(server));
    await m.apply(week);
    expect(m.charts.error.value).toBeNull();
    expect(m.interval.value).toBe('day');
    const charts = m.charts.data.value!;
    expect(charts.map((c) => c.def.id)).toEqual(['volume', 'satisfaction', 'coverage', 'response']);
    const volume = charts[0]!.points;
    expect(volume.conversations!.length).toBeGreaterThanOrEqual(7);
    expect(volume.conversations!.reduce((n, p) => n + (p.value ?? 0), 0)).toBe(traffic.all.length);
    expect(volume.messages!.reduce((n, p) => n + (p.value ?? 0), 0)).toBe(m.metrics.data.value!.totalMessages);
    const p95 = charts[3]!.points.response_ms_p95!.filter((p) => p.value !== null);
    expect(p95.length).toBeGreaterThan(0);

    await m.apply(parseDateFilters({ range: 'today' }, '7d'));
    expect(m.interval.value).toBe('hour');
  });

  it('links a chart bucket to the conversations list holding exactly that bucket', async () => {
    const m = createAnalyticsModel(clientFor(server));
    await m.apply(week);
    const points = m.charts.data.value![0]!.points.conversations!;
    const busy = points.find((p) => (p.value ?? 0) > 0)!;
    const link = new URL(m.bucketLink(busy.t), 'http://x');
    expect(link.pathname).toBe('/dashboard/conversations');
    const query = Object.fromEntries(link.searchParams);
    expect(query).toMatchObject({ range: 'custom', ...bucketRange(busy.t, 'day') });
    const list = createConversationsModel(clientFor(server));
    await list.apply(parseConversationFilters(query));
    expect(list.list.error.value).toBeNull();
    expect(list.list.data.value!.total).toBe(busy.value);
  });

  it('shows assistant configuration changes as markers, with who and which fields', async () => {
    const api = clientFor(server);
    await api.patch(`/assistants/${server.assistantId}`, { systemPrompt: 'You are the Parley demo helper. Be brief.' });
    const m = createAnalyticsModel(api);
    await m.apply(week);
    expect(m.audit.error.value).toBeNull();
    const change = m.audit.data.value!.find((e) => e.action === 'updated');
    expect(change).toMatchObject({ assistantId: server.assistantId });
    expect(change!.fields.length).toBeGreaterThan(0);
  });

  it("reports the server's message for a bad custom range", async () => {
    const m = createAnalyticsModel(clientFor(server));
    const bad: DateFilters = { ...week, range: 'custom', from: '2026-02-30', to: '' };
    await m.apply(bad);
    expect(m.metrics.error.value?.kind).toBe('validation');
    expect(m.metrics.error.value?.message).toMatch(/from/);
  });
});

describe('analytics filters and changes', () => {
  const card = (
    value: number | null,
    previous: number | null,
    format: MetricCard['format'] = 'count',
    higherIsBetter: boolean | null = true,
  ): MetricCard => ({ key: 'k', label: 'K', value, previous, format, higherIsBetter });
  it('gives the change in % for counts and in points for ratios, coloured by what good means', () => {
    expect(changeOf(card(120, 100))).toEqual({ text: '+20 %', tone: 'good' });
    expect(changeOf(card(80, 100, 'ms', false))).toEqual({ text: '−20 %', tone: 'good' });
    expect(changeOf(card(0.75, 0.8, 'ratio'))).toEqual({ text: '−5 pts', tone: 'bad' });
    expect(changeOf(card(5, null))).toBeNull();
    expect(
      metricCards({
        totalConversations: 1,
        totalMessages: 2,
        avgConversationLength: 2,
        avgResponseMs: 3,
        p95ResponseMs: 4,
        satisfaction: { up: 1, down: 0, rate: 1 },
        knowledgeBaseCoverage: 1,
        unansweredCount: 0,
        handoffs: 0,
        previous: null,
      }).map((c) => c.key),
    ).toEqual([
      'conversations',
      'messages',
      'avgLength',
      'avgResponse',
      'p95Response',
      'up',
      'down',
      'satisfaction',
      'coverage',
      'unanswered',
      'handoffs',
    ]);
  });
  it('reads presets as a window ending now and keeps custom dates as typed', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(windowOf(parseDateFilters({ range: '30d' }, '7d'), now)).toEqual({
      from: '2026-02-08T12:00:00.000Z',
      to: '2026-03-10T12:00:00.000Z',
    });
    expect(windowOf(parseDateFilters({ from: '2026-01-01', to: '2026-01-31' }, '7d'), now)).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(parseDateFilters({ channel: 'slack,nope,widget' }, '7d').channels).toEqual(['widget', 'slack']);
    expect(parseDateFilters({}, '7d').channels).not.toContain('playground');
  });
});
