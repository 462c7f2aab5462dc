import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGIN, clientFor, startTestServer, type Server } from '../../e2e/support.js';
import { createApiClient, type ApiClient } from '../lib/api.js';
import type { Me } from '../lib/session.js';
import { PLAN_LIMITS, assignableRoles, createSettingsModel } from './settings.model.js';

// The settings page model against a real Parley, as the demo owner's session.

let server: Server;

async function login(email: string, password: string): Promise<{ client: ApiClient; me: Me; token: string }> {
  const res = await fetch(`${server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const token = ((await res.json()) as { data: { token: string } }).data.token;
  const client = clientFor(server, token);
  return { client, token, me: await client.get<Me>('/auth/me') };
}

/** Makes a member with `role` through an invitation, as the dashboard does. */
async function addMember(owner: ApiClient, orgId: string, role: 'admin' | 'editor' | 'viewer', email: string): Promise<string> {
  const inv = await owner.post<{ token: string }>(`/organizations/${orgId}/invitations`, { role });
  // As the dashboard sends it: the CSRF header from PUBLIC_URL's origin (the server refuses the header from elsewhere).
  const anon = createApiClient({ origin: server.url, headers: { Origin: server.url } });
  const joined = await anon.post<{ user: { id: string } }>(`/invitations/${inv.token}/accept`, {
    email,
    password: 'member password 1',
    name: email.split('@')[0],
  });
  return joined.user.id;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('settings helpers', () => {
  it('only the owner hands out admin; editors and viewers hand out nothing', () => {
    expect(assignableRoles('owner')).toEqual(['admin', 'editor', 'viewer']);
    expect(assignableRoles('admin')).toEqual(['editor', 'viewer']);
    expect(assignableRoles('editor')).toEqual([]);
    expect(assignableRoles('viewer')).toEqual([]);
  });
});

describe('settings model', () => {
  it('shows the organization with its plan limits; the owner renames it and changes the plan', async () => {
    const { client, me } = await login(DEMO_LOGIN.email, DEMO_LOGIN.password);
    expect(me.role).toBe('owner');
    expect(me.organization.limits).toEqual(PLAN_LIMITS[me.organization.plan as 'free']);
    const m = createSettingsModel(client, me);
    m.org.name.value = '';
    expect(await m.saveOrganization()).toBeUndefined();
    expect(m.org.submit.fieldError('name')).toBeTruthy();
    m.org.name.value = 'Renamed Org';
    m.org.plan.value = 'pro';
    expect(await m.saveOrganization()).toMatchObject({ name: 'Renamed Org', plan: 'pro' });
    const after = await client.get<Me>('/auth/me');
    expect(after.organization).toMatchObject({ name: 'Renamed Org', plan: 'pro', limits: PLAN_LIMITS.pro });
    m.org.plan.value = 'free';
    await m.saveOrganization();
  });

  it('invites by link (shown once), lists pending invitations and revokes one', async () => {
    const { client, me } = await login(DEMO_LOGIN.email, DEMO_LOGIN.password);
    const m = createSettingsModel(client, me);
    await m.loadMembers();
    m.invite.role.value = 'editor';
    m.invite.email.value = 'not an email';
    expect(await m.createInvitation()).toBeUndefined();
    expect(m.invite.submit.fieldError('email')).toBeTruthy();
    m.invite.email.value = '';
    const created = await m.createInvitation();
    expect(created!.url).toBe(`${server.url}/dashboard/invite/${created!.token}`);
    expect(m.invite.created.value?.url).toBe(created!.url);
    const pending = m.invitations.data.value!.items.find((i) => i.id === created!.id)!;
    expect(pending).toMatchObject({ role: 'editor', email: null });
    expect(JSON.stringify(m.invitations.data.value)).not.toContain(created!.token);
    expect(await m.revokeInvitation(created!.id)).toBe(true);
    expect(m.invitations.data.value!.items.some((i) => i.id === created!.id)).toBe(false);
    expect((await fetch(`${server.url}/v1/invitations/${created!.token}`)).status).toBe(404);
  });

  it('changes a member role, transfers ownership and back, removes a member', async () => {
    const owner = await login(DEMO_LOGIN.email, DEMO_LOGIN.password);
    const orgId = owner.me.organization.id;
    const editorId = await addMember(owner.client, orgId, 'editor', 'ed@example.com');
    const m = createSettingsModel(owner.client, owner.me);
    await m.loadMembers();
    expect(m.members.data.value!.items.find((x) => x.userId === editorId)?.role).toBe('editor');
    expect((await m.changeRole(editorId, 'admin'))?.role).toBe('admin');
    expect(m.members.data.value!.items.find((x) => x.userId === editorId)?.role).toBe('admin');

    expect(await m.transferOwnership(editorId)).toBe(true);
    const roles = Object.fromEntries(m.members.data.value!.items.map((x) => [x.email, x.role]));
    expect(roles['ed@example.com']).toBe('owner');
    expect(roles[DEMO_LOGIN.email]).toBe('admin');
    // The new owner hands it back.
    const ed = await login('ed@example.com', 'member password 1');
    const back = createSettingsModel(ed.client, ed.me);
    expect(await back.transferOwnership(owner.me.user!.id)).toBe(true);

    expect(await m.removeMember(editorId)).toBe(true);
    expect(m.members.data.value!.items.some((x) => x.userId === editorId)).toBe(false);
  });

  it('a viewer lists members but the server refuses changes', async () => {
    const owner = await login(DEMO_LOGIN.email, DEMO_LOGIN.password);
    await addMember(owner.client, owner.me.organization.id, 'viewer', 'vi@example.com');
    const viewer = await login('vi@example.com', 'member password 1');
    const m = createSettingsModel(viewer.client, viewer.me);
    expect(m.manages).toBe(false);
    await m.loadMembers();
    expect(m.members.data.value!.items.length).toBeGreaterThanOrEqual(2);
    expect(m.invitations.data.value).toBeNull();
    expect(await m.changeRole(owner.me.user!.id, 'viewer')).toBeUndefined();
    expect(m.memberAction.error.value?.kind).toBe('forbidden');
    m.invite.role.value = 'viewer';
    expect(await m.createInvitation()).toBeUndefined();
    expect(m.invite.submit.error.value?.kind).toBe('forbidden');
    m.org.name.value = 'Hijacked';
    expect(await m.saveOrganization()).toBeUndefined();
    expect(m.org.submit.error.value?.kind).toBe('forbidden');
  });

  it('account: saves the name, refuses a wrong current password, changes the password', async () => {
    const owner = await login(DEMO_LOGIN.email, DEMO_LOGIN.password);
    await addMember(owner.client, owner.me.organization.id, 'editor', 'pw@example.com');
    const first = await login('pw@example.com', 'member password 1');
    const other = await login('pw@example.com', 'member password 1');
    const m = createSettingsModel(first.client, first.me);
    m.account.name.value = 'Pat Writer';
    expect(await m.saveName()).toMatchObject({ name: 'Pat Writer' });

    m.password.current.value = 'wrong password';
    m.password.next.value = 'brand new password 2';
    m.password.confirm.value = 'brand new password 2';
    expect(await m.changePassword()).toBeUndefined();
    expect(m.password.submit.fieldError('currentPassword')).toMatch(/not your current password/);

    m.password.current.value = 'member password 1';
    m.password.confirm.value = 'something else';
    expect(await m.changePassword()).toBeUndefined();
    expect(m.password.submit.fieldError('confirm')).toMatch(/differ/);

    m.password.confirm.value = 'brand new password 2';
    expect(await m.changePassword()).toMatchObject({ changed: true });
    expect(m.password.current.value).toBe('');
    // This session stays; the other one is signed out; the new password signs in.
    expect((await first.client.get<Me>('/auth/me')).user?.name).toBe('Pat Writer');
    await expect(other.client.get('/auth/me', { quiet401: true })).rejects.toMatchObject({ kind: 'auth' });
    expect((await login('pw@example.com', 'brand new password 2')).me.user?.email).toBe('pw@example.com');
  });
});
