import { afterEach, describe, expect, it } from 'vitest';
import { client, registerAccount } from '../../test/http.js';
import { addMemberWithRole } from '../../test/members.js';
import { startServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

/** An organization with an admin who minted a key (and a key minted by that key), a webhook and an invitation. */
async function adminWithThings() {
  server = await startServer({ config: { webhookAllowPrivate: true } });
  const owner = await registerAccount(server.url);
  const org = owner.organization.id as string;
  const admin = await addMemberWithRole(server.url, owner.api, org, 'admin');
  const key = await admin.api.post('/v1/api-keys', { name: 'admin key', permissions: ['assistants:read', 'api_keys:write'] });
  const keyApi = client(server.url, key.body.data.key);
  const minted = await keyApi.post('/v1/api-keys', { name: 'minted by key', permissions: ['assistants:read'] });
  const mintedApi = client(server.url, minted.body.data.key);
  const hook = await admin.api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
  const invite = await admin.api.post(`/v1/organizations/${org}/invitations`, { role: 'editor' });
  return {
    owner,
    org,
    admin,
    key: key.body.data,
    keyApi,
    minted: minted.body.data,
    mintedApi,
    hook: hook.body.data,
    invite: invite.body.data,
  };
}

describe('what a member created (issue 24)', () => {
  it('records and shows the creator of keys (a key minted by a key: its creator) and webhooks; older keys say unknown', async () => {
    const { owner, admin, key, minted, hook } = await adminWithThings();
    const creator = { userId: admin.userId, email: admin.email, name: 'A admin' };
    expect(key.createdBy).toEqual(creator);
    expect(minted.createdBy).toEqual(creator);
    const list = await owner.api.get('/v1/api-keys');
    expect(list.body.data.map((k: { name: string; createdBy: unknown }) => [k.name, k.createdBy])).toEqual([
      ['minted by key', creator],
      ['admin key', creator],
    ]);
    expect((await owner.api.get(`/v1/api-keys/${key.id}`)).body.data.createdBy).toEqual(creator);
    expect(hook.createdBy).toEqual(creator);
    expect((await owner.api.get('/v1/webhooks')).body.data[0].createdBy).toEqual(creator);
    // A key from before migration 029 has no creator.
    await server.ctx.storage.run('UPDATE api_keys SET created_by = NULL WHERE id = ?', [key.id]);
    expect((await owner.api.get(`/v1/api-keys/${key.id}`)).body.data.createdBy).toBeNull();
  });

  it('lists what removing a member would settle (admins and the owner)', async () => {
    const { owner, org, admin, hook, invite } = await adminWithThings();
    const preview = await owner.api.get(`/v1/organizations/${org}/members/${admin.userId}/created`);
    expect(preview.status).toBe(200);
    expect(preview.body.data.keys.map((k: { name: string }) => k.name)).toEqual(['admin key', 'minted by key']);
    expect(preview.body.data.webhooks).toEqual([{ id: hook.id, url: hook.url, enabled: true }]);
    expect(preview.body.data.invitations).toEqual([{ id: invite.id, role: 'editor', email: null, expiresAt: invite.expiresAt }]);
    expect((await admin.api.get(`/v1/organizations/${org}/members/${admin.userId}/created`)).status).toBe(200);
    const viewer = await addMemberWithRole(server.url, owner.api, org, 'viewer');
    expect((await viewer.api.get(`/v1/organizations/${org}/members/${admin.userId}/created`)).status).toBe(403);
  });

  it('removing a member revokes their keys (and keys their keys minted), their pending invitations, and disables their webhooks', async () => {
    const { owner, org, admin, key, keyApi, mintedApi, hook, invite } = await adminWithThings();
    expect((await keyApi.get('/v1/assistants')).status).toBe(200);
    const removed = await owner.api.del(`/v1/organizations/${org}/members/${admin.userId}`);
    expect(removed.status).toBe(200);
    expect((await keyApi.get('/v1/assistants')).status).toBe(401);
    expect((await mintedApi.get('/v1/assistants')).status).toBe(401);
    const accept = await client(server.url).post(`/v1/invitations/${invite.token}/accept`, {
      email: 'late@example.com',
      password: 'member password 1',
    });
    expect(accept.status).toBe(404);
    const h = (await owner.api.get(`/v1/webhooks/${hook.id}`)).body.data;
    expect(h).toMatchObject({ enabled: false, disabledReason: 'manual' });
    expect((await owner.api.get('/v1/api-keys')).body.data).toEqual([]);
    expect(removed.body.data.created).toEqual({
      keys: [
        { id: key.id, name: 'admin key', outcome: 'revoked' },
        { id: expect.any(String), name: 'minted by key', outcome: 'revoked' },
      ],
      webhooks: [{ id: hook.id, url: hook.url, outcome: 'disabled' }],
      invitations: [{ id: invite.id, email: null, outcome: 'revoked' }],
    });

    const audit = await owner.api.get(`/v1/organizations/${org}/audit`);
    expect(audit.body.data).toEqual([
      expect.objectContaining({
        action: 'member_removed',
        actorUserId: owner.user.id,
        userId: admin.userId,
        email: admin.email,
        details: { choice: 'revoke', ...removed.body.data.created },
      }),
    ]);
  });

  it("a removed admin's pending invitation links no longer admit anyone", async () => {
    const { owner, org, admin, invite } = await adminWithThings();
    expect((await owner.api.del(`/v1/organizations/${org}/members/${admin.userId}`)).status).toBe(200);
    const accept = await client(server.url).post(`/v1/invitations/${invite.token}/accept`, {
      email: 'late@example.com',
      password: 'member password 1',
    });
    expect(accept.status).toBe(404);
    expect((await owner.api.get(`/v1/organizations/${org}/invitations`)).body.data).toEqual([]);
  });

  it('the remover may keep the keys and webhooks by taking them over, recorded in the audit log', async () => {
    const { owner, org, admin, keyApi, mintedApi, hook, invite } = await adminWithThings();
    const bad = await owner.api.del(`/v1/organizations/${org}/members/${admin.userId}?created=keep`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^created: /);
    const removed = await owner.api.del(`/v1/organizations/${org}/members/${admin.userId}?created=transfer`);
    expect(removed.status).toBe(200);
    expect(removed.body.data.created.keys.map((k: { outcome: string }) => k.outcome)).toEqual(['transferred', 'transferred']);
    expect(removed.body.data.created.webhooks).toEqual([{ id: hook.id, url: hook.url, outcome: 'transferred' }]);
    expect(removed.body.data.created.invitations).toEqual([{ id: invite.id, email: null, outcome: 'revoked' }]); // always
    expect((await keyApi.get('/v1/assistants')).status).toBe(200);
    expect((await mintedApi.get('/v1/assistants')).status).toBe(200);
    const ownerAsCreator = { userId: owner.user.id, email: owner.email, name: null };
    expect((await owner.api.get('/v1/api-keys')).body.data.map((k: { createdBy: unknown }) => k.createdBy)).toEqual([
      ownerAsCreator,
      ownerAsCreator,
    ]);
    expect((await owner.api.get(`/v1/webhooks/${hook.id}`)).body.data).toMatchObject({ enabled: true, createdBy: ownerAsCreator });
    expect(
      (
        await client(server.url).post(`/v1/invitations/${invite.token}/accept`, {
          email: 'late@example.com',
          password: 'member password 1',
        })
      ).status,
    ).toBe(404);
    const audit = (await owner.api.get(`/v1/organizations/${org}/audit`)).body.data[0];
    expect(audit).toMatchObject({
      action: 'member_removed',
      actorUserId: owner.user.id,
      userId: admin.userId,
      details: { choice: 'transfer' },
    });
  });

  it('a transfer needs a signed-in remover other than the member; leaving revokes what one created', async () => {
    server = await startServer();
    const owner = await registerAccount(server.url);
    const org = owner.organization.id as string;
    const admin = await addMemberWithRole(server.url, owner.api, org, 'admin');
    const orgKey = await owner.api.post('/v1/api-keys', { name: 'org', permissions: ['organizations:write'] });
    const adminKey = await admin.api.post('/v1/api-keys', { name: 'mine', permissions: ['assistants:read'] });
    const viaKey = await client(server.url, orgKey.body.data.key).del(`/v1/organizations/${org}/members/${admin.userId}?created=transfer`);
    expect(viaKey.status).toBe(400);
    expect(viaKey.body.error.message).toMatch(/^created: "transfer" hands the keys and webhooks to you/);
    expect((await admin.api.del(`/v1/organizations/${org}/members/${admin.userId}?created=transfer`)).status).toBe(400);
    const left = await admin.api.del(`/v1/organizations/${org}/members/${admin.userId}`);
    expect(left.body.data.created.keys).toEqual([{ id: adminKey.body.data.id, name: 'mine', outcome: 'revoked' }]);
    expect((await client(server.url, adminKey.body.data.key).get('/v1/assistants')).status).toBe(401);
    expect((await owner.api.get(`/v1/organizations/${org}/audit`)).body.data[0]).toMatchObject({
      action: 'member_left',
      actorUserId: admin.userId,
    });
  });
});
