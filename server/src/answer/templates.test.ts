import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
beforeAll(async () => { server = await startServer(); });
afterAll(async () => { await server.close(); });

describe('regex templates run in linear time (RE2)', () => {
  it('a catastrophic-backtracking pattern answers at once and /healthz keeps answering', async () => {
    const shop = await setupShop(server.url, { templates: [{ trigger: '^(a|a)+$', match: 'regex', response: 'all a' }, { trigger: '(x+x+)+y', match: 'regex', response: 'xy' }] });
    const hostile = `${'a'.repeat(34)}!`; // 2^34 backtracking paths for a RegExp: minutes of frozen event loop
    const t0 = performance.now();
    const chat = shop.api.post(shop.chatPath, { message: hostile });
    const health = await client(server.url).get('/healthz');
    const healthMs = performance.now() - t0;
    const res = await chat;
    const chatMs = performance.now() - t0;
    expect(health.status).toBe(200);
    expect(res.status).toBe(200);
    expect(res.body.response).not.toBe('all a');
    expect(chatMs).toBeLessThan(2_000);
    expect(healthMs).toBeLessThan(2_000);
    const long = await shop.api.post(shop.chatPath, { message: `${'x'.repeat(3_900)}z` });
    expect(long.status).toBe(200);
    expect(performance.now() - t0).toBeLessThan(4_000);
  });

  it('still matches as before: case-insensitive, unanchored, Unicode', async () => {
    const shop = await setupShop(server.url, { templates: [
      { trigger: '^(hi|hello)\\b', match: 'regex', response: 'greeting' },
      { trigger: 'CAFÉ\\s+\\d+', match: 'regex', response: 'cafe' },
      { trigger: '^(a|a)+$', match: 'regex', response: 'all a' },
    ] });
    expect((await shop.api.post(shop.chatPath, { message: 'Hello there' })).body.response).toBe('greeting');
    expect((await shop.api.post(shop.chatPath, { message: 'un café 12 svp' })).body.response).toBe('cafe');
    expect((await shop.api.post(shop.chatPath, { message: 'AAAA' })).body.response).toBe('all a');
    expect((await shop.api.post(shop.chatPath, { message: 'hellothere' })).body.response).not.toBe('greeting');
  });

  it('refuses, when saved, patterns RE2 cannot run (backreferences, lookaround) naming templates.N.trigger', async () => {
    const shop = await setupShop(server.url);
    for (const trigger of ['(a)\\1', '(?=refund)\\w+', '(?<!no )refund', '(']) {
      const res = await shop.api.patch(`/v1/assistants/${shop.assistantId}`, { templates: [{ trigger: 'hi', response: 'x' }, { trigger, match: 'regex', response: 'r' }] });
      expect(res.status, trigger).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message, trigger).toMatch(/^templates\.1\.trigger: is not a regular expression RE2 accepts \(backreferences and lookaround are not supported\): /);
    }
  });
});
