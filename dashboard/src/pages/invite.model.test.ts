import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGIN, clientFor, startTestServer, type Server } from '../../e2e/support.js';
import { createApiClient } from '../lib/api.js';
import type { Me } from '../lib/session.js';
import { createInviteModel } from './invite.model.js';

// The invitation page model against a real Parley: a new user registers through the link, an
// existing user signs in through it; either joins with the invitation's role, once.

let server: Server;
let owner: ReturnType<typeof clientFor>;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer();
  const res = await fetch(`${server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(DEMO_LOGIN),
  });
  owner = clientFor(server, ((await res.json()) as { data: { token: string } }).data.token);
  orgId = (await owner.get<Me>('/auth/me')).organization.id;
});
afterAll(() => server?.close());

/** A signed-out browser on the dashboard: the CSRF header from PUBLIC_URL's origin. */
const anon = () => createApiClient({ origin: server.url, headers: { Origin: server.url } });
const invite = (role: string, email?: string) =>
  owner.post<{ token: string }>(`/organizations/${orgId}/invitations`, { role, ...(email ? { email } : {}) });

describe('invite model', () => {
  it('shows the organization and role, registers a new user who joins once', async () => {
    const { token } = await invite('viewer');
    const m = createInviteModel(anon(), token);
    await m.load();
    expect(m.info.data.value).toMatchObject({ organization: { id: orgId }, role: 'viewer' });
    m.email.value = 'newbie@example.com';
    m.password.value = 'short';
    expect(await m.accept()).toBeUndefined();
    expect(m.submit.fieldError('password')).toMatch(/at least 10/);
    expect(m.email.value).toBe('newbie@example.com');
    m.password.value = 'newbie password 1';
    m.name.value = 'New Bie';
    const joined = await m.accept();
    expect(joined).toMatchObject({ user: { email: 'newbie@example.com', name: 'New Bie' }, role: 'viewer' });

    const again = createInviteModel(anon(), token);
    await again.load();
    expect(again.info.error.value?.kind).toBe('not_found');
    expect(again.info.error.value?.message).toMatch(/used, revoked or has expired/);
  });

  it('an existing user signs in with it; a wrong password shows the server message', async () => {
    await anon().post('/auth/register', {
      email: 'elsewhere@example.com',
      password: 'elsewhere password 1',
      organizationName: 'Other Org',
    });
    const { token } = await invite('editor');
    const m = createInviteModel(anon(), token);
    await m.load();
    m.mode.value = 'existing';
    m.email.value = 'elsewhere@example.com';
    m.password.value = 'not my password';
    expect(await m.accept()).toBeUndefined();
    expect(m.submit.error.value?.message).toBe('Invalid email or password');
    m.password.value = 'elsewhere password 1';
    expect(await m.accept()).toMatchObject({ role: 'editor', organization: { id: orgId } });
  });

  it('an invitation for one address fills it in', async () => {
    const { token } = await invite('viewer', 'only@example.com');
    const m = createInviteModel(anon(), token);
    await m.load();
    expect(m.email.value).toBe('only@example.com');
  });
});
