import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat, writeTraffic, UNANSWERED, type Traffic } from '../src/pages/analytics.traffic.js';
import { expectAccessible, launchBrowser, newPage, signIn, startTestServer, sweep, type Server } from './support.js';

// Conversations in real Chromium against a real server with traffic: filter (kept in the URL)
// and export (the file's rows are exactly the listed conversations), open one and read an
// answer's sources, correct an answer and get the correction when asking again.

let server: Server;
let browser: Browser;
let traffic: Traffic;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  traffic = await writeTraffic(server);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Session ids of the listed rows, from their links. */
async function listedSessions(page: Page): Promise<string[]> {
  const hrefs = await page.getByRole('table').getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
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
    await page.getByRole('status').filter({ hasText: `${traffic.all.length} conversations` }).waitFor();
    expect((await listedSessions(page)).sort()).toEqual([...traffic.all].sort());
    await expectAccessible(page, 'conversations');

    await page.getByLabel('Fell back').selectOption('true');
    await page.waitForURL(/fellBack=true/);
    await page.getByRole('status').filter({ hasText: '2 conversations' }).waitFor();
    const listed = await listedSessions(page);
    expect(listed.sort()).toEqual([traffic.fellBack, traffic.widget].sort());

    const jsonl = await download(page, 'Export JSONL');
    const rows = jsonl.trim().split('\n').map((l) => JSON.parse(l) as { sessionId: string });
    expect([...new Set(rows.map((r) => r.sessionId))].sort()).toEqual(listed.sort());
    const csv = await download(page, 'Export CSV');
    expect(new Set(csv.trim().split('\r\n').slice(1).map((l) => l.split(',')[0]))).toEqual(new Set(listed));

    // Content search applies on submit and lands in the URL too; sorting is a column button.
    await page.getByLabel('Fell back').selectOption('');
    await page.getByLabel('Search in messages').fill('embed the chat widget');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=embed/);
    await page.getByRole('status').filter({ hasText: '1 conversation' }).waitFor();
    expect(await listedSessions(page)).toEqual([traffic.api]);
    await page.getByLabel('Search in messages').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: /^Messages/ }).click();
    await page.waitForURL(/sort=messageCount/);
    await expect.poll(async () => (await listedSessions(page))[0]).toBe(traffic.api);
    expect(await page.getByRole('columnheader', { name: /Messages/ }).getAttribute('aria-sort')).toBe('descending');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('opens a conversation, reads an answer\'s sources, corrects an answer and gets it when asking again', async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, undefined, '/dashboard/conversations?userId=cy');
    await page.getByRole('status').filter({ hasText: '1 conversation' }).waitFor();
    await page.getByRole('table').getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Conversation', level: 1 }).waitFor();
    expect(page.url()).toContain(traffic.rated);
    const answer = page.getByRole('listitem').filter({ has: page.getByText('Assistant', { exact: true }) }).first();
    await answer.getByText(/Confidence \d\.\d\d ≥ threshold/).waitFor();
    await answer.getByText('Rated down').waitFor();
    await answer.getByText('Too short').waitFor();
    const source = answer.getByRole('group').first();
    await source.locator('summary').click();
    const text = (await source.locator('p').textContent())!;
    expect(text.length).toBeGreaterThan(20);
    await expectAccessible(page, 'conversation detail');

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
