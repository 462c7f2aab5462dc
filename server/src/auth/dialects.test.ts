import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresStorage, type FreshPostgres } from '../../test/postgres.js';
import { getApiKey, insertApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '../api-keys/service.js';
import { deleteAssetIfUnused, getAsset, insertAsset } from '../assets/store.js';
import { hasAuditEntries, listAudit, recordAssistantChange } from '../audit/audit.js';
import { migrate } from '../db/migrate.js';
import { openDb } from '../db/open.js';
import {
  createInvitation,
  findPendingInvitation,
  listPendingInvitations,
  consumeInvitation,
  revokeInvitation,
} from '../organizations/invitations.js';
import { addMember, changeRole, getMember, listMembers, removeMember, transferOwnership } from '../organizations/members.js';
import { getOrganization, listOrganizationsFor, updateOrganization } from '../organizations/service.js';
import type { Storage } from '../storage/port.js';
import { createSqliteStorage } from '../storage/sqlite.js';
import { createCredentialResolver } from './credentials.js';
import type { Principal } from './permissions.js';
import {
  changePassword,
  createSession,
  findMembership,
  findUserByEmail,
  insertUser,
  primaryOrganization,
  registerAccount,
  updateUserName,
} from './service.js';

/**
 * The SQL of the account modules (auth, api-keys, organizations, assets, audit) on both
 * dialects, through the storage port alone: the same calls must answer the same on SQLite and
 * PostgreSQL (placeholders, RETURNING, COUNT aliases, NULL-typed named parameters, bytea).
 */
const NOW = Date.parse('2026-03-01T10:00:00Z');
const at = (ms = NOW): string => new Date(ms).toISOString();

async function scenario(storage: Storage): Promise<void> {
  const account = await storage.tx((tx) =>
    registerAccount(tx, { email: 'Owner@Example.com', passwordHash: 'h', name: 'O', organizationName: 'Acme' }, NOW),
  );
  const orgId = account.organization.id;
  // users.email is NOCASE on SQLite and citext on PostgreSQL.
  expect((await findUserByEmail(storage, 'owner@example.com'))?.id).toBe(account.user.id);
  expect((await primaryOrganization(storage, account.user.id))?.id).toBe(orgId);
  expect(await findMembership(storage, account.user.id, orgId)).toEqual({ organization: account.organization, role: 'owner' });
  expect(await updateUserName(storage, account.user.id, 'Renamed')).toEqual({
    id: account.user.id,
    email: 'Owner@Example.com',
    name: 'Renamed',
  });

  const resolver = createCredentialResolver(storage);
  const session = await resolver.resolve(account.token, NOW);
  expect(session?.principal).toMatchObject({ kind: 'user', organizationId: orgId, role: 'owner', plan: 'free' });

  const other = await createSession(storage, account.user.id, orgId, NOW);
  expect(await storage.tx((tx) => changePassword(tx, account.user.id, 'h2', 'keep-none', at()))).toBe(2);
  expect(await resolver.resolve(other, NOW)).toBeNull();

  const input = {
    name: 'k',
    permissions: ['chat' as const],
    assistantId: null,
    allowedIps: ['10.0.0.0/8'],
    rateLimit: { perMinute: 5, perDay: null },
    expiresAt: null,
  };
  const { record, key } = await insertApiKey(storage, orgId, input, at());
  expect(record).toMatchObject({
    name: 'k',
    permissions: ['chat'],
    allowedIps: ['10.0.0.0/8'],
    rateLimit: { perMinute: 5, perDay: null },
    lastUsedAt: null,
  });
  const viaKey = await resolver.resolve(key, NOW);
  expect(viaKey?.principal.limits).toEqual({ perMinute: 5, perDay: 1_000 });
  expect((await getApiKey(storage, orgId, record.id))?.lastUsedAt).toBe(at());
  await resolver.resolve(key, NOW + 30_000); // within the minute: not written again
  expect((await getApiKey(storage, orgId, record.id))?.lastUsedAt).toBe(at());
  await resolver.resolve(key, NOW + 60_000);
  expect((await getApiKey(storage, orgId, record.id))?.lastUsedAt).toBe(at(NOW + 60_000));
  const second = await insertApiKey(storage, orgId, input, at());
  // Equal created_at: the newer id first (ids are time-ordered).
  expect((await listApiKeys(storage, orgId, null, { limit: 10, offset: 0 })).items.map((k) => k.id)).toEqual([second.record.id, record.id]);
  expect((await listApiKeys(storage, orgId, 'asst_none', { limit: 10, offset: 0 })).total).toBe(0);
  const rotated = await storage.tx((tx) => rotateApiKey(tx, orgId, record.id, 0, NOW, null));
  expect(rotated?.record.name).toBe('k');
  expect(await resolver.resolve(key, NOW)).toBeNull();
  expect(await revokeApiKey(storage, orgId, second.record.id, at())).toBe(true);
  expect(await revokeApiKey(storage, orgId, second.record.id, at())).toBe(false);

  expect(await updateOrganization(storage, orgId, { plan: 'pro' })).toMatchObject({ plan: 'pro', name: 'Acme' });
  expect((await getOrganization(storage, orgId))?.plan).toBe('pro');
  expect((await listOrganizationsFor(storage, { userId: account.user.id, organizationId: orgId }, { limit: 5, offset: 0 })).total).toBe(1);

  const inv = await createInvitation(
    storage,
    { organizationId: orgId, role: 'editor', email: 'Eve@Example.com', invitedBy: account.user.id },
    NOW,
  );
  expect((await findPendingInvitation(storage, inv.token, NOW))?.organization).toEqual({ id: orgId, name: 'Acme' });
  expect((await listPendingInvitations(storage, orgId, NOW, { limit: 5, offset: 0 })).total).toBe(1);
  const eve = { id: 'usr_eve', email: 'eve@example.com', name: null };
  await storage.tx(async (tx) => {
    await insertUser(tx, eve, 'h', at());
    expect(await consumeInvitation(tx, inv.id, eve.id, NOW)).toBe(true);
    expect(await consumeInvitation(tx, inv.id, eve.id, NOW)).toBe(false);
    await addMember(tx, orgId, eve.id, inv.role, at());
  });
  expect(await revokeInvitation(storage, orgId, inv.id, NOW)).toBe(false);
  const owner = { userId: account.user.id, role: 'owner' as const };
  expect((await storage.tx((tx) => changeRole(tx, orgId, owner, eve.id, 'admin'))).role).toBe('admin');
  expect((await listMembers(storage, orgId, { limit: 5, offset: 0 })).items.map((m) => m.role)).toEqual(['owner', 'admin']);
  const moved = await storage.tx((tx) => transferOwnership(tx, orgId, account.user.id, eve.id));
  expect([moved.owner.role, moved.previousOwner.role]).toEqual(['owner', 'admin']);
  await storage.tx((tx) => removeMember(tx, orgId, { userId: eve.id, role: 'owner' }, account.user.id, Date.parse(at())));
  expect(await getMember(storage, orgId, account.user.id)).toBeNull();

  const data = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
  const asset = await storage.tx((tx) => insertAsset(tx, orgId, 'image/png', data, at()));
  expect((await getAsset(storage, asset.id))?.data.equals(data)).toBe(true);
  await storage.run(
    "INSERT INTO assistants (id, organization_id, type, name, config, created_at, updated_at) VALUES ('asst_1', ?, 'web', 'A', ?, ?, ?)",
    [orgId, JSON.stringify({ avatarUrl: `/v1/assets/${asset.id}` }), at(), at()],
  );
  expect(await storage.tx((tx) => deleteAssetIfUnused(tx, orgId, asset.id))).toBe(false);
  await storage.run("UPDATE assistants SET config = '{}' WHERE id = 'asst_1'");
  expect(await storage.tx((tx) => deleteAssetIfUnused(tx, orgId, asset.id))).toBe(true);

  const principal = { kind: 'user', credentialId: 'sess_x', organizationId: orgId, userId: eve.id } as Principal;
  await storage.tx(async (tx) => {
    await recordAssistantChange(tx, { principal, assistantId: 'asst_1', action: 'created', fields: ['name'], at: at() });
    await recordAssistantChange(tx, { principal, assistantId: 'asst_1', action: 'updated', fields: [], at: at() }); // not an event
  });
  const audit = await listAudit(storage, { org: orgId, assistantId: null, from: null, to: null }, { limit: 5, offset: 0 });
  expect(audit.total).toBe(1);
  expect([await hasAuditEntries(storage, orgId, 'asst_1'), await hasAuditEntries(storage, orgId, 'asst_2')]).toEqual([true, false]);
  expect(audit.items[0]).toMatchObject({
    assistantId: 'asst_1',
    userId: eve.id,
    userEmail: 'eve@example.com',
    apiKeyId: null,
    action: 'created',
    fields: ['name'],
    createdAt: at(),
  });
  expect(
    (await listAudit(storage, { org: orgId, assistantId: 'asst_1', from: at(NOW + 1), to: null }, { limit: 5, offset: 0 })).total,
  ).toBe(0);
}

describe('account modules on SQLite', () => {
  it('answers through the storage port', async () => {
    const db = openDb(':memory:');
    migrate(db);
    const storage = createSqliteStorage(db);
    await scenario(storage);
    await storage.close();
  });
});

describe('account modules on PostgreSQL', () => {
  let pg: FreshPostgres;
  beforeAll(async () => {
    pg = await freshPostgresStorage();
  });
  afterAll(async () => {
    await pg.drop();
  });
  it('answers through the storage port', async () => {
    await scenario(pg.storage);
  });
});
