import { afterEach, describe, expect, it } from 'vitest';
import { registerAccount } from '../../test/http.js';
import { sharedPostgresDatabase, testDatabase, type SharedPostgres } from '../../test/postgres.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { createFakeClock } from '../lib/clock.js';
import type { Storage } from '../storage/port.js';
import { assistantConfigSchema } from './schemas.js';
import { ASSISTANT_CACHE_TTL_MS, createAssistantStore } from './service.js';

// The chat assistant cache (service.ts): a change made through an instance applies there at once,
// one made elsewhere (another instance, a direct write) within ASSISTANT_CACHE_TTL_MS.

const AT = '2026-03-01T10:00:00.000Z';
const T0 = Date.parse(AT);
const template = (response: string) => ({ trigger: 'ping', match: 'exact', response });

describe('assistant cache: changes through this instance apply at once', () => {
  let server: TestServer;
  afterEach(async () => {
    await server.close();
  });

  /** An assistant whose answer to "ping" is its template, already read twice by chat (cached). */
  async function warmAssistant() {
    // A still clock: without the forget, the cached assistant would stay for good.
    server = await startServer({ clock: createFakeClock(Date.now()) });
    const owner = await registerAccount(server.url);
    const created = await owner.api.post('/v1/assistants', { type: 'api', name: 'Cached', templates: [template('v1')] });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const ping = () => owner.api.post(`/v1/integrations/${id}/chat`, { message: 'ping' });
    for (let i = 0; i < 2; i++) expect((await ping()).body.response).toBe('v1');
    return { owner, id, ping };
  }

  it('an update through the routes is answered with on the next chat request', async () => {
    const { owner, id, ping } = await warmAssistant();
    expect((await owner.api.patch(`/v1/assistants/${id}`, { templates: [template('v2')] })).status).toBe(200);
    expect((await ping()).body.response).toBe('v2');
  });

  it('a deleted assistant 404s on the next chat request', async () => {
    const { owner, id, ping } = await warmAssistant();
    expect((await owner.api.del(`/v1/assistants/${id}`)).status).toBe(200);
    expect((await ping()).status).toBe(404);
  });
});

/** An organization with one assistant, written through `storage`. */
async function orgWithAssistant(storage: Storage, orgId: string) {
  await storage.run("INSERT INTO organizations (id, name, plan, created_at) VALUES (?, 'Cache', 'free', ?)", [orgId, AT]);
  return createAssistantStore(storage, { cacheTtlMs: 0 }).create(orgId, 'api', assistantConfigSchema.parse({ name: 'before' }), AT);
}

describe('assistant cache: changes made elsewhere apply within the TTL', () => {
  let server: TestServer;
  afterEach(async () => {
    await server.close();
  });

  it("a rename and a delete written behind the store's back are seen once the TTL has run out, not before", async () => {
    server = await startServer();
    const { storage } = server.ctx;
    const a = await orgWithAssistant(storage, 'org_elsewhere');
    const clock = createFakeClock(T0);
    const store = createAssistantStore(storage, { now: () => clock.now() });
    expect((await store.recent('org_elsewhere', a.id))?.name).toBe('before');
    await storage.run("UPDATE assistants SET name = 'after' WHERE id = ?", [a.id]);
    clock.advance(ASSISTANT_CACHE_TTL_MS - 1);
    expect((await store.recent('org_elsewhere', a.id))?.name).toBe('before');
    clock.advance(1);
    expect((await store.recent('org_elsewhere', a.id))?.name).toBe('after');

    await storage.run('DELETE FROM assistants WHERE id = ?', [a.id]);
    expect(await store.recent(null, a.id)).not.toBeNull();
    clock.advance(ASSISTANT_CACHE_TTL_MS);
    expect(await store.recent(null, a.id)).toBeNull();
  });

  it("another organization's id is not found, cached or not", async () => {
    server = await startServer();
    const a = await orgWithAssistant(server.ctx.storage, 'org_own');
    const store = createAssistantStore(server.ctx.storage);
    expect(await store.recent('org_other', a.id)).toBeNull();
    expect((await store.recent(null, a.id))?.id).toBe(a.id);
    expect(await store.recent('org_other', a.id)).toBeNull();
  });

  it('a read in flight during a forget is not kept (it may predate the change)', async () => {
    server = await startServer();
    const { storage } = server.ctx;
    const a = await orgWithAssistant(storage, 'org_race');
    const store = createAssistantStore(storage, { now: () => T0 });
    const inFlight = store.recent('org_race', a.id);
    store.forgetOrganization('org_race');
    expect((await inFlight)?.name).toBe('before');
    // Written without a forget: only a read made after the forget could have been kept, and none was.
    await storage.run("UPDATE assistants SET name = 'after' WHERE id = ?", [a.id]);
    expect((await store.recent('org_race', a.id))?.name).toBe('after');
  });
});

describe.runIf(testDatabase === 'postgres')('assistant cache across two instances on one PostgreSQL database', () => {
  let pg: SharedPostgres | null = null;
  afterEach(async () => {
    await pg?.drop();
    pg = null;
  });

  it('updated and deleted on A: A at once, B within the TTL', async () => {
    pg = await sharedPostgresDatabase();
    const other = pg.open({ poolSize: 2 });
    const clock = createFakeClock(T0);
    const a = createAssistantStore(pg.storage, { now: () => clock.now() });
    const b = createAssistantStore(other, { now: () => clock.now() });
    const asst = await orgWithAssistant(pg.storage, 'org_two');
    for (const s of [a, b]) expect((await s.recent('org_two', asst.id))?.name).toBe('before');

    // What the PATCH route does on A: the write in a transaction, then A forgets the organization's assistants.
    await pg.storage.tx((tx) => a.replace('org_two', asst.id, assistantConfigSchema.parse({ name: 'after' }), AT, tx));
    a.forgetOrganization('org_two');
    clock.advance(1);
    expect((await a.recent('org_two', asst.id))?.name).toBe('after');
    expect((await b.recent('org_two', asst.id))?.name).toBe('before');
    clock.advance(ASSISTANT_CACHE_TTL_MS - 1);
    expect((await b.recent('org_two', asst.id))?.name).toBe('after');

    // Deleted through B's own store (no caller transaction): B at once, A within the TTL.
    expect(await b.remove('org_two', asst.id)).toBe(true);
    expect(await b.recent('org_two', asst.id)).toBeNull();
    expect(await a.recent('org_two', asst.id)).not.toBeNull();
    clock.advance(ASSISTANT_CACHE_TTL_MS);
    expect(await a.recent('org_two', asst.id)).toBeNull();
  });
});
