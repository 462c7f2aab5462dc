import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS, hostPage, launchBrowser, newPage, patchAssistant, sel, startHostSite, startTestServer, type Server } from './support.js';

// Theme, position, initial state, small screens, hostile host pages and origins, against a
// real server whose assistant settings each test changes through the API.

let server: Server;
let browser: Browser;
let site: Awaited<ReturnType<typeof startHostSite>>;
let defaults: Record<string, unknown>;

beforeAll(async () => {
  [server, browser, site] = await Promise.all([startTestServer(), launchBrowser(), startHostSite()]);
  const res = await fetch(`${server.url}/v1/assistants/${server.assistantId}`, { headers: { Authorization: `Bearer ${server.apiKey}` } });
  // The customer's site embeds the widget from another origin, as in production.
  defaults = { ...((await res.json()) as { data: { widget: Record<string, unknown> } }).data.widget, allowedOrigins: [site.origin] };
  await patchAssistant(server, { widget: defaults });
}, 60_000);

afterEach(async () => {
  await patchAssistant(server, { widget: defaults });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await server?.close();
});

const box = async (page: Page, hook: string) => (await page.locator(sel(hook)).boundingBox())!;
const style = (page: Page, hook: string, prop: string) =>
  page.locator(sel(hook)).evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), prop);

