import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../server/src/i18n/locales.js';
import { useDashboardE2e } from './private-build.js';
import { expectAccessible, newPage, signIn, type Server } from './support.js';

// Issue 25 in the dashboard: the language is picked by name, the widget's texts can be reworded
// one by one (empty = the language's default, shown as the placeholder), and the live preview
// shows both. Screenshots in /tmp/parley/shots, light and dark, axe on each.

const SHOTS = '/tmp/parley/shots';
let server: Server;
let browser: Browser;
useDashboardE2e((s, b) => {
  server = s;
  browser = b;
});

const preview = (page: Page) => page.frameLocator('iframe[title="Widget preview"]');

describe('language and widget texts', () => {
  it('picks Arabic by name, rewords one widget text, and the preview shows both', async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, undefined, `/dashboard/assistants/${server.assistantId}/general`);
    const picker = page.getByLabel('Language', { exact: true });
    await picker.waitFor();
    // Names in the owner's language (the browser's: English here) and in their own.
    expect(await picker.locator('option', { hasText: 'German — Deutsch (de)' }).count()).toBe(1);
    await picker.selectOption({ label: 'Arabic — العربية (ar)' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    await page.goto(`${server.url}/dashboard/assistants/${server.assistantId}/widget`);
    await page.getByText('Widget texts').click();
    const send = page.getByLabel('Send button');
    // Empty: the placeholder is the language's own text.
    await expect.poll(() => send.getAttribute('placeholder')).toBe(LOCALES.ar!.widget.send);
    expect(await send.inputValue()).toBe('');
    await page.getByLabel('Talk to a human button').fill('تحدث مع سارة');
    await page.getByLabel('Initial state').selectOption('expanded');
    // The preview lays the unsaved text over the Arabic ones, right to left.
    const panel = preview(page).locator('[data-parley="panel"]');
    await expect.poll(() => panel.count(), { timeout: 15_000 }).toBe(1);
    expect(await preview(page).locator('parley-widget .root').getAttribute('dir')).toBe('rtl');
    await expect.poll(() => preview(page).getByRole('textbox').getAttribute('placeholder')).toBe(LOCALES.ar!.widget.placeholder);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const saved = (await (
      await fetch(`${server.url}/v1/assistants/${server.assistantId}`, { headers: { Authorization: `Bearer ${server.apiKey}` } })
    ).json()) as { data: { language: string; widget: { strings: Record<string, string> } } };
    expect(saved.data.language).toBe('ar');
    expect(saved.data.widget.strings).toEqual({ talkToHuman: 'تحدث مع سارة' });

    // A too-long text: the server's message at its field, what was typed kept.
    await page.getByLabel('Subtitle under the name').fill('x'.repeat(200));
    await page.getByLabel('Subtitle under the name').evaluate((el: HTMLInputElement) => {
      el.removeAttribute('maxlength');
    });
    await page.getByLabel('Subtitle under the name').fill('x'.repeat(201));
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByText(/at most 200|<=200|200 char/i)
      .first()
      .waitFor();
    expect(await page.getByLabel('Subtitle under the name').inputValue()).toHaveLength(201);
    await page.getByLabel('Subtitle under the name').fill('');

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `${SHOTS}/dashboard-widget-texts-${scheme}.png`, fullPage: true });
      await expectAccessible(page, `widget texts (${scheme})`);
    }
    await page.goto(`${server.url}/dashboard/assistants/${server.assistantId}/general`);
    await picker.waitFor();
    expect(await picker.inputValue()).toBe('ar');
    await page.screenshot({ path: `${SHOTS}/dashboard-language-dark.png` });
    await expectAccessible(page, 'language picker');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
