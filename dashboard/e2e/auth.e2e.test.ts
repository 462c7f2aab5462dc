import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDashboardE2e } from './private-build.js';
import { DEMO_LOGIN, expectAccessible, newPage, signIn, type Server } from './support.js';

// Signing in and out as a person does: the demo login, a wrong password (the server's own
// message), a new account, a session that ends server-side while the user is on a page (back
// to sign-in with ?next= kept, then back to that page), and signing out.

let server: Server;
let browser: Browser;
useDashboardE2e((s, b) => {
  server = s;
  browser = b;
});

describe('sign-in flow', () => {
  it('signs in with the demo login; a wrong password shows the server message and keeps the email', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto(`${server.url}/dashboard/`);
    await page.waitForURL('**/dashboard/login**');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expectAccessible(page, 'sign-in page');

    await page.getByLabel('Email').fill(DEMO_LOGIN.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(DEMO_LOGIN.email);
    await expectAccessible(page, 'sign-in page with an error');

    await page.getByLabel('Password').fill(DEMO_LOGIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/');
    // The session is an httpOnly cookie: nothing readable by scripts.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const cookie = (await context.cookies()).find((c) => c.name === 'parley_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('registers a new account and lands in its own empty organization', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto(`${server.url}/dashboard/login`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await expectAccessible(page, 'register page');
    await page.getByLabel('Your name').fill('Robin Newcomer');
    await page.getByLabel('Organization name').fill('Robin Widgets');
    await page.getByLabel('Email').fill('robin@example.com');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    // The browser's own check (minlength) or the server's: either way nothing is lost.
    expect(await page.getByLabel('Organization name').inputValue()).toBe('Robin Widgets');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByText('Robin Widgets').first().waitFor();
    await page.goto(`${server.url}/dashboard/knowledge`);
    await page.getByRole('heading', { name: 'No knowledge bases yet' }).waitFor();

    // Registering the same email again: the server's 409 message.
    const second = await newPage(browser);
    await second.page.goto(`${server.url}/dashboard/register`);
    await second.page.getByLabel('Organization name').fill('Again');
    await second.page.getByLabel('Email').fill('robin@example.com');
    await second.page.getByLabel('Password').fill('a long enough password');
    await second.page.getByRole('button', { name: 'Create account' }).click();
    await second.page.getByRole('alert').filter({ hasText: 'An account with this email already exists' }).waitFor();
    await second.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a session revoked elsewhere sends the user to sign in with ?next= and back to the page after', async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server, DEMO_LOGIN, '/dashboard/knowledge');
    await page.getByRole('heading', { name: 'Knowledge', level: 1 }).waitFor();
    // Another client (with this session's cookie) signs the session out on the server.
    const cookie = (await context.cookies()).find((c) => c.name === 'parley_session')!;
    const res = await fetch(`${server.url}/v1/auth/logout`, {
      method: 'POST',
      headers: { Cookie: `parley_session=${cookie.value}`, 'X-Parley-CSRF': '1', Origin: server.url },
    });
    expect(res.status).toBe(200);
    // The next thing the user does talks to the API: 401 → sign-in, keeping where they were going.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL('**/dashboard/login?next=**');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/dashboard/api-keys');
    await page.getByText('Please sign in to continue.').waitFor();
    await page.getByLabel('Email').fill(DEMO_LOGIN.email);
    await page.getByLabel('Password').fill(DEMO_LOGIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard/api-keys');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a deleted cookie on a deep link keeps the page and its query in ?next=', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server);
    await context.clearCookies();
    await page.goto(`${server.url}/dashboard/settings/members?x=1`);
    await page.waitForURL('**/dashboard/login?next=**');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/dashboard/settings/members?x=1');
    await page.getByLabel('Email').fill(DEMO_LOGIN.email);
    await page.getByLabel('Password').fill(DEMO_LOGIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard/settings/members?x=1');
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    await context.close();
  });

  it('signs out: the session ends on the server and the dashboard asks to sign in again', async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, server);
    const cookie = (await context.cookies()).find((c) => c.name === 'parley_session')!;
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/dashboard/login');
    // The old cookie value no longer works anywhere.
    const res = await fetch(`${server.url}/v1/auth/me`, {
      headers: { Cookie: `parley_session=${cookie.value}`, 'X-Parley-CSRF': '1', Origin: server.url },
    });
    expect(res.status).toBe(401);
    await page.goto(`${server.url}/dashboard/`);
    await page.waitForURL('**/dashboard/login**');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('screenshots: sign-in and register pages', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 768]) {
        const { context, page } = await newPage(browser, { width, colorScheme });
        for (const name of ['login', 'register']) {
          await page.goto(`${server.url}/dashboard/${name}`);
          await page.getByRole('button', { name: name === 'login' ? 'Sign in' : 'Create account' }).waitFor();
          await page.screenshot({ path: `/tmp/dashboard-shots/${name}-${colorScheme}-${width}.png`, fullPage: true });
          await expectAccessible(page, `${name} (${colorScheme}, ${width}px)`);
        }
        await context.close();
      }
    }
  });
});
