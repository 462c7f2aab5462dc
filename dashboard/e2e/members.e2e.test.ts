import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDashboardE2e } from './private-build.js';
import { SHOTS, expectAccessible, newPage, signIn, type Server } from './support.js';

// Members through invitation links: the owner copies a viewer's link, a new person opens it in
// a fresh browser and registers; the viewer sees everything without write controls and the API
// refuses their writes. An existing account joins by signing in. Role change, removal, revoke.

let server: Server;
let browser: Browser;
useDashboardE2e((s, b) => {
  server = s;
  browser = b;
});

/** The owner creates an invitation link for `role` on the members page and copies it. */
async function copyInviteLink(page: Page, role: 'Admin' | 'Editor' | 'Viewer'): Promise<string> {
  await page.getByLabel('Role', { exact: true }).selectOption(role.toLowerCase());
  const shown = page.getByLabel('Invitation link');
  const before = (await shown.count()) ? await shown.textContent() : null;
  await page.getByRole('button', { name: 'Create invitation link' }).click();
  // A new link replaces the one shown before.
  await expect.poll(async () => ((await shown.count()) ? shown.textContent() : null)).not.toBe(before);
  const link = await shown.textContent();
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(link);
  return copied;
}

/** A write the dashboard would make, sent from the page with its own cookie and CSRF header. */
const tryWrite = (page: Page, method: string, path: string, body: unknown) =>
  page.evaluate(
    async ([m, p, b]) => {
      const res = await fetch(`/v1${p}`, {
        method: m as string,
        headers: { 'X-Parley-CSRF': '1', 'Content-Type': 'application/json' },
        body: JSON.stringify(b),
        credentials: 'same-origin',
      });
      return { status: res.status, body: await res.json() };
    },
    [method, path, body] as const,
  );

