import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDashboardE2e } from './private-build.js';
import { DEMO_LOGIN, expectAccessible, newPage, signIn, sweep, type Server } from './support.js';

// Settings: the organization's name and plan with the plan's limits; the account's name and
// password (other sessions signed out, this one kept); sign out from the account section.

let server: Server;
let browser: Browser;
useDashboardE2e((s, b) => {
  server = s;
  browser = b;
});

describe('settings', () => {
  it('the owner renames the organization and moves it to pro: the limits shown follow', async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, undefined, '/dashboard/settings');
    await page.getByRole('heading', { name: 'Rate limits' }).waitFor();
    await page.getByText(/up to 60 requests a minute and 1,000 a day/).waitFor();
    await expectAccessible(page, 'settings: organization');
    await page.getByLabel('Organization name').fill('');
    await page.getByLabel('Organization name').evaluate((el: HTMLInputElement) => {
      el.required = false;
    });
    await page.getByRole('button', { name: 'Save organization' }).click();
    await page.getByRole('alert').first().waitFor();
    await page.getByLabel('Organization name').fill('Acme Support');
    await page.getByLabel('Plan').selectOption('pro');
    await page.getByRole('button', { name: 'Save organization' }).click();
    await page.getByText(/up to 300 requests a minute and 10,000 a day/).waitFor();
    await page.getByRole('banner').getByText('Acme Support').waitFor();
    await page.getByLabel('Plan').selectOption('enterprise');
    await page.getByRole('button', { name: 'Save organization' }).click();
    await page.getByText(/up to 1,000 requests a minute and 100,000 a day/).waitFor();
    // Back to the demo's plan so the other tests see what they expect.
    await page.getByLabel('Organization name').fill('Parley Demo');
    await page.getByLabel('Plan').selectOption('free');
    await page.getByRole('button', { name: 'Save organization' }).click();
    await page.getByText(/up to 60 requests a minute/).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('account: name, password change (other sessions end, this one stays), sign out', async () => {
    // An editor joins through an invitation made with the API.
    const login = (await (
      await fetch(`${server.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(DEMO_LOGIN),
      })
    ).json()) as { data: { token: string } };
    const inv = (await (
      await fetch(`${server.url}/v1/organizations/${server.organizationId}/invitations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${login.data.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ role: 'editor' }),
      })
    ).json()) as { data: { token: string } };
    const joined = (await (
      await fetch(`${server.url}/v1/invitations/${inv.data.token}/accept`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'erin@example.com', password: 'erin password 12' }),
      })
    ).json()) as { data: { token: string } };
    const erin = { email: 'erin@example.com', password: 'erin password 12' };

    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, erin, '/dashboard/settings/account');
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await expectAccessible(page, 'settings: account');
    await page.getByLabel('Your name').fill('Erin Editor');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('banner').getByText('Erin Editor · editor').waitFor();

    await page.getByLabel('Current password').fill('not it at all');
    await page.getByLabel('New password', { exact: true }).fill('erin new password 3');
    await page.getByLabel('New password again').fill('erin new password 3');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'is not your current password' }).waitFor();
    expect(await page.getByLabel('New password', { exact: true }).inputValue()).toBe('erin new password 3');
    await page.getByLabel('Current password').fill(erin.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
    // The token from the invitation (another session) is signed out; this page still works.
    expect((await fetch(`${server.url}/v1/auth/me`, { headers: { Authorization: `Bearer ${joined.data.token}` } })).status).toBe(401);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge', exact: true }).click();
    await page.getByRole('table').waitFor();

    await page.goto(`${server.url}/dashboard/settings/account`);
    await page.getByRole('button', { name: 'Sign out of Parley' }).click();
    await page.waitForURL('**/dashboard/login');
    await signIn(page, server, { email: erin.email, password: 'erin new password 3' });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('screenshots: the three settings sections (light/dark, 1280/768) with axe', async () => {
    await sweep(browser, server, 'settings-organization', async (page) => {
      await page.goto(`${server.url}/dashboard/settings`);
      await page.getByRole('heading', { name: 'Rate limits' }).waitFor();
    });
    await sweep(browser, server, 'settings-members', async (page) => {
      await page.goto(`${server.url}/dashboard/settings/members`);
      await page.getByRole('table', { name: 'Members' }).waitFor();
      await page.getByRole('button', { name: 'Create invitation link' }).click();
      await page.getByLabel('Invitation link').waitFor();
    });
    await sweep(browser, server, 'settings-account', async (page) => {
      await page.goto(`${server.url}/dashboard/settings/account`);
      await page.getByRole('heading', { name: 'Change password' }).waitFor();
    });
  }, 180_000);
});
