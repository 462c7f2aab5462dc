import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES } from '../../server/src/i18n/locales.js';
import { api, hostPage, launchBrowser, newPage, patchAssistant, sel, startHostSite, startTestServer, type Server } from './support.js';

// API.md §12 in a real Chromium: the widget shows the texts its config carries, in the
// assistant's language, and lays itself out right to left for Arabic. axe runs on each.

let server: Server;
let browser: Browser;
let site: Awaited<ReturnType<typeof startHostSite>>;
let before: { language: string; widget: Record<string, unknown>; fallback: Record<string, unknown> };
let name: string;

const SHOTS = '/tmp/parley/shots';
mkdirSync(SHOTS, { recursive: true });
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

beforeAll(async () => {
  [server, browser, site] = await Promise.all([startTestServer(), launchBrowser(), startHostSite()]);
  const a = (await api(server, 'GET', `/v1/assistants/${server.assistantId}`)).data;
  before = { language: a.language, widget: { ...a.widget, allowedOrigins: [site.origin] }, fallback: a.fallback };
  name = a.name;
  await patchAssistant(server, { widget: before.widget });
}, 60_000);

afterEach(async () => {
  await patchAssistant(server, { language: before.language, widget: { ...before.widget, strings: null }, fallback: before.fallback });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await server?.close();
});

/** axe-core in the host page (it reads the open shadow root); serious and critical violations fail. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            opts: unknown,
          ): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help} at ${v.nodes
            .slice(0, 3)
            .map((n) => JSON.stringify(n.target))
            .join(', ')}`,
      );
  });
  expect(violations, `axe on ${what}`).toEqual([]);
}

const fill = (text: string) => text.replace('{name}', name);

/** Opens the widget in `language`, asks `question` (one the demo knowledge cannot answer), returns the page. */
async function chatIn(
  language: string,
  theme: 'light' | 'dark',
  question: string,
): Promise<{ page: Page; close(): Promise<void>; errors: string[] }> {
  // The English defaults, as a new assistant stores them: they must show in the assistant's language.
  await patchAssistant(server, {
    language,
    widget: { theme, welcomeMessage: LOCALES.en!.defaults.welcome },
    fallback: { handoff: { enabled: true } },
  });
  const { context, page, errors } = await newPage(browser, { width: 1000, height: 760 });
  await page.goto(site.serve(`/${language}-${theme}`, hostPage(server).replace('<html>', '<html lang="en">')));
  const w = LOCALES[language]!.widget;
  await page.getByRole('button', { name: fill(w.open) }).click();
  await page.getByRole('dialog', { name: fill(w.dialog) }).waitFor();
  await page.getByRole('textbox', { name: fill(w.inputLabel) }).fill(question);
  await page.getByRole('button', { name: w.send, exact: true }).click();
  await page.locator(sel('handoff')).waitFor();
  return { page, errors, close: () => context.close() };
}

const box = async (page: Page, css: string) => (await page.locator(css).first().boundingBox())!;

