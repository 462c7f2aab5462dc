import { afterEach, describe, expect, it } from 'vitest';
import { client, registerAccount } from '../../test/http.js';
import { addMemberWithRole } from '../../test/members.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { createFakeClock } from '../lib/clock.js';
import { LOGIN_LIMITS } from '../auth/routes.js';
import { INVITATION_TTL_MS, MAX_PENDING_INVITATIONS } from './invitations.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

describe('invitations (API.md §11)', () => {
  it('creates a link shown once, stores only its hash, lists it without the token', async () => {
    server = await startServer();
    const { api, organization } = await registerAccount(server.url, 'Acme');
    const created = await api.post(`/v1/organizations/${organization.id}/invitations`, { role: 'editor', email: 'Eve@Example.com' });
    expect(created.status).toBe(201);
    const inv = created.body.data;
    expect(inv).toEqual({
      id: expect.stringMatching(/^inv_/),
      role: 'editor',
      email: 'eve@example.com',
      token: expect.stringMatching(/^inv_[A-Za-z0-9_-]{43}$/),
      url: `${server.url}/dashboard/invite/${inv.token}`,
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(inv.expiresAt) - Date.parse(inv.createdAt)).toBe(INVITATION_TTL_MS);
    const row = await server.ctx.storage.get<{ token_hash: string }>('SELECT token_hash FROM invitations WHERE id = ?', [inv.id]);
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await server.ctx.storage.all('SELECT * FROM invitations'))).not.toContain(inv.token);
    const list = await api.get(`/v1/organizations/${organization.id}/invitations`);
    expect(list.body.data).toEqual([
      { id: inv.id, role: 'editor', email: 'eve@example.com', createdAt: inv.createdAt, expiresAt: inv.expiresAt },
    ]);
    const preview = await client(server.url).get(`/v1/invitations/${inv.token}`);
    expect(preview.body.data).toEqual({
      organization: { id: organization.id, name: 'Acme' },
      role: 'editor',
      email: 'eve@example.com',
      expiresAt: inv.expiresAt,
    });
  });

  it('refuses the owner role, and an unknown token is 404', async () => {
    server = await startServer();
    const { api, organization } = await registerAccount(server.url);
    const owner = await api.post(`/v1/organizations/${organization.id}/invitations`, { role: 'owner' });
    expect(owner.status).toBe(400);
    expect(owner.body.error.message).toMatch(/^role: /);
    expect((await client(server.url).get('/v1/invitations/inv_nope')).status).toBe(404);
  });

  it('accepts as a new user once: the session acts in the organization with the role', async () => {
    server = await startServer();
    const { api, organization } = await registerAccount(server.url, 'Acme');
    const { token } = (await api.post(`/v1/organizations/${organization.id}/invitations`, { role: 'viewer' })).body.data;
    const anon = client(server.url);
    const accepted = await anon.post(`/v1/invitations/${token}/accept`, {
      email: 'new@example.com',
      password: 'long enough pw',
      name: 'New',
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data).toMatchObject({
      user: { email: 'new@example.com', name: 'New' },
      organization: { id: organization.id },
      role: 'viewer',
      token: expect.stringMatching(/^pst_/),
    });
    const me = await client(server.url, accepted.body.data.token).get('/v1/auth/me');
    expect(me.body.data).toMatchObject({ role: 'viewer', organization: { id: organization.id } });
    const again = await anon.post(`/v1/invitations/${token}/accept`, { email: 'other@example.com', password: 'long enough pw' });
    expect(again.status).toBe(404);
    expect((await anon.get(`/v1/invitations/${token}`)).status).toBe(404);
    expect((await api.get(`/v1/organizations/${organization.id}/invitations`)).body.data).toEqual([]);
  });

  it('accepts as an existing user with the right password (a wrong one is 401); the session is in the new organization', async () => {
    server = await startServer();
    const a = await registerAccount(server.url, 'A');
    const b = await registerAccount(server.url, 'B');
    const { token } = (await a.api.post(`/v1/organizations/${a.organization.id}/invitations`, { role: 'editor' })).body.data;
    const anon = client(server.url);
    const wrong = await anon.post(`/v1/invitations/${token}/accept`, { email: b.email, password: 'wrong password' });
    expect(wrong.status).toBe(401);
    const ok = await anon.post(`/v1/invitations/${token}/accept`, { email: b.email, password: 'correct horse battery' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ user: { id: b.user.id }, organization: { id: a.organization.id }, role: 'editor' });
    const orgs = await b.api.get('/v1/organizations');
    expect(orgs.body.data.map((o: { id: string }) => o.id).sort()).toEqual([a.organization.id, b.organization.id].sort());
    const members = await a.api.get(`/v1/organizations/${a.organization.id}/members`);
    expect(members.body.data.map((m: { role: string }) => m.role)).toEqual(['owner', 'editor']);
  });

  it('an invitation for an email is only for that email; from the dashboard it sets the cookie', async () => {
    server = await startServer();
    const { api, organization } = await registerAccount(server.url);
    const { token } = (await api.post(`/v1/organizations/${organization.id}/invitations`, { role: 'viewer', email: 'only@example.com' }))
      .body.data;
    const anon = client(server.url);
    expect((await anon.post(`/v1/invitations/${token}/accept`, { email: 'else@example.com', password: 'long enough pw' })).status).toBe(
      403,
    );
    const res = await anon.post(
      `/v1/invitations/${token}/accept`,
      { email: 'only@example.com', password: 'long enough pw' },
      { headers: { 'x-parley-csrf': '1', origin: server.url } },
    );
    expect(res.status).toBe(201);
    expect(res.body.data.token).toBeUndefined();
    expect(res.headers.getSetCookie()[0]).toMatch(/^parley_session=pst_/);
  });

  it(`keeps at most ${MAX_PENDING_INVITATIONS} pending invitations per organization`, async () => {
    server = await startServer();
    const { api, organization } = await registerAccount(server.url);
    await api.patch(`/v1/organizations/${organization.id}`, { plan: 'enterprise' });
    const base = `/v1/organizations/${organization.id}/invitations`;
    for (let i = 0; i < MAX_PENDING_INVITATIONS; i++) expect((await api.post(base, { role: 'viewer' })).status).toBe(201);
    const over = await api.post(base, { role: 'viewer' });
    expect(over.status).toBe(409);
    const first = (await api.get(`${base}?limit=1`)).body.data[0];
    await api.del(`${base}/${first.id}`);
    expect((await api.post(base, { role: 'viewer' })).status).toBe(201);
  });

  it('throttles wrong passwords on accept like logins', async () => {
    server = await startServer();
    const a = await registerAccount(server.url);
    const b = await registerAccount(server.url);
    const { token } = (await a.api.post(`/v1/organizations/${a.organization.id}/invitations`, { role: 'viewer' })).body.data;
    const anon = client(server.url);
    for (let i = 0; i < LOGIN_LIMITS.perEmail; i++)
      expect((await anon.post(`/v1/invitations/${token}/accept`, { email: b.email, password: 'wrong password' })).status).toBe(401);
    expect((await anon.post(`/v1/invitations/${token}/accept`, { email: b.email, password: 'correct horse battery' })).status).toBe(429);
  });

  it('expires after 7 days; a revoked invitation is gone', async () => {
    const clock = createFakeClock();
    server = await startServer({ clock });
    const { api, organization } = await registerAccount(server.url);
    const first = (await api.post(`/v1/organizations/${organization.id}/invitations`, { role: 'viewer' })).body.data;
    const second = (await api.post(`/v1/organizations/${organization.id}/invitations`, { role: 'viewer' })).body.data;
    expect((await api.del(`/v1/organizations/${organization.id}/invitations/${second.id}`)).status).toBe(200);
    expect((await client(server.url).get(`/v1/invitations/${second.token}`)).status).toBe(404);
    expect((await api.del(`/v1/organizations/${organization.id}/invitations/${second.id}`)).status).toBe(404);
    clock.advance(INVITATION_TTL_MS - 1000);
    expect((await client(server.url).get(`/v1/invitations/${first.token}`)).status).toBe(200);
    clock.advance(2000);
    expect((await client(server.url).get(`/v1/invitations/${first.token}`)).status).toBe(404);
    expect(
      (await client(server.url).post(`/v1/invitations/${first.token}/accept`, { email: 'late@example.com', password: 'long enough pw' }))
        .status,
    ).toBe(404);
  });
});

