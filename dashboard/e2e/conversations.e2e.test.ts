import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANSWERED,
  chat,
  countConversations,
  seedDemoTraffic,
  writeTraffic,
  UNANSWERED,
  type Traffic,
} from '../src/pages/analytics.traffic.js';
import { SHOTS, expectAccessible, launchBrowser, newPage, signIn, startTestServer, sweep, type Server } from './support.js';

// Conversations in real Chromium against a real server with seeded traffic (the server's demo
// traffic plus a known set): filter (kept in the URL) and export (the file's rows are exactly
// the conversations listed over every page), open one and read an answer's sources, correct an
// answer and get the correction when asking again.

let server: Server;
let browser: Browser;
let traffic: Traffic;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await seedDemoTraffic(server, 300);
  traffic = await writeTraffic(server);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Session ids of the listed rows, from their links. */
async function listedSessions(page: Page): Promise<string[]> {
  const hrefs = await page
    .getByRole('table')
    .getByRole('link')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((h) => decodeURIComponent(h.split('/').pop()!));
}

async function download(page: Page, button: string): Promise<string> {
  const wait = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  const file = await wait;
  return readFileSync((await file.path())!, 'utf8');
}

describe('conversations', () => {
  it('filters in the URL, exports exactly the filtered list as JSONL and CSV', async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, undefined, '/dashboard/conversations');
    const shown = (n: number) => `${n.toLocaleString('en')} conversations`;
    await page
      .getByRole('status')
      .filter({ hasText: shown(await countConversations(server)) })
      .waitFor();
    await expectAccessible(page, 'conversations');

    // Fell back, on the API, Slack and Teams: a few pages of the seeded traffic.
    await page.getByLabel('Fell back').selectOption('true');
    await page.waitForURL(/fellBack=true/);
    for (const other of ['Widget', 'Discord']) {
      await page.getByRole('group', { name: 'Channels' }).getByLabel(other).uncheck();
      await page.waitForURL(new RegExp(`channel=(?!.*${other.toLowerCase()})`));
    }
    expect(new URL(page.url()).searchParams.get('channel')).toBe('api,slack,teams');
    const expected = await countConversations(
      server,
      "channel_group IN ('api', 'slack', 'teams') AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = conversations.id AND m.answered = 0)",
    );
    expect(expected).toBeGreaterThan(0);
    await page
      .getByRole('status')
      .filter({ hasText: expected === 1 ? '1 conversation' : shown(expected) })
      .waitFor();
    const listed: string[] = [];
    for (;;) {
      listed.push(...(await listedSessions(page)));
      const next = page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Next' });
      if (!(await next.count()) || (await next.isDisabled())) break;
      const first = listed.at(-1);
      await next.click();
      await expect.poll(async () => (await listedSessions(page)).includes(first!)).toBe(false);
    }
    expect(expected).toBeGreaterThan(25); // more than one page
    expect(listed.length).toBe(expected);
    expect(new Set(listed).size).toBe(expected);

    const jsonl = await download(page, 'Export JSONL');
    const rows = jsonl
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { sessionId: string });
    expect([...new Set(rows.map((r) => r.sessionId))].sort()).toEqual(listed.sort());
    const csv = await download(page, 'Export CSV');
    expect(
      new Set(
        csv
          .trim()
          .split('\r\n')
          .slice(1)
          .map((l) => l.split(',')[0]),
      ),
    ).toEqual(new Set(listed));

    // Content search applies on submit and lands in the URL too; sorting is a column button.
    // The navigation link starts again without filters.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
    await page.waitForURL(/\/dashboard\/conversations$/);
    await page
      .getByRole('status')
      .filter({ hasText: shown(await countConversations(server)) })
      .waitFor();
    await page.getByLabel('Search in messages').fill('embed the chat widget on my website');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=embed/);
    await page.getByRole('status').filter({ hasText: '1 conversation' }).waitFor();
    expect(await listedSessions(page)).toEqual([traffic.api]);
    await page.getByLabel('Search in messages').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: /^Messages/ }).click();
    await page.waitForURL(/sort=messageCount/);
    expect(await page.getByRole('columnheader', { name: /Messages/ }).getAttribute('aria-sort')).toBe('descending');
    const messageCounts = async () => (await page.getByRole('table').locator('tbody tr td:nth-of-type(7)').allTextContents()).map(Number);
    await expect
      .poll(async () => {
        const c = await messageCounts();
        return c.every((n, i) => i === 0 || c[i - 1]! >= n);
      })
      .toBe(true);
    await page.getByRole('button', { name: /^Messages/ }).click();
    await page.waitForURL(/order=asc/);
    await expect
      .poll(async () => {
        const c = await messageCounts();
        return c.every((n, i) => i === 0 || c[i - 1]! <= n);
      })
      .toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it("opens a conversation, reads an answer's sources, corrects an answer and gets it when asking again", async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, undefined, '/dashboard/conversations?userId=cy');
    await page.getByRole('status').filter({ hasText: '1 conversation' }).waitFor();
    // The row says what was asked: the visitor's first question opens the conversation.
    await page.getByRole('table').getByRole('link', { name: ANSWERED }).click();
    await page.getByRole('heading', { name: 'Conversation', level: 1 }).waitFor();
    expect(page.url()).toContain(traffic.rated);
    const answer = page
      .getByRole('listitem')
      .filter({ has: page.getByText('Assistant', { exact: true }) })
      .first();
    await answer.getByText(/Confidence \d\.\d\d ≥ threshold/).waitFor();
    await answer.getByText('Rated down').waitFor();
    await answer.getByText('Too short').waitFor();
    const source = answer.getByRole('group').first();
    await source.locator('summary').click();
    const text = (await source.locator('p').textContent())!;
    expect(text.length).toBeGreaterThan(20);
    await expectAccessible(page, 'conversation detail');

    // A reply the server refuses shows its message at the box and keeps the text.
    const reply = page.getByLabel('Reply as a human');
    await reply.fill('x'.repeat(20_001));
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /20000|20,000|at most|too long|characters/i })
      .waitFor();
    expect(await reply.getAttribute('aria-invalid')).toBe('true');
    expect((await reply.inputValue()).length).toBe(20_001);

    // The fallback conversation: correct the answer as a template.
    await page.goto(`${server.url}/dashboard/conversations/${traffic.fellBack}`);
    await page.getByText('Fallback', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Correct this answer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Correct this answer' });
    await dialog.getByText(UNANSWERED).waitFor();
    await expectAccessible(page, 'correction dialog');
    const corrected = 'Leonardo da Vinci painted the Mona Lisa, in the early 1500s.';
    await dialog.getByLabel('Corrected answer').fill(corrected);
    await dialog.getByLabel('Template match').selectOption('exact');
    await page.screenshot({ path: `${SHOTS}/conversation-correction-dialog.png` });
    await dialog.getByRole('button', { name: 'Save correction' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await dialog.getByRole('button', { name: 'Back to the conversation' }).click();
    await page.getByText(/^Corrected /).waitFor();
    expect((await chat(server, UNANSWERED)).response).toBe(corrected);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('screenshots the list and a conversation, light and dark, 1280 and 768', async () => {
    await sweep(browser, server, 'conversations', async (page) => {
      await page.goto(`${server.url}/dashboard/conversations`);
      await page.getByRole('table').waitFor();
    });
    await sweep(browser, server, 'conversation', async (page) => {
      await page.goto(`${server.url}/dashboard/conversations/${traffic.api}`);
      await page.getByRole('heading', { name: 'Transcript' }).waitFor();
    });
  }, 120_000);
});
