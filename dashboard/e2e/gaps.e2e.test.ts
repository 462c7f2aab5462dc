import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat, seedDemoTraffic, writeTraffic, UNANSWERED } from '../src/pages/analytics.traffic.js';
import { SHOTS, expectAccessible, launchBrowser, newPage, signIn, startTestServer, sweep, type Server } from './support.js';

// Knowledge gaps in real Chromium against a real server with seeded traffic (the server's demo
// traffic brings its own gaps; ours are asked twice so they sort onto the first page): expand a gap to its
// questions and closest passages (the URL names it), answer it once and watch the server
// replay every question (before and after side by side), the gap leaves the list and the
// unanswered count drops; dismiss another with a reason; source use is listed.

let server: Server;
let browser: Browser;
const OTHER = 'What is the capital of Mongolia?';

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await seedDemoTraffic(server, 200, 5);
  await writeTraffic(server);
  await chat(server, OTHER);
  await chat(server, OTHER);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('knowledge gaps', () => {
  it('expand → answer it → replay before/after → gone and the count drops; dismiss; source use', async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, undefined, '/dashboard/gaps');
    await page.getByRole('heading', { name: 'Knowledge gaps', level: 1 }).waitFor();
    const count = page.getByRole('status').filter({ hasText: 'unanswered question' });
    await count.filter({ hasText: /^\d+ unanswered/ }).waitFor();
    const before = Number((await count.textContent())!.match(/\d+/)![0]);
    expect(before).toBeGreaterThanOrEqual(3);
    await expectAccessible(page, 'knowledge gaps');

    const gap = page.getByRole('button', { name: UNANSWERED });
    expect(await gap.getAttribute('aria-expanded')).toBe('false');
    await gap.click();
    await page.waitForURL(/\/dashboard\/gaps\/[^/]+$/);
    expect(await gap.getAttribute('aria-expanded')).toBe('true');
    const gapUrl = page.url();
    await page.getByRole('heading', { name: /^Questions \(2\)$/ }).waitFor();
    await page.getByRole('heading', { name: 'Closest passages' }).waitFor();
    await expectAccessible(page, 'a gap expanded');

    const answer = 'Leonardo da Vinci painted the Mona Lisa.';
    const form = page.getByRole('form', { name: 'Answer it' });
    await form.getByLabel('Answer').fill(answer);
    await form.getByLabel('Store as').selectOption('template');
    await form.getByRole('button', { name: 'Save and replay the questions' }).click();
    const result = page.getByRole('region', { name: `Resolved: “${UNANSWERED}”` });
    await result.waitFor();
    const row = result.getByRole('row', { name: new RegExp(UNANSWERED) });
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[0]).toMatch(/sorry|don’t know|don't know/i);
    expect(cells[1]).toContain(answer);
    await page.waitForURL(/\/dashboard\/gaps$/);
    await page.screenshot({ path: `${SHOTS}/gaps-resolved-replay.png` });
    await expect.poll(() => page.getByRole('button', { name: UNANSWERED }).count()).toBe(0);
    await expect.poll(async () => Number((await count.textContent())!.match(/\d+/)![0])).toBe(before - 2);
    await expectAccessible(page, 'gap resolved');

    // Dismiss needs a reason.
    await page.getByRole('button', { name: OTHER }).click();
    const dismiss = page.getByRole('form', { name: 'Dismiss' });
    await dismiss.getByLabel('Reason').fill('Out of scope');
    await dismiss.getByRole('button', { name: 'Dismiss this gap' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Dismissed “${OTHER}”` })
      .waitFor();
    await expect.poll(() => page.getByRole('button', { name: OTHER }).count()).toBe(0);

    const sources = page.getByRole('region', { name: 'Source use' });
    await sources.getByRole('heading', { name: 'Most cited' }).waitFor();
    expect(await sources.getByRole('link').count()).toBeGreaterThan(0);

    // The resolved gap's own link still says what became of it.
    await page.goto(gapUrl);
    const linked = page.getByRole('region', { name: `“${UNANSWERED}”` });
    await linked.getByText('resolved').waitFor();
    await expectAccessible(page, 'a resolved gap by its link');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('screenshots the list and an expanded gap, light and dark, 1280 and 768', async () => {
    for (let i = 0; i < 3; i++) await chat(server, 'Who wrote War and Peace?');
    await sweep(browser, server, 'gaps', async (page) => {
      await page.goto(`${server.url}/dashboard/gaps`);
      await page.getByRole('button', { name: 'Who wrote War and Peace?' }).click();
      await page.getByRole('heading', { name: 'Closest passages' }).waitFor();
    });
  }, 90_000);
});
