import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPrivateDashboard } from './private-build.js';
import { startHostSite } from '../../widget/e2e/support.js';
import { SHOTS, expectAccessible, launchBrowser, newPage, signIn, startTestServer, type Server } from './support.js';

// A new assistant from the dashboard, as a person does it: create → connect knowledge → ask
// in the playground and open "why this answer" → restyle the widget and watch the live
// preview change → copy the embed code onto a site of an allowed origin and chat there →
// a refused save shows the server's message at its field and keeps what was typed.

let server: Server;
// Our own build: others rebuild dashboard/dist (vite empties it first) while this runs.
let build: ReturnType<typeof buildPrivateDashboard>;
let browser: Browser;
let site: Awaited<ReturnType<typeof startHostSite>>;

beforeAll(async () => {
  build = buildPrivateDashboard();
  [server, browser, site] = await Promise.all([startTestServer({ dashboardDir: build.dir }), launchBrowser(), startHostSite()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await server?.close();
  build?.remove();
});

const sel = (hook: string) => `[data-parley="${hook}"]`;
const preview = (page: Page) => page.frameLocator('iframe[title="Widget preview"]');
const styleIn = (page: Page, hook: string, prop: string) =>
  preview(page)
    .locator(sel(hook))
    .evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), prop);

describe('assistants', () => {
  it('create → knowledge → playground with why-this-answer → widget preview → embed on a site → field errors', async () => {
    const { context, page, errors } = await newPage(browser);
    page.on('response', (r) => {
      if (r.url().includes('/v1/') && r.status() >= 400) errors.push(`${r.status()} ${r.request().method()} ${r.url()}`);
    });
    try {
      await flow(page, context, errors);
    } catch (err) {
      await page.screenshot({ path: `${SHOTS}/flow-failure.png`, fullPage: true });
      throw new Error(
        `${(err as Error).message} ${JSON.stringify((err as { actual?: unknown }).actual ?? '')}\nresponses: ${errors.join('\n')}`,
      );
    }
    await context.close();
  }, 90_000);
});

