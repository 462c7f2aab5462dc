import { afterEach, describe, expect, it } from 'vitest';
import { client, registerAccount } from '../../test/http.js';
import { sharedPostgresDatabase, testDatabase, type SharedPostgres } from '../../test/postgres.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { insertApiKey, revokeApiKey } from '../api-keys/service.js';
import { createFakeClock } from '../lib/clock.js';
import type { Storage } from '../storage/port.js';
import { CREDENTIAL_CACHE_TTL_MS, createCredentialResolver } from './credentials.js';
import { PLAN_LIMITS } from './permissions.js';

// The API key cache (credentials.ts): a change made through an instance applies there at once,
// one made elsewhere (another instance, a direct write) within CREDENTIAL_CACHE_TTL_MS.

const AT = '2026-03-01T10:00:00.000Z';
const T0 = Date.parse(AT);
const NEW_KEY = {
  name: 'k',
  permissions: ['assistants:read' as const],
  assistantId: null,
  allowedIps: [],
  rateLimit: { perMinute: null, perDay: null },
  expiresAt: null,
};

describe('API key cache: changes through this instance apply at once', () => {
  let server: TestServer;
  afterEach(async () => {
    await server.close();
  });

  async function warmKey() {
    const clock = createFakeClock(Date.now());
    server = await startServer({ clock });
    const owner = await registerAccount(server.url);
    const created = await owner.api.post('/v1/api-keys', { name: 'Cached', permissions: ['assistants:read'] });
    expect(created.status).toBe(201);
    const keyApi = client(server.url, created.body.data.key as string);
    // Two uses: the second is answered from the cache.
    for (let i = 0; i < 2; i++) expect((await keyApi.get('/v1/assistants')).status).toBe(200);
    return { clock, owner, keyApi, keyId: created.body.data.id as string };
  }

  it('a revoked key is refused on the next request, though it was cached', async () => {
    const { owner, keyApi, keyId } = await warmKey();
    expect((await owner.api.del(`/v1/api-keys/${keyId}`)).status).toBe(200);
    expect((await keyApi.get('/v1/assistants')).status).toBe(401);
  });

  it('rotation without grace refuses the cached old key at once; with grace, until the grace ends', async () => {
    const a = await warmKey();
    expect((await a.owner.api.post(`/v1/api-keys/${a.keyId}/rotate`)).status).toBe(201);
    expect((await a.keyApi.get('/v1/assistants')).status).toBe(401);
    await server.close();

    const b = await warmKey();
    expect((await b.owner.api.post(`/v1/api-keys/${b.keyId}/rotate`, { graceSeconds: 2 })).status).toBe(201);
    expect((await b.keyApi.get('/v1/assistants')).status).toBe(200);
    // The grace (2 s) ends inside the cache TTL: the new expiry was read again, not the cached "never".
    b.clock.advance(2_000);
    expect((await b.keyApi.get('/v1/assistants')).status).toBe(401);
  });

  it("a plan change applies to the cached key's limits on the next request", async () => {
    const { owner, keyApi } = await warmKey();
    expect((await keyApi.get('/v1/assistants')).headers.get('x-ratelimit-limit')).toBe(String(PLAN_LIMITS.free.perMinute));
    expect((await owner.api.patch(`/v1/organizations/${owner.organization.id as string}`, { plan: 'enterprise' })).status).toBe(200);
    expect((await keyApi.get('/v1/assistants')).headers.get('x-ratelimit-limit')).toBe(String(PLAN_LIMITS.enterprise.perMinute));
  });
});

/** An organization with one key, written through `storage`. */
async function orgWithKey(storage: Storage, orgId: string) {
  await storage.run("INSERT INTO organizations (id, name, plan, created_at) VALUES (?, 'Cache', 'free', ?)", [orgId, AT]);
  return insertApiKey(storage, orgId, NEW_KEY, AT);
}

