import { afterEach, describe, expect, it } from 'vitest';
import { client, registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { createFakeClock } from '../lib/clock.js';
import { LOGIN_LIMITS } from './routes.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

describe('register, login, logout (API.md §4)', () => {
  it('registers a user with an organization and a session token', async () => {
    server = await startServer();
    const res = await client(server.url).post('/v1/auth/register', {
      email: 'Ada@Example.com',
      password: 'long enough pw',
      name: 'Ada',
      organizationName: 'Acme',
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('success');
    expect(res.body.data.user).toEqual({ id: expect.any(String), email: 'ada@example.com', name: 'Ada' });
    expect(res.body.data.organization).toMatchObject({ id: expect.any(String), name: 'Acme', plan: 'free' });
    expect(typeof res.body.data.token).toBe('string');
    const orgs = await client(server.url, res.body.data.token).get('/v1/organizations');
    expect(orgs.body.data.map((o: { name: string }) => o.name)).toEqual(['Acme']);
  });

  it('stores passwords as argon2id hashes', async () => {
    server = await startServer();
    await client(server.url).post('/v1/auth/register', { email: 'hash@example.com', password: 'long enough pw', organizationName: 'A' });
    const row = await server.ctx.storage.get<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = ?', [
      'hash@example.com',
    ]);
    if (!row) throw new Error('no user row');
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('long enough pw');
  });

  it('validates registration input', async () => {
    server = await startServer();
    const api = client(server.url);
    const short = await api.post('/v1/auth/register', { email: 'a@example.com', password: 'short', organizationName: 'A' });
    expect(short.status).toBe(400);
    expect(short.body.error.message).toMatch(/password/);
    const badEmail = await api.post('/v1/auth/register', { email: 'nope', password: 'long enough pw', organizationName: 'A' });
    expect(badEmail.status).toBe(400);
    const noOrg = await api.post('/v1/auth/register', { email: 'a@example.com', password: 'long enough pw' });
    expect(noOrg.status).toBe(400);
    expect(noOrg.body.error.message).toMatch(/organizationName/);
  });

  it('answers 409 conflict for a duplicate email, whatever its case', async () => {
    server = await startServer();
    const api = client(server.url);
    await api.post('/v1/auth/register', { email: 'dup@example.com', password: 'long enough pw', organizationName: 'A' });
    const again = await api.post('/v1/auth/register', { email: 'DUP@example.com', password: 'long enough pw', organizationName: 'B' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
  });

  it('refuses registration with 403 when REGISTRATION=closed', async () => {
    server = await startServer({ config: { registration: 'closed' } });
    const res = await client(server.url).post('/v1/auth/register', {
      email: 'x@example.com',
      password: 'long enough pw',
      organizationName: 'A',
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('permission_denied');
  });

  it('logs in with the right password and refuses a wrong one with 401', async () => {
    server = await startServer();
    const { email } = await registerAccount(server.url);
    const api = client(server.url);
    const ok = await api.post('/v1/auth/login', { email, password: 'correct horse battery' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ user: { email }, organization: { plan: 'free' }, token: expect.any(String) });
    const wrong = await api.post('/v1/auth/login', { email, password: 'wrong password!' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('authentication_error');
    const unknown = await api.post('/v1/auth/login', { email: 'ghost@example.com', password: 'whatever12' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toBe(wrong.body.error.message);
  });

  it(`throttles an email after ${LOGIN_LIMITS.perEmail} failures, even with the right password`, async () => {
    server = await startServer();
    const { email } = await registerAccount(server.url);
    const api = client(server.url);
    for (let i = 0; i < LOGIN_LIMITS.perEmail; i++)
      expect((await api.post('/v1/auth/login', { email, password: 'wrong password!' })).status).toBe(401);
    const blocked = await api.post('/v1/auth/login', { email, password: 'correct horse battery' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('rate_limit_exceeded');
    expect(blocked.headers.get('retry-after')).toBe('900');
  });

  it('logout revokes the presented session token', async () => {
    server = await startServer();
    const { api } = await registerAccount(server.url);
    expect((await api.post('/v1/auth/logout')).status).toBe(200);
    const after = await api.get('/v1/organizations');
    expect(after.status).toBe(401);
  });

  it('expires session tokens after 30 days', async () => {
    const clock = createFakeClock();
    server = await startServer({ clock });
    const { api } = await registerAccount(server.url);
    clock.advance(29 * 86_400_000);
    expect((await api.get('/v1/organizations')).status).toBe(200);
    clock.advance(2 * 86_400_000);
    expect((await api.get('/v1/organizations')).status).toBe(401);
  });

  it('throttles an IP that keeps presenting bad tokens (429 instead of 401)', async () => {
    server = await startServer();
    const api = client(server.url, 'sk_' + 'y'.repeat(43));
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await api.get('/v1/assistants')).status);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
