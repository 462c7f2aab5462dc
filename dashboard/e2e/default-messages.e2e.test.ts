import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../server/src/i18n/locales.js';
import { useDashboardE2e } from './private-build.js';
import { expectAccessible, newPage, signIn, type Server } from './support.js';

// Issue 25: the fallback, handoff and welcome messages of an assistant that kept Parley's
// defaults show (and answer) in its language, and follow a language change; an owner's own text
// stays, and can go back to the default. Screenshots in /tmp/parley/shots, light and dark, axe on each.

const SHOTS = '/tmp/parley/shots';
let server: Server;
let browser: Browser;
useDashboardE2e((s, b) => {
  server = s;
  browser = b;
});

const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Assistant settings' }).getByRole('link', { name, exact: true });

async function saved(): Promise<{
  language: string;
  fallback: { message: string; handoff: { message: string } };
  widget: { welcomeMessage: string };
}> {
  const res = await fetch(`${server.url}/v1/assistants/${server.assistantId}`, { headers: { Authorization: `Bearer ${server.apiKey}` } });
  return ((await res.json()) as { data: Awaited<ReturnType<typeof saved>> }).data;
}

async function save(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
}

describe("default messages in the assistant's language", () => {
  it('shows the German defaults, switches them to Arabic with the language, keeps an own text and goes back to the default', async () => {
    const patched = await fetch(`${server.url}/v1/assistants/${server.assistantId}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ language: 'de' }),
    });
    expect(patched.status).toBe(200);
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, undefined, `/dashboard/assistants/${server.assistantId}/fallback`);
    const fallback = page.getByLabel('Fallback message');
    const handoff = page.getByLabel('Handoff message');
    await expect.poll(() => fallback.inputValue()).toBe(LOCALES.de!.defaults.fallback);
    expect(await handoff.inputValue()).toBe(LOCALES.de!.defaults.handoff);
    expect(await fallback.getAttribute('lang')).toBe('de');
    // The field says it is the default (its description, as a screen reader reads it).
    await expect
      .poll(() => fallback.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? ''))
      .toMatch(/default: it follows the assistant's language/);

    // The language changes in General: the untouched Fallback section follows it, right to left.
    await tab(page, 'General').click();
    await page.getByLabel('Language', { exact: true }).selectOption({ label: 'Arabic — العربية (ar)' });
    await save(page);
    await tab(page, 'Fallback').click();
    await expect.poll(() => fallback.inputValue()).toBe(LOCALES.ar!.defaults.fallback);
    expect(await handoff.inputValue()).toBe(LOCALES.ar!.defaults.handoff);
    await expect.poll(() => fallback.getAttribute('dir')).toBe('rtl');
    expect(await tab(page, 'Fallback').textContent()).not.toContain('unsaved');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `${SHOTS}/dashboard-default-messages-${scheme}.png`, fullPage: true });
      await expectAccessible(page, `fallback section, Arabic defaults (${scheme})`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect((await saved()).fallback.message).toBe(LOCALES.ar!.defaults.fallback);

    // An own text stays through a language change; one click brings the default back.
    await fallback.fill('عذرًا، اكتب لنا على support@example.com');
    await save(page);
    const useDefault = page.getByRole('button', { name: "Use the default in the assistant's language" });
    await useDefault.waitFor();
    await expectAccessible(page, 'fallback section, own text');
    await page.request.fetch(`${server.url}/v1/assistants/${server.assistantId}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      data: { language: 'th' },
    });
    await page.reload();
    await expect.poll(() => fallback.inputValue()).toBe('عذرًا، اكتب لنا على support@example.com');
    expect(await handoff.inputValue()).toBe(LOCALES.th!.defaults.handoff);
    await useDefault.click();
    expect(await fallback.inputValue()).toBe(LOCALES.th!.defaults.fallback);
    await save(page);
    expect(await useDefault.count()).toBe(0);
    const th = await saved();
    expect(th.fallback.message).toBe(LOCALES.th!.defaults.fallback);

    // The demo's welcome message is its own (English) text: it stays, until the default is asked for.
    await tab(page, 'Widget').click();
    const welcome = page.getByLabel('Welcome message');
    await expect.poll(() => welcome.inputValue()).toBe(th.widget.welcomeMessage);
    expect(th.widget.welcomeMessage).toMatch(/^Hi! I am the Parley Guide/);
    await page.getByRole('button', { name: "Use the default in the assistant's language" }).click();
    expect(await welcome.inputValue()).toBe(LOCALES.th!.defaults.welcome);
    expect(await welcome.getAttribute('lang')).toBe('th');
    await save(page);
    expect((await saved()).widget.welcomeMessage).toBe(LOCALES.th!.defaults.welcome);
    await expectAccessible(page, 'widget section, Thai welcome');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
