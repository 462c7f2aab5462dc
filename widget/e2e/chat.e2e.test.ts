import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SHOTS,
  api,
  hostPage,
  launchBrowser,
  newPage,
  patchAssistant,
  sel,
  startHostSite,
  startSlowProxy,
  startTestServer,
  type Server,
} from './support.js';

// The chat flows on the demo page and a bare host page, against a real server.

let server: Server;
let browser: Browser;
let site: Awaited<ReturnType<typeof startHostSite>>;

beforeAll(async () => {
  [server, browser, site] = await Promise.all([startTestServer(), launchBrowser(), startHostSite()]);
  // The customer's site embeds the widget from another origin, as in production.
  await patchAssistant(server, { widget: { allowedOrigins: [site.origin] } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await server?.close();
});

/** The element focused inside the widget's shadow root, as a data-parley hook. */
const focusedHook = (page: Page) =>
  page.evaluate(() => (document.querySelector('parley-widget')?.shadowRoot?.activeElement as HTMLElement | null)?.dataset.parley ?? null);

async function ask(page: Page, question: string): Promise<void> {
  await page.locator(sel('input')).fill(question);
  await page.locator(sel('input')).press('Enter');
}

/** Text without markdown punctuation and whitespace, to compare source and rendering. */
const flat = (t: string) => t.replace(/[`*\s]+/g, '');

const assistantMessages = (page: Page) => page.locator(`${sel('message')}[data-role="assistant"]`);

describe('widget on the demo page', () => {
  it('opens focused, answers with sources, records feedback, and restores it all after a reload', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto(`${server.url}/demo/`);
    const launcher = page.locator(sel('launcher'));
    await launcher.waitFor();
    await expect(page.locator(sel('panel')).count()).resolves.toBe(0); // collapsed by default
    await page.screenshot({ path: `${SHOTS}/demo-collapsed.png` });

    await launcher.click();
    await page.locator(sel('panel')).waitFor();
    await expect.poll(() => focusedHook(page)).toBe('input');
    await expect(page.locator(sel('welcome')).textContent()).resolves.toContain('Parley Guide');
    await expect.poll(() => page.locator('[aria-live="polite"]').count()).toBe(1);

    await ask(page, 'How do I embed the widget on my site?');
    await expect(page.locator(`${sel('message')}[data-role="user"]`).textContent()).resolves.toBe('How do I embed the widget on my site?');
    const answer = assistantMessages(page).last();
    await answer.locator(sel('feedback-up')).waitFor();
    const final = (await answer.locator('.bubble').textContent())!;
    expect(final.length).toBeGreaterThan(40);

    const sources = answer.locator(sel('source'));
    expect(await sources.count()).toBeGreaterThan(0);
    const href = await sources.first().getAttribute('href');
    expect(href).toMatch(new RegExp(`^${server.url}/demo/docs/`));
    expect(await sources.first().getAttribute('target')).toBe('_blank');
    expect(await sources.first().getAttribute('rel')).toBe('noopener noreferrer');
    await page.screenshot({ path: `${SHOTS}/demo-answer.png` });

    const sessionId = await page.evaluate((id) => localStorage.getItem(`parley:${id}:session`), server.assistantId);
    expect(sessionId).toMatch(/^ws_[A-Za-z0-9]{32}$/);

    const feedback = page.waitForResponse((r) => r.url().endsWith('/feedback'));
    await answer.locator(sel('feedback-up')).click();
    const res = await feedback;
    expect(res.status()).toBe(200);
    expect(JSON.parse(res.request().postData()!)).toMatchObject({ sessionId, rating: 'up' });
    await expect(answer.locator(sel('feedback-up')).getAttribute('aria-pressed')).resolves.toBe('true');

    // The server has the whole conversation under the id the widget keeps.
    const stored: Array<{ role: string; content: string }> = await api(server, 'GET', `/v1/conversations/${sessionId}/messages`);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(flat(stored[1]!.content)).toBe(flat(final)); // markdown source vs rendered text

    await page.reload();
    await page.locator(sel('launcher')).click();
    await assistantMessages(page).first().waitFor();
    await expect.poll(() => page.locator(sel('message')).count()).toBe(2);
    await expect(assistantMessages(page).first().locator('.bubble').textContent()).resolves.toBe(final);
    expect(await assistantMessages(page).first().locator(sel('source')).count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/demo-restored.png` });

    // A follow-up continues the same server conversation.
    await ask(page, 'And how do I create an API key?');
    await assistantMessages(page).nth(1).locator(sel('feedback-up')).waitFor();
    expect(await page.evaluate((id) => localStorage.getItem(`parley:${id}:session`), server.assistantId)).toBe(sessionId);

    await page.locator(sel('new-conversation')).click();
    await expect.poll(() => page.locator(sel('message')).count()).toBe(0);
    await expect.poll(() => page.evaluate((id) => localStorage.getItem(`parley:${id}:session`), server.assistantId)).toBeNull();
    await expect.poll(() => focusedHook(page)).toBe('input');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});

