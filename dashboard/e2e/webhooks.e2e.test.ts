import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../server/test/webhook-receiver.js';
import { buildPrivateDashboard } from './private-build.js';
import { expectAccessible, launchBrowser, newPage, signIn, startTestServer, sweep, type Server } from './support.js';

// Webhooks to a real local receiver: create (the secret shown once), send a test and see its
// delivery in the log, a failing endpoint's attempt with its next retry and "Redeliver",
// disable/enable, delete.

let server: Server;
let browser: Browser;
let receiver: Receiver;
let build: ReturnType<typeof buildPrivateDashboard>;

beforeAll(async () => {
  build = buildPrivateDashboard();
  [server, browser, receiver] = await Promise.all([
    startTestServer({ config: { webhookAllowPrivate: true }, dashboardDir: build.dir }),
    launchBrowser(),
    startReceiver((r) => (r.path.startsWith('/fail') ? { status: 503, body: 'down for maintenance' } : 200)),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await server?.close();
  build?.remove();
});

describe('webhooks', () => {
  it('create (secret once) → send a test → the delivery in the log → disable → delete', async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, undefined, '/dashboard/webhooks');
    await page.getByRole('heading', { name: 'No webhooks yet' }).waitFor();
    await expectAccessible(page, 'webhooks: empty');

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook' });
    // "*" is the default; picking single events means unticking it first.
    expect(await dialog.getByLabel('message.sent').isDisabled()).toBe(true);
    await dialog.getByLabel(/^All events/).uncheck();
    await dialog.getByLabel('message.sent').check();
    await dialog.getByLabel('conversation.ended').check();
    await dialog.getByLabel('Endpoint URL').fill('ftp://example.com/hook');
    await dialog.getByLabel('Assistant', { exact: true }).selectOption(server.assistantId);
    await dialog.getByLabel('Description').fill('CRM sync');
    await expectAccessible(page, 'add webhook dialog');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await dialog.getByRole('alert').first().waitFor();
    expect(await dialog.getByLabel('Description').inputValue()).toBe('CRM sync');
    await dialog.getByLabel('Endpoint URL').fill(receiver.url);
    await dialog.getByRole('button', { name: 'Add webhook' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Webhook signing secret' });
    const secret = (await secretDialog.getByLabel(/^Signing secret for/).textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await expectAccessible(page, 'secret shown once');
    await secretDialog.getByRole('button', { name: 'I have copied the secret' }).click();
    expect(await page.content()).not.toContain(secret);
    const row = page.getByRole('row').filter({ hasText: receiver.url });
    await row.getByText('conversation.ended, message.sent').waitFor();
    await row.getByText('enabled').waitFor();

    // The webhook's page: send a test and watch the log.
    await row.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { name: 'Webhook', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No deliveries yet' }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: 'Test event queued' }).waitFor();
    const logRow = page.getByRole('row').filter({ hasText: 'webhook.test' });
    await logRow.getByText('succeeded').waitFor({ timeout: 15_000 });
    await logRow.getByRole('cell', { name: '200', exact: true }).waitFor();
    await logRow.getByText(/\d+ ms/).waitFor();
    const got = await receiver.waitFor((all) => all.some((r) => r.json.event === 'webhook.test'));
    expect(got.find((r) => r.json.event === 'webhook.test')!.signature).toMatch(/^v1,/);
    await expectAccessible(page, 'webhook delivery log');

    // Disable: no test while disabled; enable again.
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('status').filter({ hasText: 'Disabled' }).waitFor();
    expect(await page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('status').filter({ hasText: 'Enabled.' }).waitFor();

    // Delete with confirmation.
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this webhook?' }).getByRole('button', { name: 'Delete webhook' }).click();
    await page.waitForURL('**/dashboard/webhooks');
    await page.getByRole('heading', { name: 'No webhooks yet' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('a failing endpoint: the attempt shows code, error and next retry; Redeliver queues another attempt', async () => {
    const hook = (await (
      await fetch(`${server.url}/v1/webhooks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: receiver.url.replace('/hooks', '/fail'), events: ['*'] }),
      })
    ).json()) as { data: { id: string } };
    const { context, page } = await newPage(browser);
    await signIn(page, server, undefined, `/dashboard/webhooks/${hook.data.id}`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    const failed = page.getByRole('row').filter({ hasText: 'webhook.test' }).first();
    await failed.getByText('failed').waitFor({ timeout: 15_000 });
    await failed.getByRole('cell', { name: '503', exact: true }).waitFor();
    expect(await failed.getByRole('cell').nth(7).textContent()).not.toBe('—');
    const before = await page.getByRole('row').count();
    await failed.getByRole('button', { name: /^Redeliver webhook.test/ }).click();
    await page.getByRole('status').filter({ hasText: 'Redelivery queued' }).waitFor();
    await expect.poll(() => page.getByRole('row').count(), { timeout: 15_000 }).toBeGreaterThan(before);
    await context.close();
  }, 60_000);

  it('screenshots: webhooks list and a webhook with its log (light/dark, 1280/768) with axe', async () => {
    const created = (await (
      await fetch(`${server.url}/v1/webhooks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, events: ['message.sent', 'conversation.started'], description: 'Analytics pipeline' }),
      })
    ).json()) as { data: { id: string } };
    await fetch(`${server.url}/v1/webhooks/${created.data.id}/test`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.apiKey}` },
    });
    await sweep(browser, server, 'webhooks', async (page) => {
      await page.goto(`${server.url}/dashboard/webhooks`);
      await page.getByRole('table').waitFor();
    });
    await sweep(browser, server, 'webhook', async (page) => {
      await page.goto(`${server.url}/dashboard/webhooks/${created.data.id}`);
      await page.getByRole('table').waitFor();
    });
  }, 120_000);
});
