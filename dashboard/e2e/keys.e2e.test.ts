import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDashboardE2e } from './private-build.js';
import { expectAccessible, newPage, signIn, sweep, type Server } from './support.js';

// API keys as an owner manages them: create one (shown once, copied, then gone from the page)
// and use it for chat from outside the browser; rotate with a grace period; revoke.

let server: Server;
let browser: Browser;
useDashboardE2e((s, b) => {
  server = s;
  browser = b;
});

async function chat(key: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/v1/integrations/${server.assistantId}/chat`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ message: 'How do I create an API key?' }),
  });
  return { status: res.status, body: await res.json() };
}

describe('api keys', () => {
  it('create (shown once, copied) → chat with it → rotate with grace → revoke', async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, undefined, '/dashboard/api-keys');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByRole('table').waitFor();
    await expectAccessible(page, 'api keys list');

    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    // The owner may grant every permission; the form offers exactly those.
    expect(await dialog.getByRole('group', { name: 'Permissions' }).getByRole('checkbox').count()).toBe(11);
    await dialog.getByLabel('Name', { exact: true }).fill('Website backend');
    await dialog.getByLabel(/\(conversations:read\)/).check();
    await dialog.getByLabel('Assistant', { exact: true }).selectOption(server.assistantId);
    // Over the plan's limit (free: 60/min): the field itself refuses it.
    await dialog.getByLabel('Requests per minute').fill('5000');
    expect(await dialog.getByLabel('Requests per minute').evaluate((el: HTMLInputElement) => el.validity.rangeOverflow)).toBe(true);
    await dialog.getByLabel('Requests per minute').fill('30');
    // A bad IP rule: the server's message at its field, everything typed kept.
    await dialog.getByLabel('Allowed IP addresses').fill('127.0.0.1, not-an-ip');
    await expectAccessible(page, 'create key dialog');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'must be an IPv4/IPv6 address or CIDR block' }).waitFor();
    expect(await dialog.getByLabel('Allowed IP addresses').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).toBe('Website backend');
    await expectAccessible(page, 'create key dialog with a field error');
    await dialog.getByLabel('Allowed IP addresses').fill('127.0.0.1, ::1');
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const reveal = page.getByRole('dialog', { name: 'Your new API key' });
    await reveal.getByText('it is shown only once').waitFor();
    const key = (await reveal.getByLabel('API key “Website backend”').textContent())!;
    expect(key).toMatch(/^sk_[A-Za-z0-9_-]{43,}$/);
    await expectAccessible(page, 'new key shown once');
    await reveal.getByRole('button', { name: 'Copy key' }).click();
    await reveal.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await reveal.getByRole('button', { name: 'I have copied the key' }).click();
    await reveal.waitFor({ state: 'detached' });
    // Gone from the page for good: only the last four characters remain.
    expect(await page.content()).not.toContain(key);
    const row = page.getByRole('row').filter({ hasText: 'Website backend' });
    await row.getByText(`sk_…${key.slice(-4)}`).waitFor();
    await row.getByText('conversations:read').waitFor();
    await row.getByText('limits: 30/min').waitFor();

    // The key works for chat, from outside the browser.
    const answer = await chat(key);
    expect(answer.status).toBe(200);
    expect(answer.body.response.length).toBeGreaterThan(0);
    await page.reload();
    await row.getByRole('cell').nth(4).filter({ hasNotText: 'Never' }).waitFor();

    // Rotate with a 2-hour grace period: the new key is shown once, both work.
    await row.getByRole('button', { name: 'Rotate Website backend' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate this key?' });
    await rotate.getByLabel('Grace period').fill('2');
    await rotate.getByLabel('Unit').selectOption('hours');
    await expectAccessible(page, 'rotate dialog');
    await rotate.getByRole('button', { name: 'Rotate key' }).click();
    const rotated = page.getByRole('dialog', { name: 'The rotated key' });
    const newKey = (await rotated.getByLabel('API key “Website backend”').textContent())!;
    expect(newKey).not.toBe(key);
    await rotated.getByRole('button', { name: 'I have copied the key' }).click();
    expect((await chat(key)).status).toBe(200);
    expect((await chat(newKey)).status).toBe(200);
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Website backend' }).count()).toBe(2);

    // Revoke the new one with confirmation: it stops at once.
    const newRow = page.getByRole('row').filter({ hasText: `sk_…${newKey.slice(-4)}` });
    await newRow.getByRole('button', { name: 'Revoke Website backend' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this key?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await chat(newKey)).status).toBe(200);
    await newRow.getByRole('button', { name: 'Revoke Website backend' }).click();
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await newRow.waitFor({ state: 'detached' });
    expect((await chat(newKey)).status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('screenshots: api keys (light/dark, 1280/768) with axe', async () => {
    await sweep(browser, server, 'api-keys', async (page) => {
      await page.goto(`${server.url}/dashboard/api-keys`);
      await page.getByRole('table').waitFor();
    });
    await sweep(browser, server, 'api-keys-create', async (page) => {
      await page.goto(`${server.url}/dashboard/api-keys`);
      await page.getByRole('button', { name: 'Create API key' }).click();
      await page.getByRole('dialog', { name: 'Create API key' }).waitFor();
    });
  }, 120_000);
});