describe('appearance', () => {
  it('dark theme, bottom-left, expanded on load without stealing focus', async () => {
    await patchAssistant(server, { widget: { theme: 'dark', position: 'bottom-left', initialState: 'expanded' } });
    const { context, page } = await newPage(browser);
    await page.goto(
      site.serve('/search', hostPage(server, { body: '<h1>Host page</h1><input id="search" autofocus placeholder="Search">' })),
    );
    await page.locator(sel('panel')).waitFor();
    // Expanded by configuration is not the visitor's action: the page keeps its focus.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search');

    const panel = await box(page, 'panel');
    const launcher = await box(page, 'launcher');
    expect(launcher.x).toBeLessThan(40);
    expect(launcher.y + launcher.height).toBeGreaterThan(800 - 40);
    expect(panel.x).toBeLessThan(40);
    expect(panel.y + panel.height).toBeLessThan(launcher.y);
    expect(await style(page, 'panel', 'background-color')).toBe('rgb(27, 29, 36)');
    await page.locator(sel('input')).fill('How do I connect Slack?');
    await page.locator(sel('send')).click();
    await page.locator(`${sel('message')}[data-role="assistant"] ${sel('feedback-up')}`).waitFor();
    await page.screenshot({ path: `${SHOTS}/dark-left.png` });
    await context.close();
  }, 60_000);

  it('custom colours, icon and avatar, top-right: contrasting text on a light primary', async () => {
    const icon = site.serve(
      '/icon.svg',
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M12 2l3 7h7l-5.5 4.5 2 7.5-6.5-4.5-6.5 4.5 2-7.5L2 9h7z" fill="#2b2118"/></svg>',
      'image/svg+xml',
    );
    const avatar = site.serve(
      '/avatar.svg',
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><circle cx="18" cy="18" r="18" fill="#2b2118"/><circle cx="18" cy="14" r="6" fill="#ffd23f"/><path d="M6 31a12 10 0 0 1 24 0" fill="#ffd23f"/></svg>',
      'image/svg+xml',
    );
    await patchAssistant(server, {
      avatarUrl: avatar,
      widget: {
        theme: 'custom',
        colors: { primary: '#ffd23f', background: '#fffdf6', text: '#2b2118' },
        position: 'top-right',
        iconUrl: icon,
      },
    });
    const { context, page } = await newPage(browser);
    await page.goto(site.serve('/', hostPage(server)));
    await expect
      .poll(() => page.locator(`${sel('launcher')} img`).evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/custom-icon.png`, clip: { x: 1180, y: 0, width: 100, height: 100 } });
    await page.locator(sel('launcher')).click();
    await expect
      .poll(() => page.locator(`${sel('panel')} img.avatar`).evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    const launcher = await box(page, 'launcher');
    const panel = await box(page, 'panel');
    expect(launcher.x + launcher.width).toBeGreaterThan(1280 - 40);
    expect(launcher.y).toBeLessThan(40);
    expect(panel.y).toBeGreaterThan(launcher.y + launcher.height);
    expect(await style(page, 'launcher', 'background-color')).toBe('rgb(255, 210, 63)');
    // dark icon on the light yellow, not white
    const on = await style(page, 'launcher', 'color');
    const [r, g, b] = on.match(/[\d.]+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(100);
    expect(await style(page, 'panel', 'background-color')).toBe('rgb(255, 253, 246)');
    await page.screenshot({ path: `${SHOTS}/custom-top-right.png` });
    await context.close();
    await patchAssistant(server, { avatarUrl: null });
  }, 60_000);

  it('animates only when the visitor allows motion', async () => {
    for (const reducedMotion of [false, true]) {
      const { context, page } = await newPage(browser, { reducedMotion });
      await page.goto(site.serve('/', hostPage(server)));
      await page.locator(sel('launcher')).click();
      expect(await style(page, 'panel', 'animation-name')).toBe(reducedMotion ? 'none' : 'in');
      await context.close();
    }
  }, 60_000);

  it('is a full-screen panel on a phone, and its close button returns to the launcher', async () => {
    const { context, page } = await newPage(browser, { width: 375, height: 700 });
    await page.goto(`${server.url}/demo/`);
    await page.locator(sel('launcher')).click();
    await page.locator(sel('panel')).waitFor();
    expect(await box(page, 'panel')).toEqual({ x: 0, y: 0, width: 375, height: 700 });
    await page.locator(sel('input')).fill('How do I embed the widget?');
    await page.locator(sel('send')).click();
    await page.locator(`${sel('message')}[data-role="assistant"] ${sel('feedback-up')}`).waitFor();
    // A long code line scrolls inside its block; the conversation never scrolls sideways.
    expect(await page.locator('[role="log"]').evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/mobile.png` });
    await page.locator(sel('close')).click();
    await expect.poll(() => page.locator(sel('panel')).count()).toBe(0);
    expect(await page.locator(sel('launcher')).isVisible()).toBe(true);
    await context.close();
  }, 60_000);

  it('survives a hostile host page, and does not restyle it', async () => {
    const { context, page, errors } = await newPage(browser);
    const hostile = `<style>
      * { all: unset !important; }
      div { display: none !important; }
      button, textarea { display: none !important; visibility: hidden !important; }
      body * { font-size: 40px !important; color: red !important; }
      parley-widget, [data-parley] { opacity: 0 !important; }
      html { font-size: 8px; }
    </style>`;
    await page.goto(
      site.serve(
        '/hostile',
        hostPage(server, { head: hostile, body: '<p id="probe">Host text</p><button id="hostbtn">Host button</button>' }),
      ),
    );
    const before = await page.evaluate(() => {
      const s = (el: Element) => {
        const c = getComputedStyle(el);
        return [c.font, c.color, c.display, c.margin].join('|');
      };
      return [s(document.body), s(document.getElementById('probe')!), s(document.getElementById('hostbtn')!)];
    });
    await page.locator(sel('launcher')).waitFor();
    expect(await page.locator(sel('launcher')).isVisible()).toBe(true);
    const launcher = await box(page, 'launcher');
    expect(launcher.width).toBe(56);
    await page.locator(sel('launcher')).click();
    await page.locator(sel('input')).fill('How do I create an API key?');
    await page.locator(sel('send')).click();
    const answer = page.locator(`${sel('message')}[data-role="assistant"]`);
    await answer.locator(sel('feedback-up')).waitFor();
    expect(await style(page, 'panel', 'font-size')).toBe('14px');
    expect(await answer.locator('.bubble').evaluate((el) => getComputedStyle(el).color)).not.toBe('rgb(255, 0, 0)');
    expect((await box(page, 'panel')).width).toBe(380);
    const after = await page.evaluate(() => {
      const s = (el: Element) => {
        const c = getComputedStyle(el);
        return [c.font, c.color, c.display, c.margin].join('|');
      };
      return [s(document.body), s(document.getElementById('probe')!), s(document.getElementById('hostbtn')!)];
    });
    expect(after).toEqual(before);
    await page.screenshot({ path: `${SHOTS}/hostile.png` });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});

// The same host site under another name is another origin, one the assistant does not list.
const foreignSite = () => `${site.serve('/shop', hostPage(server)).replace('127.0.0.1', 'localhost')}`;
const foreignOrigin = () => new URL(foreignSite()).origin;

describe('origins', () => {
  it('a site that is not allowed sees a clear message, not a broken chat', async () => {
    const { context, page } = await newPage(browser);
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await page.goto(foreignSite());
    await page.locator(sel('launcher')).click();
    const error = page.locator(sel('error'));
    await error.waitFor();
    expect(await error.textContent()).toMatch(/isn.t available on this website/);
    await expect.poll(() => page.locator(sel('retry')).count()).toBe(0);
    expect(warnings.join('\n')).toContain(foreignOrigin());
    await page.screenshot({ path: `${SHOTS}/disallowed-origin.png` });
    await context.close();
  }, 60_000);

  it('a site listed in allowedOrigins chats cross-origin (CORS preflight included)', async () => {
    await patchAssistant(server, { widget: { allowedOrigins: [foreignOrigin()] } });
    const { context, page, errors } = await newPage(browser);
    await page.goto(foreignSite());
    await page.locator(sel('launcher')).click();
    await page.locator(sel('input')).fill('How do I connect Slack?');
    await page.locator(sel('send')).click();
    await page
      .locator(`${sel('message')}[data-role="assistant"] ${sel('source')}`)
      .first()
      .waitFor();
    await expect.poll(() => page.locator(sel('error')).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
