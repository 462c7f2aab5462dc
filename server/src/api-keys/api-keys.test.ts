import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { client, registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { createFakeClock, type FakeClock } from '../lib/clock.js';
import { PERMISSIONS } from '../auth/permissions.js';

let server: TestServer;
let clock: FakeClock;
beforeEach(async () => {
  clock = createFakeClock(Date.now());
  server = await startServer({ clock });
});
afterEach(async () => {
  await server.close();
});

async function owner() {
  const account = await registerAccount(server.url);
  const assistant = await account.api.post('/v1/assistants', { type: 'api', name: 'Helper' });
  return { ...account, assistantId: assistant.body.data.id as string };
}

describe('API keys (API.md §4)', () => {
  it('creates a key shown once, stored only as a SHA-256 hash', async () => {
    const { api } = await owner();
    const res = await api.post('/v1/api-keys', { name: 'Backend', permissions: ['chat', 'assistants:read'] });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(d.key).toMatch(/^sk_[A-Za-z0-9_-]{43,}$/);
    expect(d).toMatchObject({
      name: 'Backend',
      last4: d.key.slice(-4),
      permissions: ['chat', 'assistants:read'],
      assistantId: null,
      allowedIps: [],
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(Object.keys(d).sort()).toEqual(
      [
        'allowedIps',
        'assistantId',
        'createdAt',
        'createdBy',
        'expiresAt',
        'id',
        'key',
        'last4',
        'lastUsedAt',
        'name',
        'permissions',
        'rateLimit',
      ].sort(),
    );
    const stored = await server.ctx.storage.get('SELECT * FROM api_keys WHERE id = ?', [d.id]);
    if (!stored) throw new Error('no key row');
    expect(JSON.stringify(stored)).not.toContain(d.key);
    expect(stored.key_hash).toMatch(/^[0-9a-f]{64}$/);
    const list = await api.get('/v1/api-keys');
    expect(list.body.data[0].key).toBeUndefined();
    const one = await api.get(`/v1/api-keys/${d.id}`);
    expect(one.body.data.key).toBeUndefined();
    expect(one.body.data.last4).toBe(d.last4);
  });

  it('authenticates with the key and records lastUsedAt', async () => {
    const { api } = await owner();
    const { body } = await api.post('/v1/api-keys', { name: 'K', permissions: ['assistants:read'] });
    const keyApi = client(server.url, body.data.key);
    expect((await keyApi.get('/v1/assistants')).status).toBe(200);
    expect((await api.get(`/v1/api-keys/${body.data.id}`)).body.data.lastUsedAt).not.toBeNull();
  });

  it('validates permissions, IP rules, rate limits and expiry', async () => {
    const { api } = await owner();
    for (const bad of [
      { name: 'x', permissions: ['teleport'] },
      { name: 'x', permissions: [] },
      { name: 'x', permissions: ['chat'], allowedIps: ['not-an-ip'] },
      { name: 'x', permissions: ['chat'], allowedIps: ['10.0.0.0/33'] },
      { name: 'x', permissions: ['chat'], rateLimit: { perMinute: 61 } },
      { name: 'x', permissions: ['chat'], expiresAt: new Date(clock.now() - 1000).toISOString() },
      { permissions: ['chat'] },
    ]) {
      const res = await api.post('/v1/api-keys', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
  });

  it('never lets a key grant permissions its creator lacks', async () => {
    const { api } = await owner();
    const limited = await api.post('/v1/api-keys', { name: 'Key maker', permissions: ['api_keys:write', 'chat'] });
    const maker = client(server.url, limited.body.data.key);
    const escalate = await maker.post('/v1/api-keys', { name: 'Escalated', permissions: ['chat', 'assistants:write'] });
    expect(escalate.status).toBe(403);
    expect(escalate.body.error.code).toBe('permission_denied');
    expect((await maker.post('/v1/api-keys', { name: 'Fine', permissions: ['chat'] })).status).toBe(201);
  });

  it('binds a key to one assistant: others answer 404', async () => {
    const { api, assistantId } = await owner();
    const other = await api.post('/v1/assistants', { type: 'web', name: 'Other' });
    const bound = await api.post('/v1/api-keys', { name: 'Bound', permissions: ['assistants:read', 'chat'], assistantId });
    expect(bound.body.data.assistantId).toBe(assistantId);
    const keyApi = client(server.url, bound.body.data.key);
    expect((await keyApi.get(`/v1/assistants/${assistantId}`)).status).toBe(200);
    expect((await keyApi.get(`/v1/assistants/${other.body.data.id}`)).status).toBe(404);
    const list = await keyApi.get('/v1/assistants');
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([assistantId]);
    expect((await keyApi.post(`/v1/integrations/${other.body.data.id}/chat`, { message: 'hi' })).status).toBe(404);
  });

  it("refuses a binding to another organization's assistant with 404", async () => {
    const a = await owner();
    const b = await owner();
    const res = await a.api.post('/v1/api-keys', { name: 'x', permissions: ['chat'], assistantId: b.assistantId });
    expect(res.status).toBe(404);
  });

  it('enforces the IP allowlist (IPv4, CIDR, IPv4-mapped IPv6)', async () => {
    const { api } = await owner();
    const elsewhere = await api.post('/v1/api-keys', {
      name: 'Office',
      permissions: ['assistants:read'],
      allowedIps: ['203.0.113.0/24', '2001:db8::/32'],
    });
    const denied = await client(server.url, elsewhere.body.data.key).get('/v1/assistants');
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('permission_denied');
    // Loopback arrives as 127.0.0.1 or ::ffff:127.0.0.1; a v4 block must match both.
    const local = await api.post('/v1/api-keys', { name: 'Local', permissions: ['assistants:read'], allowedIps: ['127.0.0.0/8', '::1'] });
    expect((await client(server.url, local.body.data.key).get('/v1/assistants')).status).toBe(200);
  });

  it('stops accepting a key after its expiry', async () => {
    const { api } = await owner();
    const res = await api.post('/v1/api-keys', {
      name: 'Temp',
      permissions: ['assistants:read'],
      expiresAt: new Date(clock.now() + 3_600_000).toISOString(),
    });
    const keyApi = client(server.url, res.body.data.key);
    expect((await keyApi.get('/v1/assistants')).status).toBe(200);
    clock.advance(3_600_001);
    expect((await keyApi.get('/v1/assistants')).status).toBe(401);
  });

  it('revokes at once with DELETE', async () => {
    const { api } = await owner();
    const res = await api.post('/v1/api-keys', { name: 'Gone', permissions: ['assistants:read'] });
    const keyApi = client(server.url, res.body.data.key);
    expect((await api.del(`/v1/api-keys/${res.body.data.id}`)).status).toBe(200);
    expect((await keyApi.get('/v1/assistants')).status).toBe(401);
    expect((await api.get(`/v1/api-keys/${res.body.data.id}`)).status).toBe(404);
  });

  it('rotates: the new key works, the old one only during the grace period', async () => {
    const { api } = await owner();
    const old = await api.post('/v1/api-keys', { name: 'Rotating', permissions: ['assistants:read'], allowedIps: ['127.0.0.1', '::1'] });
    const rotated = await api.post(`/v1/api-keys/${old.body.data.id}/rotate`, { graceSeconds: 60 });
    expect(rotated.status).toBe(201);
    expect(rotated.body.data).toMatchObject({ name: 'Rotating', permissions: ['assistants:read'], allowedIps: ['127.0.0.1', '::1'] });
    expect(rotated.body.data.key).not.toBe(old.body.data.key);
    const oldApi = client(server.url, old.body.data.key);
    const newApi = client(server.url, rotated.body.data.key);
    expect((await oldApi.get('/v1/assistants')).status).toBe(200);
    expect((await newApi.get('/v1/assistants')).status).toBe(200);
    clock.advance(61_000);
    expect((await oldApi.get('/v1/assistants')).status).toBe(401);
    expect((await newApi.get('/v1/assistants')).status).toBe(200);
  });

  it('rotates without grace by default and validates graceSeconds', async () => {
    const { api } = await owner();
    const old = await api.post('/v1/api-keys', { name: 'R', permissions: ['assistants:read'] });
    expect((await api.post(`/v1/api-keys/${old.body.data.id}/rotate`, { graceSeconds: 604_801 })).status).toBe(400);
    const rotated = await api.post(`/v1/api-keys/${old.body.data.id}/rotate`);
    expect(rotated.status).toBe(201);
    expect((await client(server.url, old.body.data.key).get('/v1/assistants')).status).toBe(401);
  });

  it('lists keys newest first with pagination', async () => {
    const { api } = await owner();
    for (const name of ['a', 'b', 'c']) {
      await api.post('/v1/api-keys', { name, permissions: ['chat'] });
      clock.advance(1000);
    }
    const res = await api.get('/v1/api-keys?limit=2&page=1');
    expect(res.body.data.map((k: { name: string }) => k.name)).toEqual(['c', 'b']);
    expect(res.body.pagination).toEqual({ total: 3, page: 1, limit: 2, pages: 2 });
    expect(PERMISSIONS.length).toBe(11);
  });
});
