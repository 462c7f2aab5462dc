import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { client, type HttpResult } from '../../test/http.js';
import { freshPostgresStorage, testDatabase } from '../../test/postgres.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { runOpsCommand, tempSqliteDatabase, type CommandResult } from '../../test/ops-commands.js';

/**
 * `npm run admin` as an operator runs it: a child process on the database a running server
 * uses (a SQLite file, or the PostgreSQL database of the postgres project), its effects checked
 * over HTTP on that server.
 */

/** Each command is a Node process loading the server's modules under tsx: seconds on a loaded machine. */
const COMMANDS_TIMEOUT_MS = 180_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serverWithDatabase(): Promise<{ server: TestServer; databaseUrl: string }> {
  if (testDatabase === 'postgres') {
    const pg = await freshPostgresStorage();
    const server = await startServer({ storage: pg.storage });
    cleanups.push(
      () => pg.drop(),
      () => server.close(),
    );
    return { server, databaseUrl: pg.url };
  }
  const { file, db } = tempSqliteDatabase();
  const server = await startServer({ db });
  cleanups.push(
    async () => {
      db.close();
    },
    () => server.close(),
  );
  return { server, databaseUrl: file };
}

const PASSWORD = 'correct horse battery';
const dashboard = (url: string, cookie?: string): Record<string, string> => ({
  'x-parley-csrf': '1',
  origin: url,
  ...(cookie && { cookie }),
});
const cookieOf = (res: HttpResult): string =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith('parley_session='))
    ?.split(';')[0] ?? '';

/** The one line an error prints, and nothing on stdout. */
function expectOneLineError(r: CommandResult, code: number, message: RegExp): void {
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code, stdout: '' });
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(message);
}

