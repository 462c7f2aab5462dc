import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPrivateDashboard } from './private-build.js';
import { SHOTS, clientFor, expectAccessible, launchBrowser, newPage, signIn, startTestServer, type Server } from './support.js';

// Screenshot sweep of the Dashboard I pages (overview, assistants, every editor section,
// playground with an explained answer) in light and dark at 1280 and 768 px, axe on each.
// One sign-in per theme × width keeps this file within its time budget.

let server: Server;
// Our own build: others rebuild dashboard/dist (vite empties it first) while this runs.
let build: ReturnType<typeof buildPrivateDashboard>;
let browser: Browser;

beforeAll(async () => {
  build = buildPrivateDashboard();
  [server, browser] = await Promise.all([startTestServer({ dashboardDir: build.dir }), launchBrowser()]);
  // Something in every section: a template, a variable, a bound key.
  const api = clientFor(server);
  await api.patch(`/assistants/${server.assistantId}`, {
    templates: [{ id: 'hours', trigger: 'opening hours', match: 'contains', response: 'We answer around the clock.' }],
    variables: { company_name: 'Parley Demo' },
  });
  await api.post('/api-keys', {
    name: 'Website backend',
    permissions: ['chat'],
    assistantId: server.assistantId,
    allowedIps: ['203.0.113.0/24'],
    rateLimit: { perMinute: 30 },
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  build?.remove();
});

const SECTIONS: Array<[string, RegExp]> = [
  ['general', /^General$/],
  ['model', /^Model$/],
  ['knowledge', /^Knowledge$/],
  ['prompt', /^Prompt$/],
  ['behaviour', /^Behaviour$/],
  ['templates', /^Response templates$/],
  ['fallback', /^Fallback$/],
  ['widget', /^Widget$/],
  ['channels', /^Channels$/],
  ['api', /^API keys for this assistant$/],
];

async function shoot(page: Page, name: string, scheme: string, width: number): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}-${scheme}-${width}.png`, fullPage: true });
  await expectAccessible(page, `${name} (${scheme}, ${width}px)`);
}

describe('Dashboard I screenshot sweep', () => {
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 768]) {
      it(`${scheme} ${width}px`, async () => {
        const { context, page, errors } = await newPage(browser, { width, colorScheme: scheme });
        await signIn(page, server);
        await page.getByRole('heading', { name: 'Getting started' }).waitFor();
        await shoot(page, 'overview', scheme, width);

        await page.goto(`${server.url}/dashboard/assistants`);
        await page.getByRole('table', { name: 'Assistants' }).waitFor();
        await shoot(page, 'assistants', scheme, width);

        for (const [section, heading] of SECTIONS) {
          await page.goto(`${server.url}/dashboard/assistants/${server.assistantId}/${section}`);
          await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
          if (section === 'widget') await page.frameLocator('iframe[title="Widget preview"]').locator('[data-parley="launcher"]').waitFor();
          if (section === 'api') await page.getByRole('table', { name: 'Keys bound to this assistant' }).waitFor();
          if (section === 'knowledge')
            await page.getByRole('table', { name: 'Connected knowledge bases' }).getByRole('link').first().waitFor();
          await shoot(page, `editor-${section}`, scheme, width);
        }

        await page.goto(`${server.url}/dashboard/playground/${server.assistantId}`);
        await page.getByLabel('Message').fill('How do I connect Slack?');
        await page.getByRole('button', { name: 'Send' }).click();
        await page.getByText('Why this answer').click();
        await page.getByRole('heading', { name: /Retrieved passages/ }).waitFor();
        await shoot(page, 'playground', scheme, width);

        expect(errors).toEqual([]);
        await context.close();
      }, 60_000);
    }
  }
});
