import { describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { EXPORT_LINK_TTL_MS } from './export-links.js';
import { serverPerTest } from '../../test/server-per-test.js';

const env = serverPerTest('2026-05-01T10:00:00Z');

/** Five conversations: ann's two (one with a fallback), bob's one, two without a user. */
async function seed() {
  const shop = await setupShop(env.server.url);
  const turns: [string, string, string | null][] = [
    ['c1', 'How do I reset my password?', 'ann'],
    ['c2', 'How long does shipping take?', 'bob'],
    ['c3', 'Do you sell gift cards?', null],
    ['c4', 'Which football team won in 1998?', 'ann'],
    ['c5', 'How do I reset my password?', null],
  ];
  for (const [i, [sessionId, message, userId]] of turns.entries()) {
    env.clock.set(Date.parse('2026-05-01T10:00:00Z') + i * 600_000);
    await shop.api.post(shop.chatPath, { message, sessionId, ...(userId && { metadata: { userId } }) });
  }
  await shop.api.post(shop.chatPath, { message: 'And how long is the refund window?', sessionId: 'c4' });
  return shop;
}

/** A plain browser-like GET: no Authorization header, no cookie. */
const follow = (url: string) => fetch(url).then(async (res) => ({ status: res.status, headers: res.headers, text: await res.text() }));

describe('POST /v1/analytics/conversations/export-links + GET /v1/exports/:token', () => {
  it('gives a single-use link that streams exactly the filtered list, without any credential', async () => {
    const shop = await seed();
    const made = await shop.api.post('/v1/analytics/conversations/export-links', {
      format: 'jsonl',
      userId: 'ann',
      sort: 'startedAt',
      order: 'asc',
    });
    expect(made.status).toBe(201);
    expect(made.body.data.url).toMatch(new RegExp(`^${env.server.url}/v1/exports/exp_[A-Za-z0-9_-]{43}$`));
    expect(made.body.data.expiresAt).toBe(new Date(env.clock.now() + EXPORT_LINK_TTL_MS).toISOString());
    // Only the hash is stored.
    const token = (made.body.data.url as string).split('/').pop()!;
    expect(JSON.stringify(await env.server.ctx.storage.all('SELECT * FROM export_links'))).not.toContain(token);

    const file = await follow(made.body.data.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="parley-conversations-2026-05-01.jsonl"');
    expect(file.headers.get('cache-control')).toBe('no-store');
    const rows = file.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { sessionId: string; channel: string });
    const list = (await shop.api.get('/v1/analytics/conversations?userId=ann&sort=startedAt&order=asc')).body.data as {
      sessionId: string;
      messageCount: number;
    }[];
    expect(list.map((c) => c.sessionId)).toEqual(['c1', 'c4']);
    expect([...new Set(rows.map((r) => r.sessionId))]).toEqual(list.map((c) => c.sessionId));
    expect(rows).toHaveLength(list.reduce((n, c) => n + c.messageCount, 0));
    // Byte for byte what the authenticated export sends for the same filters.
    expect(file.text).toBe(
      (await shop.api.get('/v1/analytics/conversations/export?format=jsonl&userId=ann&sort=startedAt&order=asc')).text,
    );

    // Used once: the second visit is a 404.
    const again = await follow(made.body.data.url);
    expect(again.status).toBe(404);
    expect(JSON.parse(again.text).error.code).toBe('resource_not_found');
  });

  it('expires 60 s after it was made (the injected clock); CSV honours the other filters', async () => {
    const shop = await seed();
    const body = { format: 'csv', fellBack: 'true', from: '2026-05-01', to: '2026-05-01' };
    const late = await shop.api.post('/v1/analytics/conversations/export-links', body);
    const inTime = await shop.api.post('/v1/analytics/conversations/export-links', body);
    env.clock.advance(EXPORT_LINK_TTL_MS - 1);
    const ok = await follow(inTime.body.data.url);
    expect(ok.status).toBe(200);
    const lines = ok.text.trim().split('\r\n');
    expect(lines[0]).toBe('sessionId,assistantId,userId,source,messageId,role,content,timestamp,confidence,rating,channel');
    const listed = (await shop.api.get('/v1/analytics/conversations?fellBack=true&from=2026-05-01&to=2026-05-01')).body.data.map(
      (c: { sessionId: string }) => c.sessionId,
    );
    expect(listed.length).toBeGreaterThan(0);
    expect([...new Set(lines.slice(1).map((l) => l.split(',')[0]))]).toEqual(listed);
    env.clock.advance(1);
    expect((await follow(late.body.data.url)).status).toBe(404);
    expect((await follow(`${env.server.url}/v1/exports/exp_${'A'.repeat(43)}`)).status).toBe(404);
    expect((await follow(`${env.server.url}/api/v1/exports/nonsense`)).status).toBe(404);
  });

  it("is bound to the caller: a revoked key's or a removed member's link is a 404, another organization's filters never leak", async () => {
    const shop = await seed();
    const keyed = await shop.keyApi.post('/v1/analytics/conversations/export-links', { format: 'jsonl' });
    expect(keyed.status).toBe(201);
    const keyId = (
      await env.server.ctx.storage.get<{ id: string }>('SELECT api_key_id AS id FROM export_links WHERE api_key_id IS NOT NULL')
    )?.id as string;
    expect((await shop.api.del(`/v1/api-keys/${keyId}`)).status).toBe(200);
    expect((await follow(keyed.body.data.url)).status).toBe(404);
    // A member removed after making a link cannot use it.
    const invitation = await shop.api.post(`/v1/organizations/${shop.organization.id}/invitations`, { role: 'viewer' });
    const viewer = await client(env.server.url).post(`/v1/invitations/${invitation.body.data.token}/accept`, {
      email: 'vi@example.com',
      password: 'correct horse battery',
    });
    expect(viewer.status).toBe(201);
    const viewerApi = client(env.server.url, viewer.body.data.token as string);
    const kept = await viewerApi.post('/v1/analytics/conversations/export-links', { format: 'csv' });
    const dropped = await viewerApi.post('/v1/analytics/conversations/export-links', { format: 'csv' });
    expect((await follow(kept.body.data.url)).status).toBe(200);
    expect((await shop.api.del(`/v1/organizations/${shop.organization.id}/members/${viewer.body.data.user.id}`)).status).toBe(200);
    expect((await follow(dropped.body.data.url)).status).toBe(404);
    // Another organization's link exports its own (empty) list, never this shop's.
    const other = await setupShop(env.server.url);
    const theirs = await other.api.post('/v1/analytics/conversations/export-links', { format: 'jsonl' });
    expect((await follow(theirs.body.data.url)).text).toBe('');
  });

  it("validates the body like the list's query", async () => {
    const shop = await seed();
    const post = (body: unknown) => shop.api.post('/v1/analytics/conversations/export-links', body);
    expect((await post({ format: 'xlsx' })).body.error.message).toMatch(/^format: /);
    expect((await post({})).body.error.message).toMatch(/^format: /);
    expect((await post({ format: 'csv', channel: 'fax' })).body.error.message).toMatch(/^channel: /);
    expect((await post({ format: 'csv', from: '2026-02-30' })).status).toBe(400);
    expect((await post({ format: 'csv', page: 2 })).status).toBe(400);
    expect((await post({ format: 'csv', from: '2026-05-02', to: '2026-05-01' })).status).toBe(400);
  });
});