async function flow(page: Page, context: BrowserContext, errors: string[]): Promise<void> {
  {
    await signIn(page, server, undefined, '/dashboard/assistants');
    await page.getByRole('heading', { name: 'Assistants', level: 1 }).waitFor();
    await expectAccessible(page, 'assistants list');

    // Create: the dialog asks for a name and the type.
    await page.getByRole('button', { name: 'Create assistant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an assistant' });
    await dialog.getByLabel('Name').fill('Support bot');
    await dialog.getByLabel('Type').selectOption('web');
    await expectAccessible(page, 'create assistant dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Support bot', level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/dashboard\/assistants\/asst_[A-Za-z0-9]+$/);
    const id = page.url().split('/').pop()!;
    await expectAccessible(page, 'editor: general');

    // Knowledge: connect the demo base with priority 8.
    await page.getByRole('navigation', { name: 'Assistant settings' }).getByRole('link', { name: 'Knowledge' }).click();
    await page.waitForURL(`**/assistants/${id}/knowledge`);
    await page.getByLabel('Connect a knowledge base').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel(/^Priority of /).selectOption('8');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await expectAccessible(page, 'editor: knowledge');

    // Playground: a streamed answer with its explanation.
    await page.getByRole('link', { name: 'Try in the playground' }).click();
    await page.waitForURL(`**/playground/${id}`);
    await expect.poll(() => page.getByLabel('Assistant').inputValue()).toBe(id);
    await page.getByLabel('Message').fill('How do I connect Slack?');
    await page.getByRole('button', { name: 'Send' }).click();
    const why = page.getByText('Why this answer');
    await why.waitFor();
    await why.click();
    await page.getByRole('heading', { name: /Retrieved passages \(\d+\)/ }).waitFor();
    expect(await page.getByText(/score \d\.\d{3}/).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText(/the threshold of \d+%/).count()).toBeGreaterThan(0);
    await page.getByText(/retrieval [\d.]+ ms · answer [\d.]+ ms · total [\d.]+ ms/).waitFor();
    await expectAccessible(page, 'playground with an explained answer');
    await page.screenshot({ path: `${SHOTS}/flow-playground-why.png`, fullPage: true });

    // Widget: dark + expanded shows in the preview before saving.
    await page.goto(`${server.url}/dashboard/assistants/${id}/widget`);
    await preview(page).locator(sel('launcher')).waitFor();
    const lightLauncher = await styleIn(page, 'launcher', 'background-color');
    await page.getByLabel('Widget theme').selectOption('dark');
    await page.getByLabel('Initial state').selectOption('expanded');
    await expect.poll(async () => preview(page).locator(sel('panel')).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => styleIn(page, 'panel', 'background-color'), { timeout: 10_000 }).toBe('rgb(27, 29, 36)');
    // Custom colours: the launcher takes the primary colour.
    await page.getByLabel('Widget theme').selectOption('custom');
    await page.getByLabel('Initial state').selectOption('collapsed');
    await page.getByRole('textbox', { name: 'Primary colour', exact: true }).fill('#cc0000');
    await expect.poll(() => styleIn(page, 'launcher', 'background-color'), { timeout: 10_000 }).toBe('rgb(204, 0, 0)');
    expect(lightLauncher).not.toBe('rgb(204, 0, 0)');
    await expectAccessible(page, 'editor: widget');
    await page.screenshot({ path: `${SHOTS}/flow-widget-preview.png`, fullPage: true });

    // Allow the customer's site, save, copy the embed code.
    const tabs = page.getByRole('navigation', { name: 'Assistant settings' });
    await tabs.getByRole('link', { name: /Widget.*unsaved changes/ }).waitFor();
    await page.getByLabel('Allowed origins').fill(site.origin);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await tabs.getByRole('link', { name: /unsaved changes/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Copy embed code' }).click();
    const snippet = await page.evaluate(() => navigator.clipboard.readText());
    expect(snippet).toBe(`<script src="${server.url}/js/widget.js" data-app-id="${id}" defer></script>`);

    // The snippet on the customer's page: the widget answers there, in the saved colours.
    const host = await context.newPage();
    await host.goto(
      site.serve(
        '/shop',
        `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Shop</h1>${snippet}</body></html>`,
      ),
    );
    await host.locator(sel('launcher')).click();
    expect(await host.locator(sel('launcher')).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(204, 0, 0)');
    await host.locator(sel('input')).fill('How do I connect Slack?');
    await host.locator(sel('send')).click();
    const answer = host.locator(`${sel('message')}[data-role="assistant"]`).last();
    await answer.waitFor();
    await expect.poll(async () => (await answer.innerText()).length, { timeout: 15_000 }).toBeGreaterThan(20);
    await host.screenshot({ path: `${SHOTS}/flow-host-site.png` });
    await host.close();

    // A refused save: the message sits at its field and the typed value stays.
    await page.getByRole('navigation', { name: 'Assistant settings' }).getByRole('link', { name: 'Model' }).click();
    await page.getByLabel('Provider').selectOption('openai');
    // The test server has no OpenAI key: the section says so before anything is saved.
    await page.getByText(/The server has no API key for openai/).waitFor();
    await page.getByLabel('Base URL').fill('ftp://models.internal');
    await page.getByLabel('Temperature').fill('0.4');
    await page.getByRole('button', { name: 'Save' }).click();
    const baseUrl = page.getByLabel('Base URL');
    await expect.poll(() => baseUrl.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await baseUrl.getAttribute('aria-describedby'))!.split(' ').pop()!;
    expect(await page.locator(`#${describedBy.replace(/:/g, '\\:')}`).innerText()).toMatch(/http/);
    expect(await baseUrl.inputValue()).toBe('ftp://models.internal');
    expect(await page.getByLabel('Temperature').inputValue()).toBe('0.4');
    await expectAccessible(page, 'editor: model with a field error');
    await page.screenshot({ path: `${SHOTS}/flow-model-error.png`, fullPage: true });

    // API access: a key bound to this assistant, shown once, that can chat with it.
    await page.getByRole('navigation', { name: 'Assistant settings' }).getByRole('link', { name: 'API access' }).click();
    await page.getByText('No key is bound to this assistant yet.').waitFor();
    await page.getByLabel('Key name').fill('Shop backend');
    await page.getByLabel('Requests per minute').fill('20');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Copy it now: this is the only time Parley shows the full key.').waitFor();
    await page.getByRole('button', { name: 'Copy new api key' }).click();
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^sk_/);
    const row = page.getByRole('table', { name: 'Keys bound to this assistant' }).getByRole('row', { name: /Shop backend/ });
    expect(await row.innerText()).toContain(`sk_…${key.slice(-4)}`);
    expect(await row.innerText()).toMatch(/20\/min/);
    const chat = await fetch(`${server.url}/v1/integrations/${id}/chat`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'How do I connect Slack?' }),
    });
    expect(chat.status).toBe(200);
    await expectAccessible(page, 'editor: API access with a new key');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByText(key).count()).toBe(0);

    // Behaviour: an out-of-range threshold, named at its field.
    await page.getByRole('navigation', { name: 'Assistant settings' }).getByRole('link', { name: 'Behaviour' }).click();
    await page.getByLabel('Confidence threshold').fill('1.7');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByLabel('Confidence threshold').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Confidence threshold').inputValue()).toBe('1.7');

    expect(errors.filter((e) => !/^4\d\d (PATCH|GET) .*\/v1\/(assistants|auth\/me)/.test(e))).toEqual([]);
  }
}
