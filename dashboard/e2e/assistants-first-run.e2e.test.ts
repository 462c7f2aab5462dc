import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDashboardE2e } from './private-build.js';
import { SHOTS, expectAccessible, newPage, type Server } from './support.js';

// First run: a new owner registers and lands on the overview with nothing ticked; each step
// links to where it is done, and creating an assistant from the empty list ticks its step.

let server: Server;
let browser: Browser;
useDashboardE2e((s, b) => {
  server = s;
  browser = b;
});

describe('first run', () => {
  it('register → empty checklist → create the first assistant → its step is ticked', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto(`${server.url}/dashboard/register`);
    await page.getByLabel('Your name').fill('Nora New');
    await page.getByLabel('Organization name').fill('Nora Shop');
    await page.getByLabel('Email').fill('nora@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Getting started' }).waitFor();
    await page.getByText('0 of 5 steps done.').waitFor();
    expect(await page.getByText('(to do)').count()).toBe(5);
    const kbLink = page.getByRole('link', { name: 'Knowledge bases: Create a knowledge base' });
    expect(await kbLink.getAttribute('href')).toBe('/dashboard/knowledge');
    await page.screenshot({ path: `${SHOTS}/overview-first-run.png`, fullPage: true });
    await expectAccessible(page, 'overview, first run');

    await page.getByRole('link', { name: 'Assistants: Create an assistant' }).click();
    await page.getByRole('heading', { name: 'No assistants yet' }).waitFor();
    await expectAccessible(page, 'assistants, empty');
    await page.getByRole('button', { name: 'Create your first assistant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an assistant' });
    // The server's message at the field, the typed type kept.
    await dialog.getByLabel('Type').selectOption('discord');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => dialog.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('Type').inputValue()).toBe('discord');
    await dialog.getByLabel('Name').fill('Discord helper');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Discord helper', level: 1 }).waitFor();
    await page.getByText('Discord bot ·').waitFor();

    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByText('1 of 5 steps done.').waitFor();
    expect(await page.getByText('(done)').count()).toBe(1);

    // Delete asks first; Cancel keeps it, confirming removes it and returns to the list.
    await page.getByRole('link', { name: 'Assistants', exact: true }).click();
    await page.getByRole('link', { name: 'Discord helper', exact: true }).click();
    await page.getByRole('button', { name: 'Delete assistant' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Discord helper?' });
    await expectAccessible(page, 'delete confirmation');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Delete assistant');
    await page.getByRole('button', { name: 'Delete assistant' }).click();
    await confirm.getByRole('button', { name: 'Delete assistant' }).click();
    await page.getByRole('heading', { name: 'No assistants yet' }).waitFor();
    expect(page.url()).toMatch(/\/dashboard\/assistants$/);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