describe("the widget in the assistant's language", () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`Arabic (${theme}): right to left, Arabic texts and default messages, no axe violations`, async () => {
      const { page, close, errors } = await chatIn('ar', theme, 'هل تبيعون بطاقات الهدايا؟');
      const ar = LOCALES.ar!;
      const root = page.locator('parley-widget .root');
      expect(await root.getAttribute('dir')).toBe('rtl');
      expect(await root.getAttribute('lang')).toBe('ar');
      expect(await page.getByRole('textbox', { name: fill(ar.widget.inputLabel) }).getAttribute('placeholder')).toBe(ar.widget.placeholder);
      await expect
        .poll(() =>
          page
            .locator(`${sel('message')}[data-role="assistant"] .bubble`)
            .last()
            .textContent(),
        )
        .toBe(ar.defaults.fallback);
      expect(await page.locator(sel('welcome')).textContent()).toBe(ar.defaults.welcome);
      expect(await page.getByRole('button', { name: ar.widget.newConversation }).count()).toBe(1);
      expect(await page.getByRole('button', { name: ar.widget.close }).count()).toBe(2); // the launcher and the header's

      // Mirrored: the bottom-right launcher sits bottom-left, the visitor's bubble on the left,
      // the answer on the right, the send button left of the text box.
      const launcher = await box(page, sel('launcher'));
      expect(launcher.x).toBeLessThan(40);
      const panel = await box(page, sel('panel'));
      const user = await box(page, `${sel('message')}[data-role="user"] .bubble`);
      const answer = await box(page, `${sel('message')}[data-role="assistant"] .bubble`);
      expect(user.x - panel.x).toBeLessThan(30);
      expect(panel.x + panel.width - (answer.x + answer.width)).toBeLessThan(30);
      const input = await box(page, sel('input'));
      const send = await box(page, sel('send'));
      expect(send.x + send.width).toBeLessThanOrEqual(input.x);
      // The send arrow points left, the way Arabic reads.
      expect(await page.locator(`${sel('send')} svg`).evaluate((el) => getComputedStyle(el).transform)).toBe('matrix(-1, 0, 0, 1, 0, 0)');

      await page.screenshot({ path: `${SHOTS}/lang-ar-${theme}.png` });
      await expectAccessible(page, `Arabic widget (${theme})`);
      expect(errors).toEqual([]);
      await close();
    }, 60_000);

    for (const [language, question] of [
      ['th', 'ขายบัตรของขวัญไหม'],
      ['de', 'Verkaufen Sie Geschenkgutscheine?'],
    ] as const) {
      it(`${language} (${theme}): left to right, its own texts, no axe violations`, async () => {
        const { page, close, errors } = await chatIn(language, theme, question);
        const l = LOCALES[language]!;
        const root = page.locator('parley-widget .root');
        expect(await root.getAttribute('dir')).toBe('ltr');
        expect(await root.getAttribute('lang')).toBe(language);
        await expect
          .poll(() =>
            page
              .locator(`${sel('message')}[data-role="assistant"] .bubble`)
              .last()
              .textContent(),
          )
          .toBe(l.defaults.fallback);
        expect(await page.getByRole('button', { name: l.widget.talkToHuman, exact: true }).count()).toBe(1);
        expect(await page.locator(sel('welcome')).textContent()).toBe(l.defaults.welcome);
        const launcher = await box(page, sel('launcher'));
        expect(launcher.x).toBeGreaterThan(1000 - 100);
        await page.screenshot({ path: `${SHOTS}/lang-${language}-${theme}.png` });
        await expectAccessible(page, `${language} widget (${theme})`);
        expect(errors).toEqual([]);
        await close();
      }, 60_000);
    }
  }

  it("shows the owner's own texts over the language's, and no English anywhere", async () => {
    await patchAssistant(server, { widget: { strings: { placeholder: 'Fragen Sie uns alles …', talkToHuman: 'Mit Anna sprechen' } } });
    const { page, close } = await chatIn('de', 'light', 'Verkaufen Sie Geschenkgutscheine?');
    expect(await page.getByRole('textbox').getAttribute('placeholder')).toBe('Fragen Sie uns alles …');
    await page.getByRole('button', { name: 'Mit Anna sprechen' }).click();
    await expect.poll(() => page.locator(`${sel('handoff-notice')} span`).textContent()).toBe(LOCALES.de!.widget.handoffRequested);
    // Every label a visitor or a screen reader meets is German: none of the English texts.
    const shown = await page.locator('parley-widget').evaluate((host) => {
      const root = host.shadowRoot!;
      const labels = [...root.querySelectorAll('[aria-label],[placeholder]')].flatMap((el) => [
        el.getAttribute('aria-label'),
        el.getAttribute('placeholder'),
      ]);
      return [...labels, ...[...root.querySelectorAll('button, .who, small, .bar span')].map((el) => el.textContent)].filter(Boolean);
    });
    expect(shown).toContain('Fragen Sie uns alles …');
    const english = new Set(Object.values(LOCALES.en!.widget).map(fill));
    expect(shown.filter((t) => english.has(t!))).toEqual([]);
    await close();
  }, 60_000);
});
