import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countConversations, seedDemoTraffic, writeTraffic, type Traffic } from '../src/pages/analytics.traffic.js';
import { SHOTS, clientFor, expectAccessible, launchBrowser, newPage, signIn, startTestServer, sweep, type Server } from './support.js';

// Analytics in real Chromium against a real server with seeded traffic (the server's demo
// traffic over 80 days plus a known set written through the chat paths today): the cards count
// it, a channel filter lands in the URL and changes them, a chart has a table view, a
// configuration change is a marker with who and what, and clicking a chart point opens the
// conversations of that bucket.

let server: Server;
let browser: Browser;
let traffic: Traffic;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await seedDemoTraffic(server, 400);
  traffic = await writeTraffic(server);
  await clientFor(server).patch(`/assistants/${server.assistantId}`, { systemPrompt: 'You are the Parley demo helper. Be brief.' });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const card = (page: Page, label: string) =>
  page.getByRole('list', { name: 'Metrics' }).getByRole('listitem').filter({ hasText: label }).first();
const chart = (page: Page, title: string) => page.getByRole('region', { name: title });

async function openAnalytics(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
  await page
    .getByRole('img', { name: /^Conversations and messages/ })
    .locator('canvas')
    .first()
    .waitFor();
}

describe('analytics', () => {
  it('cards, channel filter in the URL, table view, change markers, chart point → filtered list', async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, undefined, '/dashboard/analytics?range=90d');
    await openAnalytics(page);
    const total = await countConversations(server);
    expect(total).toBeGreaterThan(300);
    const shown = (n: number) => n.toLocaleString('en');
    await expect.poll(() => card(page, 'Conversations').locator('strong').textContent()).toBe(shown(total));
    await expect(card(page, 'Human handoffs').locator('strong').textContent()).resolves.toBe(
      shown(await countConversations(server, "channel_group != 'playground' AND handoff_requested_at IS NOT NULL")),
    );
    await expectAccessible(page, 'analytics');

    // The playground is left out until ticked; the choice goes to the URL.
    const playground = page.getByRole('group', { name: 'Channels' }).getByLabel('Playground');
    expect(await playground.isChecked()).toBe(false);
    await playground.check();
    await page.waitForURL(/channel=widget%2Capi%2Cdiscord%2Cslack%2Cteams%2Cplayground|channel=widget,api,discord,slack,teams,playground/);
    await expect.poll(() => card(page, 'Conversations').locator('strong').textContent()).toBe(shown(total + 1));
    await page.goBack();
    await expect.poll(() => card(page, 'Conversations').locator('strong').textContent()).toBe(shown(total));

    // Every chart has a table view with the same figures: a row per day, summing to the card.
    const volume = chart(page, 'Conversations and messages');
    await volume.getByRole('button', { name: 'View as table' }).click();
    const table = volume.getByRole('table');
    await table.waitFor();
    const counts = (await table.locator('tbody tr td:nth-of-type(1)').allTextContents()).map((c) => Number(c.replace(/,/g, '')) || 0);
    expect(counts.length).toBeGreaterThanOrEqual(90);
    expect(counts.reduce((n, c) => n + c, 0)).toBe(total);
    await expectAccessible(page, 'analytics table view, 90 days');
    await volume.getByRole('button', { name: 'View as table' }).click();

    // The last 7 days, where a point is wide enough to click.
    await page.getByLabel('Date range').selectOption('7d');
    await page.waitForURL((u) => !u.search.includes('range='));
    await volume.getByRole('button', { name: 'View as table' }).click();
    const today = Number((await table.locator('tbody tr').last().locator('td').first().textContent())!.replace(/,/g, ''));
    expect(today).toBeGreaterThanOrEqual(traffic.all.length);
    await expectAccessible(page, 'analytics table view');
    await volume.getByRole('button', { name: 'View as table' }).click();

    // The prompt change made before the page loaded is a numbered marker with who and what.
    const marker = volume.getByRole('button', { name: /^Change 1: .* updated/ });
    await marker.waitFor();
    expect(await marker.getAttribute('aria-label')).toMatch(/An API key changed .*systemPrompt|changed .*prompt/i);
    await marker.hover();
    await volume.getByRole('tooltip').waitFor();
    await expect(page.getByRole('region', { name: 'Configuration changes' }).getByRole('listitem').count()).resolves.toBeGreaterThan(0);

    // Clicking the last point (today, where the traffic is) opens that day's conversations.
    const plot = volume.getByRole('img', { name: /^Conversations and messages/ });
    const box = (await plot.boundingBox())!;
    await page.mouse.move(box.x + box.width - 30, box.y + box.height / 2);
    await page.mouse.click(box.x + box.width - 30, box.y + box.height / 2);
    await page.waitForURL(/\/dashboard\/conversations\?range=custom&from=/);
    const url = new URL(page.url());
    const from = Date.parse(url.searchParams.get('from')!);
    expect(Date.parse(url.searchParams.get('to')!) - from).toBe(24 * 3_600_000 - 1);
    await page.getByRole('heading', { name: 'Conversations', level: 1 }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: `${today} conversations` })
      .waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^Showing / })
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/analytics-bucket-conversations.png`, fullPage: true });
    await expectAccessible(page, 'conversations of a chart bucket');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('screenshots light and dark, 1280 and 768', async () => {
    await sweep(browser, server, 'analytics', async (page) => {
      await page.goto(`${server.url}/dashboard/analytics?range=90d`);
      await openAnalytics(page);
      await card(page, 'Conversations').locator('strong').filter({ hasText: /\d/ }).waitFor();
    });
  }, 90_000);
});
