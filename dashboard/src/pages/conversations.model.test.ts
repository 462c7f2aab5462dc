import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestServer, type Server } from '../../e2e/support.js';
import { conversationFiltersToQuery, parseConversationFilters, type ConversationFilters } from './analytics-query.js';
import { writeTraffic, type Traffic } from './analytics.traffic.js';
import { createConversationsModel, PAGE_SIZE } from './conversations.model.js';

// The conversations list model against a real server: each filter narrows to what the traffic
// wrote, sorting and paging follow the URL, and the export holds exactly the filtered set.

let server: Server;
let traffic: Traffic;
beforeAll(async () => {
  server = await startTestServer();
  await server.ctx.storage.run("UPDATE organizations SET plan = 'enterprise'");
  traffic = await writeTraffic(server);
});
afterAll(async () => {
  await server?.close();
});

const base = parseConversationFilters({});
async function listed(f: Partial<ConversationFilters>): Promise<string[]> {
  const m = createConversationsModel(clientFor(server));
  await m.apply({ ...base, ...f });
  expect(m.list.error.value).toBeNull();
  return m.list.data.value!.items.map((c) => c.sessionId);
}

describe('conversations model', () => {
  it('filters by channel, user, rating, fallback, handoff and content', async () => {
    expect((await listed({})).sort()).toEqual([...traffic.all].sort());
    expect(await listed({ channels: ['slack'] })).toEqual([traffic.slack]);
    expect(await listed({ channels: ['playground'] })).toEqual([traffic.playground]);
    expect(await listed({ userId: 'ann' })).toEqual([traffic.api]);
    expect(await listed({ rating: 'down' })).toEqual([traffic.rated]);
    expect((await listed({ fellBack: 'true' })).sort()).toEqual([traffic.fellBack, traffic.widget].sort());
    expect(await listed({ handoff: 'true' })).toEqual([traffic.widget]);
    expect(await listed({ q: 'embed the chat widget' })).toEqual([traffic.api]);
    expect(await listed({ range: 'custom', from: '2020-01-01', to: '2020-01-31' })).toEqual([]);
  });

  it('sorts by message count both ways and pages', async () => {
    const desc = await listed({ sort: 'messageCount', order: 'desc' });
    expect(desc[0]).toBe(traffic.api); // the only conversation with two turns
    const asc = await listed({ sort: 'messageCount', order: 'asc' });
    expect(asc.at(-1)).toBe(traffic.api);
    const m = createConversationsModel(clientFor(server));
    await m.apply({ ...base, page: 2 });
    expect(m.list.data.value).toMatchObject({ page: 2, limit: PAGE_SIZE, items: [] });
  });

  it('keeps every filter in the URL query and reads it back', () => {
    const f: ConversationFilters = {
      ...base,
      range: 'custom',
      from: '2026-01-01',
      to: '2026-01-31',
      assistantId: 'asst_1',
      channels: ['widget', 'slack'],
      userId: 'ann',
      rating: 'down',
      fellBack: 'true',
      handoff: 'false',
      q: 'refund',
      sort: 'messageCount',
      order: 'asc',
      page: 3,
    };
    const q = conversationFiltersToQuery(f);
    expect(q).toMatchObject({ channel: 'widget,slack', rating: 'down', sort: 'messageCount', order: 'asc', page: '3' });
    expect(parseConversationFilters(q)).toEqual(f);
    expect(conversationFiltersToQuery(base)).toEqual(
      Object.fromEntries(Object.keys(conversationFiltersToQuery(base)).map((k) => [k, undefined])),
    );
  });

  it('exports exactly the filtered conversations as JSONL and CSV', async () => {
    const m = createConversationsModel(clientFor(server));
    await m.apply({ ...base, fellBack: 'true' });
    const ids = m.list.data.value!.items.map((c) => c.sessionId);
    const messages = m.list.data.value!.items.reduce((n, c) => n + c.messageCount, 0);

    // A one-time link, followed with no cookie and no header (as the browser's download does).
    const jsonlLink = await m.exportAs('jsonl');
    expect(m.exporting.error.value).toBeNull();
    expect(jsonlLink!.url).toMatch(/\/v1\/exports\/exp_/);
    const jsonl = await fetch(jsonlLink!.url);
    expect(jsonl.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.jsonl"$/);
    const rows = (await jsonl.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { sessionId: string });
    expect([...new Set(rows.map((r) => r.sessionId))]).toEqual(ids);
    expect(rows.length).toBe(messages);
    expect((await fetch(jsonlLink!.url)).status).toBe(404); // single use

    const csv = await fetch((await m.exportAs('csv'))!.url);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]!.split(',')[0]).toBe('sessionId');
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0]))).toEqual(new Set(ids));
  });
});
