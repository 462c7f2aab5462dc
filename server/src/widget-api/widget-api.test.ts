import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { createFakeClock, type FakeClock } from '../lib/clock.js';
import { WIDGET_LIMITS } from './routes.js';

const SITE = 'https://www.shop.example';
let server: TestServer;
let clock: FakeClock;
beforeEach(async () => {
  clock = createFakeClock(Date.parse('2026-06-01T08:00:00Z'));
  server = await startServer({ clock });
});
afterEach(async () => {
  await server.close();
});

async function widgetShop(overrides: Record<string, unknown> = {}) {
  const shop = await setupShop(server.url, {
    type: 'web',
    widget: { allowedOrigins: [SITE], theme: 'dark', position: 'bottom-left' },
    ...overrides,
  });
  const site = client(server.url);
  const h = { origin: SITE };
  return {
    ...shop,
    base: `/v1/widget/${shop.assistantId}`,
    wget: (p: string, headers: Record<string, string> = h) => site.get(`/v1/widget/${shop.assistantId}${p}`, { headers }),
    wpost: (p: string, body: unknown, headers: Record<string, string> = h) =>
      site.post(`/v1/widget/${shop.assistantId}${p}`, body, { headers }),
  };
}

describe('public widget API (API.md §10)', () => {
  it('serves the widget config to an allowed origin, with CORS for it alone', async () => {
    const w = await widgetShop({ fallback: { handoff: { enabled: true, email: 'help@shop.example' } } });
    const res = await w.wget('/config');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(res.headers.get('vary')).toMatch(/Origin/);
    expect(res.body.data).toEqual({
      appId: w.assistantId,
      name: 'Shop helper',
      avatarUrl: null,
      language: 'en',
      welcomeMessage: expect.any(String),
      theme: 'dark',
      colors: null,
      position: 'bottom-left',
      initialState: 'collapsed',
      iconUrl: null,
      collectFeedback: true,
      handoff: { enabled: true, message: expect.any(String), url: null, email: 'help@shop.example' },
      dir: 'ltr',
      strings: expect.objectContaining({ send: 'Send' }),
    });
  });

  it('refuses other origins with a clear 403, and requests without any origin', async () => {
    const w = await widgetShop();
    const evil = await w.wget('/config', { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.body.error).toEqual({ code: 'permission_denied', message: expect.stringContaining('https://evil.example') });
    const lookalike = await w.wget('/config', { origin: 'https://www.shop.example:8443' });
    expect(lookalike.status).toBe(403);
    expect((await w.wpost('/chat', { message: 'hi' }, { origin: 'http://www.shop.example' })).status).toBe(403);
    expect((await w.wget('/config', {})).status).toBe(403);
    const preflight = await fetch(`${server.url}${w.base}/chat`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
  });

  it('grants a refused origin nothing: no CORS header on the 403, preflight included (API.md §10)', async () => {
    const w = await widgetShop();
    const refused = [
      await fetch(`${server.url}${w.base}/config`, { headers: { origin: 'https://evil.example' } }),
      await fetch(`${server.url}${w.base}/chat`, {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        body: '{"message":"hi"}',
      }),
      await fetch(`${server.url}${w.base}/chat`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      for (const h of [
        'access-control-allow-origin',
        'access-control-allow-methods',
        'access-control-allow-headers',
        'access-control-allow-credentials',
        'access-control-max-age',
      ])
        expect(res.headers.get(h), h).toBeNull();
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('https://evil.example'); // says why, to whoever can read it
    }
    const allowed = await fetch(`${server.url}${w.base}/config`, { headers: { origin: SITE } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SITE);
  });

  it("always allows PUBLIC_URL's own origin (the demo page), also via Referer on same-origin GETs", async () => {
    const w = await widgetShop({ widget: { allowedOrigins: [] } });
    expect((await w.wget('/config', { origin: server.url })).status).toBe(200);
    expect((await w.wget('/config', { referer: `${server.url}/demo/` })).status).toBe(200);
    expect((await w.wget('/config', { origin: SITE })).status).toBe(403);
  });

  it('answers preflight requests for allowed origins', async () => {
    const w = await widgetShop();
    const res = await fetch(`${server.url}${w.base}/chat`, {
      method: 'OPTIONS',
      headers: { origin: SITE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Content-Type/i);
  });

  it('issues an unguessable session id, continues it, and reads history only with it', async () => {
    const w = await widgetShop();
    const first = await w.wpost('/chat', { message: 'How do I reset my password?' });
    expect(first.status).toBe(200);
    const d = first.body.data;
    expect(d).toMatchObject({
      response: expect.stringContaining('Reset password'),
      sessionId: expect.stringMatching(/^ws_[A-Za-z0-9]{32}$/),
      messageId: expect.any(String),
      fallback: false,
      suggestions: [],
      handoff: null,
    });
    const second = await w.wpost('/chat', { message: 'and how do I delete my account?', sessionId: d.sessionId });
    expect(second.body.data.sessionId).toBe(d.sessionId);
    const history = await w.wget(`/conversations/${d.sessionId}`);
    expect(history.status).toBe(200);
    expect(history.body.data.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(history.headers.get('cache-control')).toBe('no-store');
    // A made-up id is not adopted: the server issues a fresh one.
    const forged = await w.wpost('/chat', { message: 'hi', sessionId: 'ws_' + 'A'.repeat(32) });
    expect(forged.body.data.sessionId).not.toBe('ws_' + 'A'.repeat(32));
    expect((await w.wget(`/conversations/ws_${'B'.repeat(32)}`)).status).toBe(404);
    // API sessions are not readable through the widget, even with their id.
    await w.api.post(w.chatPath, { message: 'hi', sessionId: 'api-session-1' });
    expect((await w.wget('/conversations/api-session-1')).status).toBe(404);
  });

  it('offers suggestions and handoff on a fallback, and takes feedback and handoff requests', async () => {
    const w = await widgetShop({ fallback: { handoff: { enabled: true } } });
    const res = await w.wpost('/chat', { message: 'Do you sell gift cards for international orders?' });
    const d = res.body.data;
    expect(d.fallback).toBe(true);
    expect(d.handoff).toMatchObject({ enabled: true });
    expect(d.suggestions.length).toBeGreaterThan(0);
    expect(d.response).not.toContain('You could ask about');
    const fb = await w.wpost('/feedback', { sessionId: d.sessionId, messageId: d.messageId, rating: 'down' });
    expect(fb.status).toBe(200);
    expect((await w.wpost('/feedback', { sessionId: d.sessionId, messageId: d.messageId, rating: 'sideways' })).status).toBe(400);
    const handoff = await w.wpost('/handoff', { sessionId: d.sessionId, email: 'ann@example.com', note: 'please call' });
    expect(handoff.status).toBe(200);
    expect(handoff.body.data).toMatchObject({ requested: true, message: expect.any(String) });
    const conv = await w.api.get(`/v1/integrations/${w.assistantId}/conversations/${d.sessionId}`);
    expect(conv.body.data.metadata.handoff).toMatchObject({ email: 'ann@example.com', note: 'please call' });
    // The team's reply shows up in the widget's history.
    await w.api.post(`/v1/conversations/${d.sessionId}/messages`, { content: 'Hi Ann, Sam here.' });
    const history = await w.wget(`/conversations/${d.sessionId}`);
    expect(history.body.data.messages.at(-1)).toMatchObject({ role: 'human_agent', content: 'Hi Ann, Sam here.' });
    // Visitors see the replying member's display name, never a user or key id (issue 24).
    await w.api.patch('/v1/auth/me', { name: 'Sam' });
    await w.api.post(`/v1/conversations/${d.sessionId}/messages`, { content: 'Still here.' });
    const keyApi = client(
      server.url,
      (await w.api.post('/v1/api-keys', { name: 'bot', permissions: ['conversations:write'] })).body.data.key,
    );
    await keyApi.post(`/v1/conversations/${d.sessionId}/messages`, { content: 'From a key.' });
    const seen = await w.wget(`/conversations/${d.sessionId}`);
    expect(seen.body.data.messages.slice(-3).map((m: { metadata: { author?: unknown } }) => m.metadata.author)).toEqual([
      null,
      'Sam',
      null,
    ]);
    expect(seen.text).not.toMatch(/usr_|key_/);
    // The team's own API still says who it was.
    const team = await w.api.get(`/v1/integrations/${w.assistantId}/conversations/${d.sessionId}`);
    expect(team.text).toMatch(/usr_/);
  });

  it('refuses handoff when it is disabled', async () => {
    const w = await widgetShop();
    const chat = await w.wpost('/chat', { message: 'hello' });
    expect((await w.wpost('/handoff', { sessionId: chat.body.data.sessionId })).status).toBe(400);
  });

  it(`limits each client IP to ${WIDGET_LIMITS.perIpPerMinute} messages a minute`, async () => {
    const w = await widgetShop();
    for (let i = 0; i < WIDGET_LIMITS.perIpPerMinute; i++) expect((await w.wpost('/chat', { message: 'hello' })).status).toBe(200);
    const limited = await w.wpost('/chat', { message: 'hello' });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limit_exceeded');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    clock.advance(60_001);
    expect((await w.wpost('/chat', { message: 'hello' })).status).toBe(200);
  });

  it(`limits each session to ${WIDGET_LIMITS.perSessionPerDay} messages a day`, async () => {
    const w = await widgetShop();
    const sessionId = (await w.wpost('/chat', { message: 'hello' })).body.data.sessionId;
    for (let i = 1; i < WIDGET_LIMITS.perSessionPerDay; i++) {
      if (i % WIDGET_LIMITS.perIpPerMinute === 0) clock.advance(60_001);
      expect((await w.wpost('/chat', { message: 'hello', sessionId })).status).toBe(200);
    }
    clock.advance(60_001);
    const over = await w.wpost('/chat', { message: 'hello', sessionId });
    expect(over.status).toBe(429);
    expect(over.body.error.message).toMatch(/conversation/);
  });

  it('streams widget answers as SSE whose done event is the JSON body', async () => {
    const w = await widgetShop();
    const res = await fetch(`${server.url}${w.base}/chat`, {
      method: 'POST',
      headers: { origin: SITE, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'How long do refunds take?', stream: true }),
    });
    const text = await res.text();
    const done = JSON.parse(/event: done\ndata: (.*)/.exec(text)?.[1] ?? 'null');
    expect(done).toMatchObject({
      status: 'success',
      data: { response: expect.stringContaining('5 business days'), sessionId: expect.stringMatching(/^ws_/) },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
  });

  it('answers 404 for unknown assistants', async () => {
    const res = await client(server.url).get('/v1/widget/asst_nope/config', { headers: { origin: SITE } });
    expect(res.status).toBe(404);
  });
});

describe('GET /js/widget.js', () => {
  it('serves the built file with caching headers and revalidation', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-widget-'));
    const file = path.join(dir, 'widget.js');
    fs.writeFileSync(file, 'console.log("widget")');
    const s = await startServer({ widgetFile: file });
    try {
      const res = await fetch(`${s.url}/js/widget.js`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      const etag = res.headers.get('etag');
      expect(etag).toBeTruthy();
      expect(await res.text()).toBe('console.log("widget")');
      // node:http, not fetch: fetch adds Cache-Control: no-cache to conditional requests.
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get(`${s.url}/js/widget.js`, { headers: { 'if-none-match': etag ?? '' } }, (r) => {
            r.resume();
            resolve(r.statusCode ?? 0);
          })
          .on('error', reject);
      });
      expect(status).toBe(304);
    } finally {
      await s.close();
    }
  });
});
