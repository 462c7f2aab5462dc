import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { createApiClient, type ApiClient } from '../src/lib/api.js';
import { startTestServer } from '../../server/test/test-server.js';
import { launchBrowser } from '../../widget/e2e/support.js';

// Shared plumbing for the dashboard's end-to-end tests: a real Parley (demo seeded, serving
// the built dashboard from dashboard/dist), real headless Chromium (Debian's), axe-core run
// inside the page, and a screenshot sweep helper (light and dark, 1280 and 768 px).

export const SHOTS = '/tmp/dashboard-shots';
mkdirSync(SHOTS, { recursive: true });

export type Server = Awaited<ReturnType<typeof startTestServer>>;
export { launchBrowser, startTestServer };

export const DEMO_LOGIN = { email: 'demo@parley.local', password: 'parley-demo-password' };

export async function newPage(
  browser: Browser,
  opts: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 860 },
    colorScheme: opts.colorScheme ?? 'light',
    reducedMotion: 'reduce',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // 4xx answers the test provokes on purpose show up as console errors; keep script errors.
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  return { context, page, errors };
}

/** Signs in through the form, as a person does, and waits for the signed-in shell. */
export async function signIn(page: Page, server: Server, login = DEMO_LOGIN, path = '/dashboard/'): Promise<void> {
  await page.goto(`${server.url}${path}`);
  await page.getByLabel('Email').fill(login.email);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page; fails on any serious or critical violation, naming each. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // Evaluated through the DevTools protocol: the dashboard's CSP (script-src 'self') refuses inline script tags.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
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

/**
 * Screenshots one page in light and dark at 1280 and 768 px, with axe on each. `open` navigates
 * a fresh signed-in page to the screen and waits until it shows its content.
 */
export async function sweep(browser: Browser, server: Server, name: string, open: (page: Page) => Promise<void>): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 768]) {
      const { context, page, errors } = await newPage(browser, { width, colorScheme });
      await signIn(page, server);
      await open(page);
      await page.screenshot({ path: `${SHOTS}/${name}-${colorScheme}-${width}.png`, fullPage: true });
      await expectAccessible(page, `${name} (${colorScheme}, ${width}px)`);
      expect(errors, `${name}: script errors`).toEqual([]);
      await context.close();
    }
  }
}

/** An API client for page-model unit tests: a real server, a bearer token instead of the cookie. */
export function clientFor(server: Server, token: string = server.apiKey): ApiClient {
  return createApiClient({ origin: server.url, headers: { Authorization: `Bearer ${token}` } });
}
