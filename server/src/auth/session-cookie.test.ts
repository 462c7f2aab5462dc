import { afterEach, describe, expect, it } from 'vitest';
import { client, registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { createFakeClock } from '../lib/clock.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const PASSWORD = 'correct horse battery';

/** Headers a dashboard page on the server's own origin sends. */
const dashboard = (origin: string, cookie?: string): Record<string, string> => ({
  'x-parley-csrf': '1',
  origin,
  ...(cookie && { cookie }),
});

function sessionCookieOf(res: { headers: Headers }): { value: string; attributes: string } {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('parley_session=')) ?? '';
  const [pair = '', ...attributes] = line.split(';');
  return { value: pair.slice('parley_session='.length), attributes: attributes.map((a) => a.trim()).join('; ') };
}

async function dashboardLogin(url: string, origin = url) {
  const { email } = await registerAccount(url);
  const res = await client(url).post('/v1/auth/login', { email, password: PASSWORD }, { headers: dashboard(origin) });
  return { res, email, cookie: `parley_session=${sessionCookieOf(res).value}` };
}

describe('dashboard session cookie (API.md §11)', () => {
  it('login from the dashboard sets an httpOnly SameSite=Strict cookie and keeps the token out of the body', async () => {
    server = await startServer();
    const { res } = await dashboardLogin(server.url);
    expect(res.status).toBe(200);
    expect(res.body.data.token).toBeUndefined();
    expect(res.body.data.user.email).toMatch(/@example\.com$/);
    const cookie = sessionCookieOf(res);
    expect(cookie.value).toMatch(/^pst_/);
    expect(cookie.attributes).toContain('HttpOnly');
    expect(cookie.attributes).toContain('SameSite=Strict');
    expect(cookie.attributes).toContain('Path=/');
    expect(cookie.attributes).toContain('Max-Age=2592000');
    expect(cookie.attributes).not.toContain('Secure'); // PUBLIC_URL is http here
  });

  it('register from the dashboard sets the cookie too; without the header both answer the token as before', async () => {
    server = await startServer();
    const api = client(server.url);
    const viaDashboard = await api.post(
      '/v1/auth/register',
      { email: 'dash@example.com', password: PASSWORD, organizationName: 'D' },
      { headers: dashboard(server.url) },
    );
    expect(viaDashboard.status).toBe(201);
    expect(viaDashboard.body.data.token).toBeUndefined();
    expect(sessionCookieOf(viaDashboard).value).toMatch(/^pst_/);
    const plain = await api.post('/v1/auth/login', { email: 'dash@example.com', password: PASSWORD });
    expect(plain.body.data.token).toMatch(/^pst_/);
    expect(plain.headers.getSetCookie()).toEqual([]);
  });

  it('under https names the cookie __Host-parley_session: Secure, Path=/, no Domain; a plain parley_session is ignored', async () => {
    const origin = 'https://parley.example.com';
    server = await startServer({ config: { publicUrl: origin } });
    const { email } = await registerAccount(server.url);
    const res = await client(server.url).post('/v1/auth/login', { email, password: PASSWORD }, { headers: dashboard(origin) });
    const line = res.headers.getSetCookie().find((c) => c.startsWith('__Host-parley_session=')) ?? '';
    const [pair = '', ...attributes] = line.split(';').map((a) => a.trim());
    expect(attributes).toContain('Secure');
    expect(attributes).toContain('Path=/');
    expect(attributes.some((a) => /^domain=/i.test(a))).toBe(false);
    expect((await client(server.url).get('/v1/auth/me', { headers: dashboard(origin, pair) })).status).toBe(200);
    // The unprefixed name is what a sibling subdomain could plant: under https it is not a session.
    const token = pair.slice('__Host-parley_session='.length);
    expect((await client(server.url).get('/v1/auth/me', { headers: dashboard(origin, `parley_session=${token}`) })).status).toBe(401);
    const out = await client(server.url).post('/v1/auth/logout', undefined, { headers: dashboard(origin, pair) });
    expect(out.headers.getSetCookie().join()).toMatch(/^__Host-parley_session=;/);
  });

  it('refuses a request carrying two session cookies (cookie tossing), whichever comes first', async () => {
    server = await startServer();
    const mine = await dashboardLogin(server.url);
    const planted = await dashboardLogin(server.url); // the attacker's own valid session
    for (const cookie of [
      `${planted.cookie}; ${mine.cookie}`,
      `${mine.cookie}; ${planted.cookie}`,
      `${mine.cookie}; parley_session=pst_unknown`,
    ]) {
      const res = await client(server.url).get('/v1/auth/me', { headers: dashboard(server.url, cookie) });
      expect(res.status, cookie).toBe(401);
      expect(res.body.error.message).toMatch(/more than one parley_session cookie/);
    }
    expect(
      (await client(server.url).get('/v1/auth/me', { headers: dashboard(server.url, `other=1; ${mine.cookie}`) })).body.data.user.email,
    ).toBe(mine.email);
  });

  it("accepts the cookie only with the CSRF header and PUBLIC_URL's origin", async () => {
    server = await startServer();
    const { cookie } = await dashboardLogin(server.url);
    const api = client(server.url);
    const ok = await api.get('/v1/auth/me', { headers: dashboard(server.url, cookie) });
    expect(ok.status).toBe(200);
    expect(ok.body.data.role).toBe('owner');

    const otherOrigin = await api.get('/v1/auth/me', { headers: dashboard('https://evil.example.com', cookie) });
    expect(otherOrigin.status).toBe(401);
    const noHeader = await api.get('/v1/auth/me', { headers: { origin: server.url, cookie } });
    expect(noHeader.status).toBe(401);
    const wrongHeader = await api.get('/v1/auth/me', { headers: { origin: server.url, cookie, 'x-parley-csrf': 'yes' } });
    expect(wrongHeader.status).toBe(401);
    // No Origin header: only a same-origin fetch (Sec-Fetch-Site) counts.
    const sameOrigin = await api.get('/v1/auth/me', { headers: { cookie, 'x-parley-csrf': '1', 'sec-fetch-site': 'same-origin' } });
    expect(sameOrigin.status).toBe(200);
    const crossSite = await api.get('/v1/auth/me', { headers: { cookie, 'x-parley-csrf': '1', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(401);
    // A write through the cookie works the same way.
    const created = await api.post('/v1/knowledge-bases', { name: 'From the dashboard' }, { headers: dashboard(server.url, cookie) });
    expect(created.status).toBe(201);
    const forged = await api.post('/v1/knowledge-bases', { name: 'Forged' }, { headers: dashboard('http://localhost:1', cookie) });
    expect(forged.status).toBe(401);
  });

  it('a dashboard sign-in from another origin is refused with the reason, no cookie and no token', async () => {
    server = await startServer();
    const { res } = await dashboardLogin(server.url, 'http://localhost:1');
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.body.error.message).toContain(`Sign in from ${server.url}/dashboard/`);
    const register = await client(server.url).post(
      '/v1/auth/register',
      { email: 'x@example.com', password: PASSWORD, organizationName: 'X' },
      { headers: dashboard('http://localhost:1') },
    );
    expect(register.status).toBe(403);
    expect(register.body.data).toBeUndefined();
  });

  it('says why a cookie was not honoured', async () => {
    server = await startServer();
    const { cookie } = await dashboardLogin(server.url);
    const res = await client(server.url).get('/v1/auth/me', { headers: { cookie, origin: 'http://localhost:1', 'x-parley-csrf': '1' } });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toContain(`from ${server.url} (PUBLIC_URL)`);
  });

  it('grants no CORS preflight for the CSRF header to another origin (so no other page can send it)', async () => {
    server = await startServer();
    for (const path of ['/v1/auth/me', '/v1/auth/login', '/v1/assistants']) {
      const res = await fetch(server.url + path, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://evil.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-parley-csrf, content-type',
        },
      });
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(res.headers.get('access-control-allow-headers'), path).toBeNull();
    }
  });

  it('never takes an API key from the cookie', async () => {
    server = await startServer();
    const { api } = await registerAccount(server.url);
    const key = await api.post('/v1/api-keys', { name: 'k', permissions: ['assistants:read'] });
    const res = await client(server.url).get('/v1/assistants', { headers: dashboard(server.url, `parley_session=${key.body.data.key}`) });
    expect(res.status).toBe(401);
  });

  it('bearer tokens keep working and win over a cookie', async () => {
    server = await startServer();
    const { token } = await registerAccount(server.url);
    const res = await client(server.url, token).get('/v1/auth/me', { headers: { cookie: 'parley_session=pst_unknown' } });
    expect(res.status).toBe(200);
  });

  it('logout with the cookie revokes the session server-side and clears the cookie', async () => {
    server = await startServer();
    const { cookie } = await dashboardLogin(server.url);
    const api = client(server.url);
    const out = await api.post('/v1/auth/logout', undefined, { headers: dashboard(server.url, cookie) });
    expect(out.status).toBe(200);
    const cleared = sessionCookieOf(out);
    expect(cleared.value).toBe('');
    expect(cleared.attributes).toMatch(/Expires=Thu, 01 Jan 1970/);
    // The same cookie replayed (a copy kept elsewhere) is dead.
    expect((await api.get('/v1/auth/me', { headers: dashboard(server.url, cookie) })).status).toBe(401);
  });

  it('the cookie session expires after 30 days like a token', async () => {
    const clock = createFakeClock();
    server = await startServer({ clock });
    const { cookie } = await dashboardLogin(server.url);
    clock.advance(31 * 86_400_000);
    expect((await client(server.url).get('/v1/auth/me', { headers: dashboard(server.url, cookie) })).status).toBe(401);
  });
});