describe('members', () => {
  it('invite a viewer by link → they register in a fresh browser → read-only everywhere, and the API refuses', async () => {
    const owner = await newPage(browser);
    await signIn(owner.page, server, undefined, '/dashboard/settings/members');
    await owner.page.getByRole('heading', { name: 'Members' }).waitFor();
    await owner.page.getByRole('table').first().waitFor();
    const url = await copyInviteLink(owner.page, 'Viewer');
    expect(url).toMatch(new RegExp(`^${server.url}/dashboard/invite/`));
    await owner.page.getByRole('table', { name: 'Pending invitations' }).getByText('Viewer').waitFor();
    await expectAccessible(owner.page, 'members with a new invitation');

    // A new person, a fresh browser context.
    const viewer = await newPage(browser);
    await viewer.page.goto(url);
    await viewer.page.getByText(/invited to Parley Demo as Viewer/).waitFor();
    await expectAccessible(viewer.page, 'invitation page');
    await viewer.page.getByLabel('Your name').fill('Vera Viewer');
    await viewer.page.getByLabel('Email').fill('vera@example.com');
    await viewer.page.getByLabel('Password').fill('vera password 12');
    await viewer.page.getByRole('button', { name: 'Create account and join Parley Demo' }).click();
    await viewer.page.getByRole('navigation', { name: 'Main' }).waitFor();
    await viewer.page.getByText('Vera Viewer · viewer').waitFor();

    // Knowledge: no create button, a read-only note, no delete/upload on a base.
    await viewer.page.goto(`${server.url}/dashboard/knowledge`);
    await viewer.page.getByRole('table').waitFor();
    await viewer.page.getByRole('note').filter({ hasText: 'can view knowledge bases but not change them' }).waitFor();
    expect(await viewer.page.getByRole('button', { name: 'New knowledge base' }).count()).toBe(0);
    await viewer.page.goto(`${server.url}/dashboard/knowledge/${server.knowledgeBaseId}`);
    await viewer.page.getByRole('table').waitFor();
    expect(await viewer.page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: 'Rename or describe' }).count()).toBe(0);
    expect(await viewer.page.getByRole('group', { name: 'Drop files to upload' }).count()).toBe(0);
    // Reading still works: test retrieval.
    await viewer.page.getByLabel('Question').fill('how do I add the widget');
    await viewer.page.getByRole('button', { name: 'Search' }).click();
    await viewer.page.getByRole('list', { name: 'Ranked passages' }).waitFor();
    await expectAccessible(viewer.page, 'knowledge base as a viewer');
    // Keys, webhooks: explained, not offered.
    await viewer.page.goto(`${server.url}/dashboard/api-keys`);
    await viewer.page.getByRole('note').filter({ hasText: 'managed by admins' }).waitFor();
    expect(await viewer.page.getByRole('button', { name: 'Create API key' }).count()).toBe(0);
    await viewer.page.goto(`${server.url}/dashboard/webhooks`);
    await viewer.page.getByRole('note').filter({ hasText: 'managed by admins' }).waitFor();
    // Settings: organization fields disabled, no member controls, no invitations.
    await viewer.page.goto(`${server.url}/dashboard/settings`);
    expect(await viewer.page.getByLabel('Organization name').isDisabled()).toBe(true);
    expect(await viewer.page.getByRole('button', { name: 'Save organization' }).count()).toBe(0);
    await viewer.page.goto(`${server.url}/dashboard/settings/members`);
    await viewer.page.getByRole('table').waitFor();
    expect(await viewer.page.getByRole('combobox', { name: /^Role of/ }).count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: 'Create invitation link' }).count()).toBe(0);
    await expectAccessible(viewer.page, 'members as a viewer');

    // The API is the authority: the viewer's own session is refused every write.
    expect((await tryWrite(viewer.page, 'POST', '/knowledge-bases', { name: 'Sneaky' })).status).toBe(403);
    expect((await tryWrite(viewer.page, 'DELETE', `/knowledge-bases/${server.knowledgeBaseId}`, {})).status).toBe(403);
    expect((await tryWrite(viewer.page, 'PATCH', `/assistants/${server.assistantId}`, { name: 'Renamed' })).status).toBe(403);
    expect((await tryWrite(viewer.page, 'POST', '/api-keys', { name: 'k', permissions: ['chat'] })).status).toBe(403);
    expect((await tryWrite(viewer.page, 'POST', `/organizations/${server.organizationId}/invitations`, { role: 'viewer' })).status).toBe(
      403,
    );

    // The link was single use.
    const again = await newPage(browser);
    await again.page.goto(url);
    await again.page.getByRole('alert').filter({ hasText: 'used, revoked or has expired' }).waitFor();
    await again.context.close();

    // The owner makes Vera an editor: after a reload she can create a base.
    await owner.page.reload();
    const veraRow = owner.page.getByRole('row').filter({ hasText: 'vera@example.com' });
    await veraRow.getByRole('combobox', { name: 'Role of vera@example.com' }).selectOption('editor');
    await expect.poll(() => veraRow.getByRole('combobox').inputValue()).toBe('editor');
    await viewer.page.goto(`${server.url}/dashboard/knowledge`);
    await viewer.page.getByRole('button', { name: 'New knowledge base' }).waitFor();

    // As an admin Vera mints a key: the keys page says she created it (issue 24).
    await veraRow.getByRole('combobox', { name: 'Role of vera@example.com' }).selectOption('admin');
    await expect.poll(() => veraRow.getByRole('combobox').inputValue()).toBe('admin');
    const veraKey = await tryWrite(viewer.page, 'POST', '/api-keys', { name: 'Vera script', permissions: ['chat'] });
    expect(veraKey.status).toBe(201);
    await owner.page.goto(`${server.url}/dashboard/api-keys`);
    const keyRow = owner.page.getByRole('row').filter({ hasText: 'Vera script' });
    await keyRow.getByRole('cell', { name: 'Vera Viewer' }).waitFor();
    await owner.page.goto(`${server.url}/dashboard/settings/members`);

    // Removal, confirmed: the dialog lists what she created and what becomes of it; her key is
    // revoked; her session ends and her next step lands on sign-in.
    await veraRow.getByRole('button', { name: 'Remove vera@example.com' }).click();
    const confirm = owner.page.getByRole('dialog', { name: 'Remove this member?' });
    await confirm.getByText(/API key “Vera script” \(sk_…\w{4}\): revoked/).waitFor();
    await confirm.getByRole('radio', { name: /transfer them to me/ }).check();
    await confirm.getByText(/API key “Vera script” \(sk_…\w{4}\): transferred to you/).waitFor();
    for (const colorScheme of ['light', 'dark'] as const) {
      await owner.page.emulateMedia({ colorScheme });
      await owner.page.screenshot({ path: `${SHOTS}/members-remove-dialog-${colorScheme}.png` });
    }
    await confirm.getByRole('radio', { name: /Revoke the keys and disable the webhooks/ }).check();
    await expectAccessible(owner.page, 'remove member dialog');
    await confirm.getByRole('button', { name: 'Remove member' }).click();
    await veraRow.waitFor({ state: 'detached' });
    await owner.page.goto(`${server.url}/dashboard/api-keys`);
    await owner.page.getByRole('heading', { name: 'API keys' }).waitFor();
    await owner.page.getByRole('table').or(owner.page.getByText('No API keys yet')).first().waitFor();
    expect(await owner.page.getByRole('row').filter({ hasText: 'Vera script' }).count()).toBe(0);
    await viewer.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Assistants' }).click();
    await viewer.page.waitForURL('**/dashboard/login?next=**');
    expect(owner.errors).toEqual([]);
    await viewer.context.close();
    await owner.context.close();
  }, 150_000);

  it('an existing account joins by signing in through the link; a pending link can be revoked', async () => {
    await fetch(`${server.url}/v1/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'sam@elsewhere.example', password: 'sam password 123', name: 'Sam', organizationName: 'Elsewhere' }),
    });
    const owner = await newPage(browser);
    await signIn(owner.page, server, undefined, '/dashboard/settings/members');
    await owner.page.getByRole('table').first().waitFor();
    const url = await copyInviteLink(owner.page, 'Editor');

    const sam = await newPage(browser);
    await sam.page.goto(url);
    await sam.page.getByLabel('Yes, sign in with it').check();
    await sam.page.getByLabel('Email').fill('sam@elsewhere.example');
    await sam.page.getByLabel('Password').fill('wrong password');
    await sam.page.getByRole('button', { name: 'Sign in and join Parley Demo' }).click();
    await sam.page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await sam.page.getByLabel('Password').fill('sam password 123');
    await sam.page.getByRole('button', { name: 'Sign in and join Parley Demo' }).click();
    await sam.page.getByText('Sam · editor').waitFor();
    await sam.page.getByText('Parley Demo').first().waitFor();
    await sam.context.close();

    // Another link, revoked before use.
    const revoked = await copyInviteLink(owner.page, 'Viewer');
    const pending = owner.page.getByRole('table', { name: 'Pending invitations' });
    await pending.getByRole('button', { name: /^Revoke the viewer invitation/ }).click();
    await owner.page.getByRole('dialog', { name: 'Revoke this invitation?' }).getByRole('button', { name: 'Revoke invitation' }).click();
    await pending.waitFor({ state: 'detached' });
    const late = await newPage(browser);
    await late.page.goto(revoked);
    await late.page.getByRole('alert').filter({ hasText: 'used, revoked or has expired' }).waitFor();
    await late.context.close();
    await owner.context.close();
  }, 60_000);

  it('screenshots: the invitation page (light/dark, 1280/768) with axe', async () => {
    const login = (await (
      await fetch(`${server.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'demo@parley.local', password: 'parley-demo-password' }),
      })
    ).json()) as { data: { token: string } };
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 768]) {
        const inv = (await (
          await fetch(`${server.url}/v1/organizations/${server.organizationId}/invitations`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${login.data.token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ role: 'editor' }),
          })
        ).json()) as { data: { url: string } };
        const { context, page, errors } = await newPage(browser, { width, colorScheme });
        await page.goto(inv.data.url);
        await page.getByRole('button', { name: /^Create account and join/ }).waitFor();
        await page.screenshot({ path: `/tmp/dashboard-shots/invite-${colorScheme}-${width}.png`, fullPage: true });
        await expectAccessible(page, `invite (${colorScheme}, ${width}px)`);
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  }, 60_000);
});