describe('widget on a bare host page', () => {
  it('renders the answer while it streams in (API reached through data-api-url and a slow link)', async () => {
    const proxy = await startSlowProxy(server.url);
    const { context, page, errors } = await newPage(browser);
    await page.goto(site.serve('/slow', hostPage(server, { apiUrl: proxy.url })));
    await page.locator(sel('launcher')).click();
    // Record what the visitor sees in the newest answer bubble after every DOM change.
    await page.evaluate(() => {
      const root = document.querySelector('parley-widget')!.shadowRoot!;
      const seen: string[] = ((window as any).__seen = []);
      new MutationObserver(() => {
        const bubbles = root.querySelectorAll('[data-parley="message"][data-role="assistant"] .bubble');
        const text = bubbles[bubbles.length - 1]?.textContent ?? '';
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(root, { subtree: true, childList: true, characterData: true });
    });
    const chat = page.waitForRequest((r) => r.url().startsWith(`${proxy.url}/v1/widget/`) && r.url().endsWith('/chat'));
    await ask(page, 'How do I embed the widget on my site?');
    await chat;
    const answer = assistantMessages(page).last();
    // Mid-stream: text is showing, the turn is not finished (no feedback buttons yet), and the
    // live region is marked busy so screen readers wait for the whole answer.
    await answer.locator('.bubble:not(:empty)').waitFor();
    expect(await answer.locator(sel('feedback-up')).count()).toBe(0);
    await expect(page.locator('[aria-live="polite"]').getAttribute('aria-busy')).resolves.toBe('true');
    await page.screenshot({ path: `${SHOTS}/streaming.png` });
    await answer.locator(sel('feedback-up')).waitFor({ timeout: 20_000 });
    await expect(page.locator('[aria-live="polite"]').getAttribute('aria-busy')).resolves.toBe('false');

    const final = (await answer.locator('.bubble').textContent())!;
    const seen: string[] = await page.evaluate(() => (window as any).__seen);
    expect(seen.length, `renders: ${seen.length}`).toBeGreaterThanOrEqual(5);
    // Each partial render is a growing prefix of the final answer (markdown aside).
    for (let i = 1; i < seen.length; i++) expect(flat(seen[i]!).length).toBeGreaterThanOrEqual(flat(seen[i - 1]!).length);
    expect(flat(final).startsWith(flat(seen[0]!).slice(0, 30))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
    await proxy.close();
  }, 60_000);

  it('works with the keyboard alone: Tab, Enter, type, Enter, Escape returns focus to the launcher', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto(site.serve('/', hostPage(server)));
    await page.locator(sel('launcher')).waitFor();

    await page.keyboard.press('Tab');
    await expect.poll(() => focusedHook(page)).toBe('launcher');
    await expect(page.locator(sel('launcher')).getAttribute('aria-expanded')).resolves.toBe('false');
    await page.keyboard.press('Enter');
    await page.locator(sel('panel')).waitFor();
    await expect.poll(() => focusedHook(page)).toBe('input');
    await expect(page.locator(sel('launcher')).getAttribute('aria-expanded')).resolves.toBe('true');

    await page.keyboard.type('How do I create an API key?');
    await page.keyboard.press('Enter');
    await assistantMessages(page).first().locator(sel('feedback-down')).waitFor();

    // Tab order inside the panel reaches the answer's controls.
    const order: Array<string | null> = [];
    await page.locator(sel('close')).focus();
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      order.push(await focusedHook(page));
    }
    expect(order).toEqual(expect.arrayContaining(['source', 'feedback-up', 'feedback-down', 'input']));

    // Escape from anywhere inside the panel closes it.
    await page.locator(sel('feedback-down')).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator(sel('panel')).count()).toBe(0);
    await expect.poll(() => focusedHook(page)).toBe('launcher');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('offers fallback suggestions as chips and hands off to a human whose reply appears', async () => {
    // A half-confident answer (about 0.43 here) falls below this threshold: the fallback then
    // offers related topics from the retrieved passages, and a human.
    await api(server, 'PATCH', `/v1/assistants/${server.assistantId}`, { confidenceThreshold: 0.6 });
    const { context, page, errors } = await newPage(browser);
    try {
      await page.goto(site.serve('/', hostPage(server)));
      await page.locator(sel('launcher')).click();

      await ask(page, 'How do webhooks retry?');
      await assistantMessages(page).last().locator('.bubble:not(:empty)').waitFor();
      await page.locator(sel('handoff')).waitFor();
      const chips = page.locator(sel('suggestion'));
      await chips.first().waitFor();
      expect(await chips.count()).toBeGreaterThan(0);
      await page.screenshot({ path: `${SHOTS}/fallback.png` });

      // A chip sends its own text as the next question, and the chips go away.
      const text = (await chips.first().textContent())!;
      await chips.first().click();
      await expect
        .poll(() =>
          page
            .locator(`${sel('message')}[data-role="user"]`)
            .last()
            .textContent(),
        )
        .toBe(text);
      await assistantMessages(page).nth(1).locator('.bubble:not(:empty)').waitFor();

      const handoff = page.waitForResponse((r) => r.url().endsWith('/handoff'));
      await page.locator(sel('handoff')).click();
      expect((await handoff).status()).toBe(200);
      await page.locator(sel('handoff-notice')).waitFor();
      await expect.poll(() => page.locator(sel('handoff')).count()).toBe(0);
      const confirmation = (await page.locator(`${sel('handoff-notice')} span`).textContent())!;
      expect(confirmation.length).toBeGreaterThan(5);

      // A support agent answers through the API; the widget polls (every ~10 s) and shows it.
      const sessionId = await page.evaluate((id) => localStorage.getItem(`parley:${id}:session`), server.assistantId);
      await api(server, 'POST', `/v1/conversations/${sessionId}/messages`, {
        content: 'Hi, this is **Sam** from support. How can I help?',
      });
      const agent = page.locator(`${sel('message')}[data-role="human_agent"]`);
      await agent.waitFor({ timeout: 15_000 });
      await expect(agent.locator('strong').textContent()).resolves.toBe('Sam');
      await page.screenshot({ path: `${SHOTS}/handoff.png` });

      // After a reload the agent's reply is part of the restored history, still marked as theirs.
      await page.reload();
      await page.locator(sel('launcher')).click();
      await agent.waitFor();
      await expect(page.locator(`${sel('handoff-notice')} span`).textContent()).resolves.toBe(confirmation);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await api(server, 'PATCH', `/v1/assistants/${server.assistantId}`, { confidenceThreshold: 0.35 });
    }
  }, 60_000);

  it('shows a friendly line with a retry for 429, 5xx and offline, never raw JSON', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(site.serve('/', hostPage(server)));
    await page.locator(sel('launcher')).click();

    const failures = [
      {
        status: 429,
        body: { status: 'error', error: { code: 'rate_limit_exceeded', message: 'Too many messages from your network' } },
        says: /too many messages/i,
      },
      {
        status: 500,
        body: { status: 'error', error: { code: 'server_error', message: 'Internal server error' } },
        says: /something went wrong/i,
      },
      { status: 502, body: '<html><body>Bad Gateway</body></html>', says: /something went wrong/i },
    ];
    let i = 0;
    for (const f of failures) {
      let failed = false;
      await page.route('**/v1/widget/*/chat', (route) => {
        if (failed) return route.fallback();
        failed = true;
        return route.fulfill({
          status: f.status,
          contentType: typeof f.body === 'string' ? 'text/html' : 'application/json',
          body: typeof f.body === 'string' ? f.body : JSON.stringify(f.body),
        });
      });
      await ask(page, `How do I connect Slack? (${i})`);
      const error = page.locator(sel('error'));
      await error.waitFor();
      const text = (await error.textContent())!;
      expect(text).toMatch(f.says);
      expect(text).not.toMatch(/[{}<>]|rate_limit_exceeded|server_error|\b50\d\b|429/);
      if (f.status === 429) await page.screenshot({ path: `${SHOTS}/error-429.png` });
      await page.locator(sel('retry')).click();
      await assistantMessages(page).nth(i).locator(sel('feedback-up')).waitFor();
      await expect.poll(() => page.locator(sel('error')).count()).toBe(0);
      await page.unroute('**/v1/widget/*/chat');
      i++;
    }
    // The question is asked once per retry, not duplicated.
    await expect.poll(() => page.locator(`${sel('message')}[data-role="user"]`).count()).toBe(3);

    await context.setOffline(true);
    await ask(page, 'Are you there?');
    await expect(page.locator(sel('error')).textContent()).resolves.toMatch(/connect/i);
    await context.setOffline(false);
    await page.locator(sel('retry')).click();
    await assistantMessages(page).nth(3).locator('.bubble:not(:empty)').waitFor();
    await expect.poll(() => page.locator(sel('error')).count()).toBe(0);
    await context.close();
  }, 60_000);

  it('renders model markdown safely: no markup, handlers or script URLs get through', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto(site.serve('/', hostPage(server)));
    await page.locator(sel('launcher')).click();

    const hostile = [
      'Here is **bold** and a list:\n- one\n- two\n\n```\n<b>code</b>\n```',
      '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>',
      '[click me](javascript:window.__pwned=3) [ok](https://example.com/docs)',
    ].join('\n\n');
    const deltas = hostile.match(/[\s\S]{1,7}/g)!;
    const done = {
      status: 'success',
      data: {
        response: hostile,
        sessionId: 'ws_' + 'a'.repeat(32),
        confidence: 0.9,
        sources: [{ title: '<img src=x onerror=alert(1)>', url: 'javascript:alert(1)' }],
        messageId: 'msg_x',
        fallback: false,
        suggestions: [],
        handoff: null,
      },
    };
    const body =
      deltas.map((t) => `event: delta\ndata: ${JSON.stringify({ text: t })}\n\n`).join('') +
      `event: done\ndata: ${JSON.stringify(done)}\n\n`;
    await page.route('**/v1/widget/*/chat', (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body }));

    await ask(page, 'Show me something nasty');
    const answer = assistantMessages(page).last();
    await answer.locator(sel('feedback-up')).waitFor();
    expect(await answer.locator('img, script, b').count()).toBe(0);
    expect(await answer.locator('strong').textContent()).toBe('bold');
    expect(await answer.locator('li').count()).toBe(2);
    expect(await answer.locator('pre code').textContent()).toBe('<b>code</b>');
    expect(await answer.locator('.bubble').textContent()).toContain('<img src=x onerror="window.__pwned=1">');
    const links = await answer.locator('.bubble a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(links).toEqual(['https://example.com/docs']);
    // The unsafe source is listed as text, not as a link.
    expect(await answer.locator(`a${sel('source')}`).count()).toBe(0);
    await expect(answer.locator(sel('source')).textContent()).resolves.toBe('<img src=x onerror=alert(1)>');
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    await page.screenshot({ path: `${SHOTS}/markdown-safe.png` });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
