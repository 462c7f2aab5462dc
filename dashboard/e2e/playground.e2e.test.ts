import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPrivateDashboard } from './private-build.js';
import { DEMO_LOGIN, clientFor, expectAccessible, launchBrowser, newPage, signIn, startTestServer, type Server } from './support.js';

// The playground by keyboard (Enter sends, a template answer explains itself, new conversation,
// another assistant has its own URL), and a viewer: reads every assistant page, may chat in
// the playground, cannot change anything.

let server: Server;
// Our own build: others rebuild dashboard/dist (vite empties it first) while this runs.
let build: ReturnType<typeof buildPrivateDashboard>;
let browser: Browser;
let templated: string;

beforeAll(async () => {
  build = buildPrivateDashboard();
  [server, browser] = await Promise.all([startTestServer({ dashboardDir: build.dir }), launchBrowser()]);
  const api = clientFor(server);
  templated = (
    await api.post<{ id: string }>('/assistants', {
      name: 'Front desk',
      type: 'web',
      templates: [{ id: 'hours', trigger: 'opening hours', match: 'contains', response: 'We are open from 9 to 17.' }],
    })
  ).id;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  build?.remove();
});

async function userToken(login: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(login),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

describe('playground', () => {
  it('keyboard: Enter sends, the template answer explains itself, new conversation, another assistant', async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, undefined, `/dashboard/playground/${templated}`);
    const message = page.getByLabel('Message');
    await message.focus();
    await page.keyboard.type('What are your opening hours?');
    await page.keyboard.press('Enter');
    await page.getByText('We are open from 9 to 17.').waitFor();
    await page.getByText('Why this answer').focus();
    await page.keyboard.press('Enter');
    await page.getByText(/Template response · template hours/).waitFor();
    await page.getByText('No passage matched the question.').waitFor();
    await expectAccessible(page, 'playground: template answer explained');

    await page.getByRole('button', { name: 'New conversation' }).click();
    expect(await page.getByText('We are open from 9 to 17.').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('pg-message');

    await page.getByLabel('Assistant').selectOption(server.assistantId);
    await page.waitForURL(`**/dashboard/playground/${server.assistantId}`);
    await page.getByRole('link', { name: /^Edit / }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('a viewer reads assistants and chats in the playground but cannot change anything', async () => {
    const ownerToken = await userToken(DEMO_LOGIN);
    const owner = clientFor(server, ownerToken);
    const invite = await owner.post<{ token: string }>(`/organizations/${server.organizationId}/invitations`, { role: 'viewer' });
    const viewer = { email: 'viewer@example.com', password: 'viewer password 1' };
    const accepted = await fetch(`${server.url}/v1/invitations/${invite.token}/accept`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...viewer, name: 'Vera Viewer' }),
    });
    expect(accepted.status).toBeLessThan(300);

    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, viewer);
    await page.getByRole('heading', { name: 'Getting started' }).waitFor();
    await expectAccessible(page, 'overview as a viewer');

    await page.goto(`${server.url}/dashboard/assistants`);
    await page.getByRole('table', { name: 'Assistants' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create assistant' }).count()).toBe(0);

    await page.goto(`${server.url}/dashboard/assistants/${templated}/templates`);
    await page.getByRole('heading', { name: 'Response templates' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete assistant' }).count()).toBe(0);
    expect(await page.getByLabel('Trigger of template 1').isDisabled()).toBe(true);
    await page.getByText(/changing it needs the editor role/).waitFor();
    // Testing runs patterns of the caller's choosing, so it needs the right to edit them (issue 24).
    expect(await page.getByLabel('Test message').count()).toBe(0);
    await expectAccessible(page, 'editor as a viewer');

    await page.goto(`${server.url}/dashboard/assistants/${templated}/api`);
    await page.getByText('Only admins manage API keys.').waitFor();

    await page.goto(`${server.url}/dashboard/playground/${templated}`);
    await page.getByLabel('Message').fill('opening hours');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('We are open from 9 to 17.').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