describe('GET/PATCH /v1/auth/me, POST /v1/auth/password', () => {
  it('describes a user session and an API key', async () => {
    server = await startServer();
    const { api, user, organization } = await registerAccount(server.url, 'Acme');
    const me = await api.get('/v1/auth/me');
    expect(me.body.data).toEqual({
      user: { id: user.id, email: user.email, name: null },
      organization: { id: organization.id, name: 'Acme', plan: 'free', limits: { perMinute: 60, perDay: 1000 } },
      limits: { perMinute: 60, perDay: 1000 },
      role: 'owner',
      permissions: expect.arrayContaining(['organizations:write', 'api_keys:write', 'chat']),
    });
    expect(me.body.data.permissions).toHaveLength(11);
    const key = await api.post('/v1/api-keys', { name: 'k', permissions: ['chat', 'assistants:read'], rateLimit: { perMinute: 5 } });
    const asKey = await client(server.url, key.body.data.key).get('/v1/auth/me');
    expect(asKey.body.data).toEqual({
      user: null,
      role: null,
      permissions: ['chat', 'assistants:read'],
      organization: { id: organization.id, name: 'Acme', plan: 'free', limits: { perMinute: 60, perDay: 1000 } },
      limits: { perMinute: 5, perDay: 1000 },
    });
  });

  it('renames the user; a key cannot', async () => {
    server = await startServer();
    const { api } = await registerAccount(server.url);
    const res = await api.patch('/v1/auth/me', { name: 'Ada Lovelace' });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('Ada Lovelace');
    expect((await api.get('/v1/auth/me')).body.data.user.name).toBe('Ada Lovelace');
    expect((await api.patch('/v1/auth/me', { name: '' })).body.error.message).toMatch(/^name: /);
    const key = await api.post('/v1/api-keys', { name: 'k', permissions: ['chat'] });
    expect((await client(server.url, key.body.data.key).patch('/v1/auth/me', { name: 'x' })).status).toBe(403);
  });

  it('changes the password: other sessions end, the current one stays, the new password logs in', async () => {
    server = await startServer();
    const { api, email } = await registerAccount(server.url);
    const anon = client(server.url);
    const other = client(server.url, (await anon.post('/v1/auth/login', { email, password: PASSWORD })).body.data.token);
    const wrong = await api.post('/v1/auth/password', { currentPassword: 'not it at all', newPassword: 'a brand new password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/^currentPassword: /);
    const short = await api.post('/v1/auth/password', { currentPassword: PASSWORD, newPassword: 'short' });
    expect(short.body.error.message).toMatch(/^newPassword: /);
    const ok = await api.post('/v1/auth/password', { currentPassword: PASSWORD, newPassword: 'a brand new password' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ changed: true, revokedSessions: 1 });
    expect((await api.get('/v1/auth/me')).status).toBe(200);
    expect((await other.get('/v1/auth/me')).status).toBe(401);
    expect((await anon.post('/v1/auth/login', { email, password: PASSWORD })).status).toBe(401);
    expect((await anon.post('/v1/auth/login', { email, password: 'a brand new password' })).status).toBe(200);
  });
});

describe('failed-auth throttle (issue 11)', () => {
  it('throttles only failing attempts: a valid token from a throttled address still works', async () => {
    server = await startServer();
    const { api } = await registerAccount(server.url);
    const bad = client(server.url, 'sk_' + 'z'.repeat(43));
    for (let i = 0; i < 30; i++) expect((await bad.get('/v1/assistants')).status).toBe(401);
    expect((await bad.get('/v1/assistants')).status).toBe(429);
    // Same address (every test client is 127.0.0.1), valid credential: served.
    const good = await api.get('/v1/assistants');
    expect(good.status).toBe(200);
    expect(good.headers.get('x-ratelimit-limit')).toBe('60');
    // The address is still over the limit for bad tokens, and for no token at all.
    expect((await bad.get('/v1/assistants')).status).toBe(429);
    expect((await client(server.url).get('/v1/assistants')).status).toBe(429);
  });

  it('lets the address try again after the minute', async () => {
    const clock = createFakeClock();
    server = await startServer({ clock });
    const bad = client(server.url, 'sk_' + 'q'.repeat(43));
    for (let i = 0; i < 30; i++) await bad.get('/v1/assistants');
    expect((await bad.get('/v1/assistants')).status).toBe(429);
    clock.advance(60_001);
    expect((await bad.get('/v1/assistants')).status).toBe(401);
  });
});