describe('members and roles', () => {
  it('lists members oldest first, paginated', async () => {
    server = await startServer();
    const { api, organization, user } = await registerAccount(server.url);
    const viewer = await addMemberWithRole(server.url, api, organization.id, 'viewer');
    const res = await viewer.api.get(`/v1/organizations/${organization.id}/members?limit=1&page=2`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { userId: viewer.userId, email: viewer.email, name: 'A viewer', role: 'viewer', createdAt: expect.any(String) },
    ]);
    expect(res.body.pagination).toEqual({ total: 2, page: 2, limit: 1, pages: 2 });
    expect((await api.get(`/v1/organizations/${organization.id}/members`)).body.data[0]).toMatchObject({ userId: user.id, role: 'owner' });
  });

  it('changes a role with effect on live sessions; only the owner makes admins; the owner role moves only by transfer', async () => {
    server = await startServer();
    const { api, organization, user } = await registerAccount(server.url);
    const admin = await addMemberWithRole(server.url, api, organization.id, 'admin');
    const editor = await addMemberWithRole(server.url, api, organization.id, 'editor');
    const base = `/v1/organizations/${organization.id}/members`;
    expect((await editor.api.post('/v1/knowledge-bases', { name: 'kb' })).status).toBe(201);
    const demoted = await admin.api.patch(`${base}/${editor.userId}`, { role: 'viewer' });
    expect(demoted.status).toBe(200);
    expect(demoted.body.data).toMatchObject({ userId: editor.userId, role: 'viewer' });
    expect((await editor.api.post('/v1/knowledge-bases', { name: 'kb' })).status).toBe(403);
    expect((await admin.api.patch(`${base}/${editor.userId}`, { role: 'admin' })).status).toBe(403);
    expect((await api.patch(`${base}/${editor.userId}`, { role: 'admin' })).status).toBe(200);
    expect((await api.patch(`${base}/${user.id}`, { role: 'viewer' })).status).toBe(400);
    expect((await admin.api.patch(`${base}/${user.id}`, { role: 'viewer' })).status).toBe(400);
    expect((await api.patch(`${base}/${admin.userId}`, { role: 'owner' })).status).toBe(400);
    expect((await editor.api.patch(`${base}/nobody`, { role: 'viewer' })).status).toBe(404);
  });

  it('removes a member (their sessions end); a member may leave; the owner cannot be removed', async () => {
    server = await startServer();
    const { api, organization, user } = await registerAccount(server.url);
    const base = `/v1/organizations/${organization.id}/members`;
    const viewer = await addMemberWithRole(server.url, api, organization.id, 'viewer');
    const editor = await addMemberWithRole(server.url, api, organization.id, 'editor');
    expect((await viewer.api.del(`${base}/${editor.userId}`)).status).toBe(403);
    const removed = await api.del(`${base}/${editor.userId}`);
    expect(removed.body.data).toEqual({ userId: editor.userId, removed: true, created: { keys: [], webhooks: [], invitations: [] } });
    expect((await editor.api.get('/v1/assistants')).status).toBe(401);
    const revoked = await server.ctx.storage.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM user_sessions WHERE user_id = ? AND revoked_at IS NOT NULL',
      [editor.userId],
    );
    expect(revoked?.n).toBe(1);
    expect((await viewer.api.del(`${base}/${viewer.userId}`)).status).toBe(200);
    expect((await viewer.api.get('/v1/assistants')).status).toBe(401);
    expect((await api.del(`${base}/${user.id}`)).status).toBe(400);
  });

  it('transfers ownership: the target becomes owner, the old owner admin', async () => {
    server = await startServer();
    const { api, organization, user } = await registerAccount(server.url);
    const admin = await addMemberWithRole(server.url, api, organization.id, 'admin');
    expect((await admin.api.post(`/v1/organizations/${organization.id}/transfer`, { userId: admin.userId })).status).toBe(403);
    const res = await api.post(`/v1/organizations/${organization.id}/transfer`, { userId: admin.userId });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      owner: { userId: admin.userId, role: 'owner' },
      previousOwner: { userId: user.id, role: 'admin' },
    });
    expect((await api.get('/v1/auth/me')).body.data.role).toBe('admin');
    expect((await api.patch(`/v1/organizations/${organization.id}`, { plan: 'pro' })).status).toBe(403);
    expect((await admin.api.patch(`/v1/organizations/${organization.id}`, { plan: 'pro' })).status).toBe(200);
    const key = await admin.api.post('/v1/api-keys', { name: 'k', permissions: ['organizations:write'] });
    expect(
      (await client(server.url, key.body.data.key).post(`/v1/organizations/${organization.id}/transfer`, { userId: user.id })).status,
    ).toBe(403);
  });

  it('keys: members management needs organizations:write; other organizations are 404', async () => {
    server = await startServer();
    const { api, organization } = await registerAccount(server.url);
    const other = await registerAccount(server.url);
    const base = `/v1/organizations/${organization.id}`;
    const weak = await api.post('/v1/api-keys', { name: 'w', permissions: ['assistants:read', 'api_keys:write'] });
    const strong = await api.post('/v1/api-keys', { name: 's', permissions: ['organizations:write'] });
    expect((await client(server.url, weak.body.data.key).get(`${base}/members`)).status).toBe(403);
    expect((await client(server.url, weak.body.data.key).post(`${base}/invitations`, { role: 'viewer' })).status).toBe(403);
    expect((await client(server.url, strong.body.data.key).get(`${base}/members`)).status).toBe(200);
    expect((await client(server.url, strong.body.data.key).post(`${base}/invitations`, { role: 'admin' })).status).toBe(201);
    expect((await other.api.get(`${base}/members`)).status).toBe(404);
    expect((await other.api.post(`${base}/invitations`, { role: 'viewer' })).status).toBe(404);
  });
});

