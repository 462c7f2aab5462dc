import { afterEach, describe, expect, it } from 'vitest';
import { client, registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { contextWords } from './password-policy.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const EMAIL = 'dana.fox@acme-widgets.example';
/** Each refused password and the reason the 400 must give (NIST SP 800-63B: blocklist and context words). */
const REFUSED: Array<[string, RegExp]> = [
  ['aaaaaaaaaa', /repeats characters/],
  [' '.repeat(10), /is only spaces/],
  ['1234567890', /is on a list of commonly used passwords/],
  ['password12', /is on a list of commonly used passwords/],
  ['qwertyuiop', /is on a list of commonly used passwords/],
  [EMAIL, /contains your email address, your name, the organization's name or "parley"/],
  ['Dana.Fox.2024', /contains your email address/],
  ['Acme Widgets 1', /contains your email address, your name, the organization's name/],
  ['parleyparley', /./],
];

describe('new passwords follow NIST SP 800-63B (issue 24)', () => {
  it('register refuses common and context-specific passwords, saying why; good ones pass', async () => {
    server = await startServer();
    const api = client(server.url);
    for (const [password, reason] of REFUSED) {
      const res = await api.post('/v1/auth/register', { email: EMAIL, password, name: 'Dana', organizationName: 'Acme Widgets' });
      expect(res.status, password).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message, password).toMatch(/^password: /);
      expect(res.body.error.message, password).toMatch(reason);
    }
    expect(
      (await api.post('/v1/auth/register', { email: 'x@example.com', password: 'short', organizationName: 'A' })).body.error.message,
    ).toMatch(/^password: must be at least 10 characters/);
    for (const [i, password] of ['parley-demo-password', 'correct horse battery', 'member password 1'].entries()) {
      const ok = await api.post('/v1/auth/register', { email: `ok${i}@example.com`, password, organizationName: 'Acme Widgets' });
      expect(ok.status, password).toBe(201);
    }
  });

  it('password change and invitation accept refuse them too', async () => {
    server = await startServer();
    const owner = await registerAccount(server.url, 'Acme Widgets');
    for (const newPassword of ['aaaaaaaaaa', '1234567890', 'password12', owner.email]) {
      const res = await owner.api.post('/v1/auth/password', { currentPassword: 'correct horse battery', newPassword });
      expect(res.status, newPassword).toBe(400);
      expect(res.body.error.message, newPassword).toMatch(/^newPassword: (repeats|is on a list|contains your email)/);
    }
    expect(
      (await owner.api.post('/v1/auth/password', { currentPassword: 'correct horse battery', newPassword: 'a brand new password' })).status,
    ).toBe(200);
    const invite = await owner.api.post(`/v1/organizations/${owner.organization.id}/invitations`, { role: 'viewer' });
    const accept = (password: string, email = 'erin.mills@example.com') =>
      client(server.url).post(`/v1/invitations/${invite.body.data.token}/accept`, { email, password });
    for (const password of [' '.repeat(10), 'password12', 'erin.mills@example.com', 'acmewidgets']) {
      const res = await accept(password);
      expect(res.status, password).toBe(400);
      expect(res.body.error.message, password).toMatch(/^password: /);
    }
    expect((await accept('erin password 12')).status).toBe(201);
  });

  it('the context is the email, its parts, the names and "parley"', () => {
    expect(contextWords({ email: 'Dana.Fox@Acme-Widgets.example', name: 'Dana Fox', organizationName: 'Acme Widgets' })).toEqual([
      'dana.fox@acme-widgets.example',
      'dana.fox',
      'acme-widgets.example',
      'dana',
      'fox',
      'acme-widgets',
      'example',
      'dana fox',
      'acme widgets',
      'acme',
      'widgets',
      'parley',
    ]);
  });
});
