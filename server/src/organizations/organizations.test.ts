import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

describe('organizations', () => {
  it('lists the caller organizations, paginated', async () => {
    const { api, organization } = await registerAccount(server.url, 'Acme');
    const res = await api.get('/v1/organizations');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      data: [{ id: organization.id, name: 'Acme', plan: 'free', createdAt: expect.any(String) }],
      pagination: { total: 1, page: 1, limit: 20, pages: 1 },
    });
  });

  it('patches name and plan; the new plan changes the rate limit at once', async () => {
    const { api, organization } = await registerAccount(server.url);
    const before = await api.get('/v1/organizations');
    expect(before.headers.get('x-ratelimit-limit')).toBe('60');
    const res = await api.patch(`/v1/organizations/${organization.id}`, { name: 'Renamed', plan: 'pro' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Renamed', plan: 'pro' });
    const after = await api.get('/v1/organizations');
    expect(after.headers.get('x-ratelimit-limit')).toBe('300');
  });

  it('validates the patch and hides other organizations behind 404', async () => {
    const a = await registerAccount(server.url);
    const b = await registerAccount(server.url);
    expect((await a.api.patch(`/v1/organizations/${a.organization.id}`, { plan: 'platinum' })).status).toBe(400);
    const other = await a.api.patch(`/v1/organizations/${b.organization.id}`, { name: 'Mine now' });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('resource_not_found');
  });
});