describe('POST /v1/auth/switch (a user in several organizations)', () => {
  it('opens a session in another organization the user belongs to; from the dashboard it replaces the cookie and ends the old session', async () => {
    server = await startServer();
    const a = await registerAccount(server.url, 'A');
    const b = await registerAccount(server.url, 'B');
    const { token } = (await a.api.post(`/v1/organizations/${a.organization.id}/invitations`, { role: 'editor' })).body.data;
    await client(server.url).post(`/v1/invitations/${token}/accept`, { email: b.email, password: 'correct horse battery' });
    // b's own session is in B (owner); switching to A gives an editor session there.
    const switched = await b.api.post('/v1/auth/switch', { organizationId: a.organization.id });
    expect(switched.status).toBe(200);
    expect(switched.body.data).toMatchObject({
      organization: { id: a.organization.id },
      role: 'editor',
      token: expect.stringMatching(/^pst_/),
    });
    const inA = client(server.url, switched.body.data.token);
    expect((await inA.get('/v1/auth/me')).body.data).toMatchObject({ role: 'editor', organization: { id: a.organization.id } });
    expect((await b.api.get('/v1/auth/me')).status).toBe(200); // a bearer client keeps its token
    const stranger = await registerAccount(server.url, 'C');
    expect((await b.api.post('/v1/auth/switch', { organizationId: stranger.organization.id })).status).toBe(404);

    const headers = { 'x-parley-csrf': '1', origin: server.url };
    const login = await client(server.url).post('/v1/auth/login', { email: b.email, password: 'correct horse battery' }, { headers });
    const cookie = login.headers.getSetCookie()[0]?.split(';')[0] as string;
    const viaCookie = await client(server.url).post(
      '/v1/auth/switch',
      { organizationId: a.organization.id },
      { headers: { ...headers, cookie } },
    );
    expect(viaCookie.body.data.token).toBeUndefined();
    const next = viaCookie.headers.getSetCookie()[0]?.split(';')[0] as string;
    expect(next).not.toBe(cookie);
    expect((await client(server.url).get('/v1/auth/me', { headers: { ...headers, cookie: next } })).body.data.organization.id).toBe(
      a.organization.id,
    );
    expect((await client(server.url).get('/v1/auth/me', { headers: { ...headers, cookie } })).status).toBe(401);
  });
});