describe(`npm run admin (${testDatabase})`, () => {
  it(
    'reset-password prints a new password once, ends every session of the user, and the new password signs in',
    async () => {
      const { server, databaseUrl } = await serverWithDatabase();
      const api = client(server.url);
      const email = 'ana@example.com';
      const registered = await api.post('/v1/auth/register', { email, password: PASSWORD, organizationName: 'Acme' });
      expect(registered.status).toBe(201);
      const bearer = registered.body.data.token as string;
      const login = await api.post('/v1/auth/login', { email, password: PASSWORD }, { headers: dashboard(server.url) });
      const cookie = cookieOf(login);
      expect(cookie).toMatch(/^parley_session=pst_/);
      expect((await api.get('/v1/auth/me', { headers: dashboard(server.url, cookie) })).status).toBe(200);
      // Another user's session is not touched.
      const other = await api.post('/v1/auth/register', { email: 'bo@example.com', password: PASSWORD, organizationName: 'Bo' });

      const r = await runOpsCommand('admin', ['reset-password', ' Ana@Example.com '], { DATABASE_URL: databaseUrl });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const password = /New password for ana@example\.com \(shown once\): (\S+)/.exec(r.stdout)?.[1] ?? '';
      expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(r.stdout.split(password)).toHaveLength(2); // printed once
      expect(r.stdout).toContain('Sessions revoked: 2');

      expect((await api.get('/v1/auth/me', { headers: dashboard(server.url, cookie) })).status).toBe(401);
      expect((await api.get('/v1/auth/me', { token: bearer })).status).toBe(401);
      expect((await api.get('/v1/auth/me', { token: other.body.data.token as string })).status).toBe(200);
      expect((await api.post('/v1/auth/login', { email, password: PASSWORD })).status).toBe(401);
      const again = await api.post('/v1/auth/login', { email, password }, { headers: dashboard(server.url) });
      expect(again.status).toBe(200);
      expect((await api.get('/v1/auth/me', { headers: dashboard(server.url, cookieOf(again)) })).body.data.user.email).toBe(email);
    },
    COMMANDS_TIMEOUT_MS,
  );

  it(
    'create-user, list-orgs and set-plan: the user signs in as owner, the plan shows over HTTP',
    async () => {
      const { server, databaseUrl } = await serverWithDatabase();
      const env = { DATABASE_URL: databaseUrl };
      const created = await runOpsCommand('admin', ['create-user', 'Cleo@Example.com', '  Cleo & Co  '], env);
      expect(created.code).toBe(0);
      const orgId = /owner of Cleo & Co \((org_[A-Za-z0-9]+), plan free\)/.exec(created.stdout)?.[1] ?? '';
      const password = /Password \(shown once\): (\S+)/.exec(created.stdout)?.[1] ?? '';
      expect(orgId).not.toBe('');
      expect(password).toMatch(/^[A-Za-z0-9]{20}$/);

      const api = client(server.url);
      const login = await api.post('/v1/auth/login', { email: 'cleo@example.com', password });
      expect(login.status).toBe(200);
      const cleo = client(server.url, login.body.data.token as string);
      const me = await cleo.get('/v1/auth/me');
      expect(me.body.data.organization).toMatchObject({ id: orgId, name: 'Cleo & Co', plan: 'free' });
      expect(me.body.data.role).toBe('owner');

      const listed = await runOpsCommand('admin', ['list-orgs'], env);
      expect(listed.code).toBe(0);
      const lines = listed.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^ID\s+PLAN\s+MEMBERS\s+CREATED\s+OWNERS\s+NAME$/);
      expect(lines.find((l) => l.startsWith(orgId))).toMatch(/^org_\S+\s+free\s+1\s+\d{4}-\d\d-\d\d\s+cleo@example\.com\s+Cleo & Co$/);

      const plan = await runOpsCommand('admin', ['set-plan', orgId, 'enterprise'], env);
      expect(plan.code).toBe(0);
      expect(plan.stdout).toContain(`${orgId} (Cleo & Co): plan free -> enterprise`);
      expect((await cleo.get('/v1/auth/me')).body.data.organization.plan).toBe('enterprise');
      expect((await runOpsCommand('admin', ['list-orgs'], env)).stdout).toMatch(new RegExp(`${orgId}\\s+enterprise\\s`));
    },
    COMMANDS_TIMEOUT_MS,
  );

  it(
    'refuses unknown users, organizations and plans, an existing email and bad usage with one line and a non-zero status',
    async () => {
      const { server, databaseUrl } = await serverWithDatabase();
      const env = { DATABASE_URL: databaseUrl };
      await client(server.url).post('/v1/auth/register', { email: 'dee@example.com', password: PASSWORD, organizationName: 'Dee' });
      const [unknownUser, unknownOrg, badPlan, taken, badEmail] = await Promise.all([
        runOpsCommand('admin', ['reset-password', 'nobody@example.com'], env),
        runOpsCommand('admin', ['set-plan', 'org_doesnotexist', 'pro'], env),
        runOpsCommand('admin', ['set-plan', 'org_doesnotexist', 'gold'], env),
        runOpsCommand('admin', ['create-user', 'dee@example.com', 'Again'], env),
        runOpsCommand('admin', ['create-user', 'not-an-email', 'X'], env),
      ]);
      expectOneLineError(unknownUser, 1, /^admin: no user with email nobody@example\.com$/m);
      expectOneLineError(unknownOrg, 1, /^admin: no organization with id org_doesnotexist/m);
      expectOneLineError(badPlan, 2, /^admin: unknown plan "gold": use one of free, pro, enterprise$/m);
      expectOneLineError(taken, 1, /^admin: a user with email dee@example\.com already exists$/m);
      expectOneLineError(badEmail, 2, /"not-an-email" is not a valid email address/);
      // Nothing was changed by the refused commands: still one organization, still free.
      const listed = await runOpsCommand('admin', ['list-orgs'], env);
      expect(listed.stdout.trimEnd().split('\n')).toHaveLength(2);
      expect(listed.stdout).toMatch(/\sfree\s+1\s/);
    },
    COMMANDS_TIMEOUT_MS,
  );

  it.skipIf(testDatabase !== 'sqlite')(
    'bad usage, --help, and a SQLite file that does not exist (never created)',
    async () => {
      const missing = '/tmp/parley-ops-no-such-dir/parley.db';
      const [none, unknown, arity, help, absent] = await Promise.all([
        runOpsCommand('admin', [], {}),
        runOpsCommand('admin', ['drop-everything'], {}),
        runOpsCommand('admin', ['set-plan', 'org_x'], {}),
        runOpsCommand('admin', ['--help'], {}),
        runOpsCommand('admin', ['list-orgs'], { DATABASE_URL: missing }),
      ]);
      expectOneLineError(none, 2, /^admin: no command given \(npm run admin -- --help\)$/m);
      expectOneLineError(unknown, 2, /^admin: unknown command "drop-everything"/m);
      expectOneLineError(arity, 2, /^admin: usage: npm run admin -- set-plan <organization id> <plan>/m);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: npm run admin -- <command>/);
      for (const command of [
        'reset-password <email>',
        'list-orgs',
        'set-plan <organization id> <plan>',
        'create-user <email> <organization name>',
      ]) {
        expect(help.stdout).toContain(command);
      }
      expectOneLineError(absent, 1, new RegExp(`^admin: no SQLite database at ${missing}`, 'm'));
      expect(fs.existsSync(missing)).toBe(false);
    },
    COMMANDS_TIMEOUT_MS,
  );
});