describe('API key cache: changes made elsewhere apply within the TTL', () => {
  let server: TestServer;
  afterEach(async () => {
    await server.close();
  });

  it("a revocation written behind the resolver's back is seen once the TTL has run out, not before", async () => {
    server = await startServer();
    const { storage } = server.ctx;
    const { record, key } = await orgWithKey(storage, 'org_elsewhere');
    const resolver = createCredentialResolver(storage);
    expect(await resolver.resolve(key, T0)).not.toBeNull();
    await revokeApiKey(storage, 'org_elsewhere', record.id, AT);
    // Within the TTL the read of T0 stands (the bounded staleness this cache trades for a read) ...
    expect(await resolver.resolve(key, T0 + CREDENTIAL_CACHE_TTL_MS - 1)).not.toBeNull();
    // ... and not a millisecond longer; a resolver without a cache sees it at once.
    expect(await resolver.resolve(key, T0 + CREDENTIAL_CACHE_TTL_MS)).toBeNull();
    expect(await createCredentialResolver(storage, { cacheTtlMs: 0 }).resolve(key, T0)).toBeNull();
  });

  it('a read that was in flight when the organization was forgotten is not cached', async () => {
    server = await startServer();
    const { storage } = server.ctx;
    const { record, key } = await orgWithKey(storage, 'org_race');
    const resolver = createCredentialResolver(storage);
    const inFlight = resolver.resolve(key, T0);
    resolver.forgetOrganization('org_race');
    expect(await inFlight).not.toBeNull();
    await revokeApiKey(storage, 'org_race', record.id, AT);
    expect(await resolver.resolve(key, T0 + 1)).toBeNull();
  });

  it('last_used_at is still written once a minute for a cached key', async () => {
    server = await startServer();
    const { storage } = server.ctx;
    const { record, key } = await orgWithKey(storage, 'org_touch');
    const resolver = createCredentialResolver(storage, { cacheTtlMs: 120_000 });
    const lastUsed = async () =>
      (await storage.get<{ last_used_at: string | null }>('SELECT last_used_at FROM api_keys WHERE id = ?', [record.id]))?.last_used_at;
    await resolver.resolve(key, T0);
    expect(await lastUsed()).toBe(AT);
    await resolver.resolve(key, T0 + 30_000);
    expect(await lastUsed()).toBe(AT);
    await resolver.resolve(key, T0 + 60_000);
    expect(await lastUsed()).toBe(new Date(T0 + 60_000).toISOString());
  });
});

describe.runIf(testDatabase === 'postgres')('API key cache across two instances on one PostgreSQL database', () => {
  let pg: SharedPostgres | null = null;
  afterEach(async () => {
    await pg?.drop();
    pg = null;
  });

  it('revoked on A: A refuses at once, B within the TTL; a plan change on A reaches B within the TTL', async () => {
    pg = await sharedPostgresDatabase();
    const other = pg.open({ poolSize: 2 });
    const a = createCredentialResolver(pg.storage);
    const b = createCredentialResolver(other);
    const revoked = await orgWithKey(pg.storage, 'org_two');
    const kept = await insertApiKey(pg.storage, 'org_two', NEW_KEY, AT);
    for (const r of [a, b]) for (const { key } of [revoked, kept]) expect(await r.resolve(key, T0)).not.toBeNull();

    // What the DELETE route does on A: the write, then A forgets the organization's keys.
    await revokeApiKey(pg.storage, 'org_two', revoked.record.id, AT);
    await pg.storage.run("UPDATE organizations SET plan = 'enterprise' WHERE id = 'org_two'");
    a.forgetOrganization('org_two');
    expect(await a.resolve(revoked.key, T0 + 1)).toBeNull();
    expect((await a.resolve(kept.key, T0 + 1))?.principal.limits).toEqual(PLAN_LIMITS.enterprise);

    // B still holds its read of T0 until the TTL runs out, then reads both changes.
    expect(await b.resolve(revoked.key, T0 + CREDENTIAL_CACHE_TTL_MS - 1)).not.toBeNull();
    expect((await b.resolve(kept.key, T0 + CREDENTIAL_CACHE_TTL_MS - 1))?.principal.limits).toEqual(PLAN_LIMITS.free);
    expect(await b.resolve(revoked.key, T0 + CREDENTIAL_CACHE_TTL_MS)).toBeNull();
    expect((await b.resolve(kept.key, T0 + CREDENTIAL_CACHE_TTL_MS))?.principal.limits).toEqual(PLAN_LIMITS.enterprise);
  });
});
