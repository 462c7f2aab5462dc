import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countConversations, seedDemoTraffic, UNANSWERED } from '../src/pages/analytics.traffic.js';
import { expectAccessible, launchBrowser, newPage, signIn, startTestServer, sweep, type Server } from './support.js';

// Human takeover, both sides in real Chromium, on seeded traffic (some handoffs already
// waiting): a visitor on the demo page asks the widget something it cannot answer and asks for
// a person; the dashboard's "Needs a human" count shows one more, the request is last in the
// queue (longest waiting first), the agent takes over and replies, and the visitor sees the
// reply in the widget.

let server: Server;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await seedDemoTraffic(server, 200, 7);
}, 60_000);

/** Waiting for a person: asked, still open, no agent reply since (the tests' oracle). */
const pending = () =>
  countConversations(
    server,
    `channel_group != 'playground' AND handoff_requested_at IS NOT NULL AND status = 'active'
  AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = conversations.id AND m.role = 'human_agent' AND m.created_at >= conversations.handoff_requested_at)`,
  );
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const sel = (hook: string) => `[data-parley="${hook}"]`;

async function visitorAsksForHuman(page: Page): Promise<string> {
  await page.goto(`${server.url}/demo/`);
  await page.locator(sel('launcher')).click();
  await page.locator(sel('input')).fill(UNANSWERED);
  await page.locator(sel('input')).press('Enter');
  await page.locator(sel('handoff')).click();
  await page.locator(sel('handoff-notice')).waitFor();
  return (await page.evaluate((id) => localStorage.getItem(`parley:${id}:session`), server.assistantId))!;
}

describe('human takeover', () => {
  it('the count shows the request, the agent replies from the dashboard, the widget shows it', async () => {
    const visitor = await newPage(browser);
    const agent = await newPage(browser);
    await signIn(agent.page, server, undefined, '/dashboard/handoffs');
    await agent.page.getByRole('heading', { name: 'Needs a human', level: 1 }).waitFor();
    const before = await pending();
    const nav = agent.page.getByRole('navigation', { name: 'Main' });
    const badge = (n: number) => nav.getByRole('link', { name: /Needs a human/ }).getByLabel(`${n} waiting`);
    if (before > 0) await badge(before).waitFor();
    await agent.page
      .getByRole('status')
      .filter({ hasText: `${before} waiting` })
      .or(agent.page.getByRole('heading', { name: 'Nobody is waiting' }))
      .waitFor();

    const sessionId = await visitorAsksForHuman(visitor.page);
    expect(await pending()).toBe(before + 1);
    // The queue reloads when asked (the nav count polls on its own every 30 s).
    await agent.page.getByRole('button', { name: 'Refresh' }).click();
    await badge(before + 1).waitFor();
    await agent.page
      .getByRole('status')
      .filter({ hasText: `${before + 1} waiting` })
      .waitFor();
    await expectAccessible(agent.page, 'handoff queue');

    // Longest waiting first: the new request is the last row.
    const take = agent.page
      .getByRole('table')
      .getByRole('row')
      .last()
      .getByRole('link', { name: /Take over/ });
    expect(await take.getAttribute('href')).toBe(`/dashboard/conversations/${sessionId}`);
    await take.click();
    await agent.page.waitForURL(`**/conversations/${sessionId}`);
    await agent.page.getByText(/asked for a human/).waitFor();
    await agent.page.getByLabel('Reply as a human').fill('Hi, this is Sam from support. It was Leonardo da Vinci.');
    await agent.page.getByRole('button', { name: 'Send reply' }).click();
    await agent.page.getByRole('listitem').filter({ hasText: 'Sam from support' }).getByText('Human agent').waitFor();
    // The count drops at once: the reply asks for it again.
    if (before > 0) await badge(before).waitFor();
    else await expect.poll(() => nav.getByLabel(/waiting/).count()).toBe(0);

    // The widget polls (about every 10 s) and shows the agent's turn.
    const turn = visitor.page.locator(`${sel('message')}[data-role="human_agent"]`);
    await turn.waitFor({ timeout: 20_000 });
    expect(await turn.textContent()).toContain('Sam from support');

    // The conversation left the queue.
    await nav.getByRole('link', { name: /Needs a human/ }).click();
    await agent.page
      .getByRole('status')
      .filter({ hasText: `${before} waiting` })
      .or(agent.page.getByRole('heading', { name: 'Nobody is waiting' }))
      .waitFor();
    expect(await agent.page.locator(`a[href="/dashboard/conversations/${sessionId}"]`).count()).toBe(0);
    expect(agent.errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
    await agent.context.close();
  }, 60_000);

  it('screenshots the queue with someone waiting, light and dark, 1280 and 768', async () => {
    const visitor = await newPage(browser);
    await visitorAsksForHuman(visitor.page);
    await visitor.context.close();
    await sweep(browser, server, 'handoffs', async (page) => {
      await page.goto(`${server.url}/dashboard/handoffs`);
      await page
        .getByRole('link', { name: /Take over/ })
        .first()
        .waitFor();
    });
  }, 90_000);
});
