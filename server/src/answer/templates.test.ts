import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { addMemberWithRole } from '../../test/members.js';
import type { Template } from '../assistants/schemas.js';
import { MAX_MATCH_CHARS, matchTemplate } from './templates.js';
import { startServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('regex templates run in linear time (RE2)', () => {
  it('a catastrophic-backtracking pattern answers at once and /healthz keeps answering', async () => {
    const shop = await setupShop(server.url, {
      templates: [
        { trigger: '^(a|a)+$', match: 'regex', response: 'all a' },
        { trigger: '(x+x+)+y', match: 'regex', response: 'xy' },
      ],
    });
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
    const shop = await setupShop(server.url, {
      templates: [
        { trigger: '^(hi|hello)\\b', match: 'regex', response: 'greeting' },
        { trigger: 'CAFÉ\\s+\\d+', match: 'regex', response: 'cafe' },
        { trigger: '^(a|a)+$', match: 'regex', response: 'all a' },
      ],
    });
    expect((await shop.api.post(shop.chatPath, { message: 'Hello there' })).body.response).toBe('greeting');
    expect((await shop.api.post(shop.chatPath, { message: 'un café 12 svp' })).body.response).toBe('cafe');
    expect((await shop.api.post(shop.chatPath, { message: 'AAAA' })).body.response).toBe('all a');
    expect((await shop.api.post(shop.chatPath, { message: 'hellothere' })).body.response).not.toBe('greeting');
  });

  it('refuses, when saved, patterns RE2 cannot run (backreferences, lookaround) naming templates.N.trigger', async () => {
    const shop = await setupShop(server.url);
    for (const trigger of ['(a)\\1', '(?=refund)\\w+', '(?<!no )refund', '(']) {
      const res = await shop.api.patch(`/v1/assistants/${shop.assistantId}`, {
        templates: [
          { trigger: 'hi', response: 'x' },
          { trigger, match: 'regex', response: 'r' },
        ],
      });
      expect(res.status, trigger).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message, trigger).toMatch(
        /^templates\.1\.trigger: is not a regular expression RE2 accepts \(backreferences and lookaround are not supported\): /,
      );
    }
  });
});

describe('template matching has a bounded cost (issue 24)', () => {
  const costly = [
    // A thousand-wide counted repetition: 130-600 ms of blocking CPU on its first 4,000-character message.
    {
      trigger: '[^b]{1,1000}b<1>',
      reason: /^templates\.0\.trigger: repeats too much: its counted repetitions \(\{n,m\}\) add up to 1000, at most 100/,
    },
    { trigger: 'a{1,60}b{1,60}', reason: /^templates\.0\.trigger: repeats too much: .* add up to 120, at most 100/ },
    // Nested repetitions within the total still multiply out: refused by program size.
    {
      trigger: '(?:(?:(?:a{1,9}){1,9}){1,9})',
      reason: /^templates\.0\.trigger: is too complex: it compiles to \d+ instructions, at most 600/,
    },
  ];

  it('refuses a costly pattern when saved and when tested, naming templates.N.trigger', async () => {
    const shop = await setupShop(server.url);
    const testPath = `/v1/assistants/${shop.assistantId}/templates/test`;
    for (const { trigger, reason } of costly) {
      const saved = await shop.api.patch(`/v1/assistants/${shop.assistantId}`, { templates: [{ trigger, match: 'regex', response: 'r' }] });
      expect(saved.status, trigger).toBe(400);
      expect(saved.body.error.message, trigger).toMatch(reason);
      const tested = await shop.api.post(testPath, { message: 'a'.repeat(4000), templates: [{ trigger, match: 'regex', response: 'r' }] });
      expect(tested.status, trigger).toBe(400);
      expect(tested.body.error.message, trigger).toMatch(reason);
    }
    // Within the bounds, and escaped or bracketed braces are literals, not repetitions.
    const fine = await shop.api.patch(`/v1/assistants/${shop.assistantId}`, {
      templates: [
        { trigger: '\\b(order|shipment)\\s*#?\\d{5,10}\\b', match: 'regex', response: 'order' },
        { trigger: '\\{1000\\}|[{]1000}|\\Q{1000}\\E', match: 'regex', response: 'braces' },
      ],
    });
    expect(fine.status, fine.text).toBe(200);
    expect((await shop.api.post(testPath, { message: 'where is order #123456?' })).body.data.match.response).toBe('order');
    expect((await shop.api.post(testPath, { message: 'x{1000}' })).body.data.match.response).toBe('braces');
  });

  it(`reads the first ${MAX_MATCH_CHARS} characters of a message`, async () => {
    const shop = await setupShop(server.url, {
      templates: [
        { trigger: 'zzz$', match: 'regex', response: 'tail regex' },
        { trigger: 'needle', match: 'contains', response: 'tail contains' },
      ],
    });
    const early = await shop.api.post(shop.chatPath, { message: `${'a '.repeat(100)}needle` });
    expect(early.body.response).toBe('tail contains');
    const late = `${'a'.repeat(MAX_MATCH_CHARS)} needle zzz`;
    const res = await shop.api.post(shop.chatPath, { message: late });
    expect(res.status).toBe(200);
    expect(res.body.response).not.toMatch(/^tail/);
  });

  it('testing needs the right to edit templates: a viewer and a read-only key are refused, an editor may', async () => {
    const shop = await setupShop(server.url, { templates: [{ trigger: 'hours', match: 'contains', response: 'Nine to five.' }] });
    const testPath = `/v1/assistants/${shop.assistantId}/templates/test`;
    const viewer = await addMemberWithRole(server.url, shop.api, shop.organization.id, 'viewer');
    const editor = await addMemberWithRole(server.url, shop.api, shop.organization.id, 'editor');
    const refused = await viewer.api.post(testPath, { message: 'hours?' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/assistants:write/);
    expect((await shop.keyApi.post(testPath, { message: 'hours?' })).status).toBe(403); // assistants:read only
    expect((await editor.api.post(testPath, { message: 'hours?' })).body.data.match.response).toBe('Nine to five.');
  });
});

describe('matchTemplate budget', () => {
  it('skips the remaining templates once the regex budget is spent, and says how many', () => {
    let t = 0;
    const now = () => (t += 4); // each regex test "takes" 4 ms
    const templates: Template[] = [
      ...Array.from({ length: 5 }, (_, i) => ({ trigger: `nomatch${i}`, match: 'regex' as const, response: `r${i}` })),
      { trigger: 'hello', match: 'contains', response: 'late' },
    ];
    const skipped: number[] = [];
    expect(matchTemplate(templates, 'hello', { budgetMs: 10, now, onBudgetSpent: (n) => skipped.push(n) })).toBeNull();
    expect(skipped).toEqual([3]); // 3 regex tests spent 12 ms >= 10: templates 4, 5 and 6 are skipped
    expect(matchTemplate(templates, 'hello', { budgetMs: 1000, now })?.response).toBe('late');
  });
});
