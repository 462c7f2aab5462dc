import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, killGroup, startMain, type Running } from '../../test/main-process.js';
import { freshPostgresStorage, scratchPostgresDatabase, testDatabase } from '../../test/postgres.js';
import { runOpsCommand } from '../../test/ops-commands.js';

/**
 * `npm run backup` tested as an operator uses it: the real server process (as `npm start` runs
 * it) under steady writes over HTTP, the backup command run as a child process in the middle,
 * then a server started on the copy. On PostgreSQL, the documented pg_dump/pg_restore procedure
 * (docs/deploy-containers.md) run the same way.
 */

const TIMEOUT_MS = 240_000;
const running: Running[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const r of running.splice(0)) killGroup(r.child, 'SIGKILL');
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(env: Record<string, string>): Promise<{ url: string; key: string; srv: Running }> {
  const port = await freePort();
  const srv = await startMain({ PORT: String(port), DEMO_TRAFFIC_CONVERSATIONS: '0', ...env });
  running.push(srv);
  const key = /Bearer (sk_[A-Za-z0-9_-]+)/.exec(srv.output())?.[1];
  if (!key) throw new Error(`no demo key in the banner:\n${srv.output()}`);
  return { url: `http://127.0.0.1:${port}`, key, srv };
}

async function stop(srv: Running): Promise<void> {
  srv.child.kill('SIGTERM');
  expect(await srv.exited).toBe(0);
  running.splice(running.indexOf(srv), 1);
}

/** Every knowledge base name the server lists (pages of 100). */
async function knowledgeBaseNames(url: string, key: string): Promise<Set<string>> {
  const names = new Set<string>();
  for (let page = 1; ; page += 1) {
    const res = await fetch(`${url}/v1/knowledge-bases?limit=100&page=${page}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { name: string }[]; pagination: { pages: number } };
    for (const kb of body.data) names.add(kb.name);
    if (page >= body.pagination.pages) return names;
  }
}

describe.skipIf(testDatabase !== 'sqlite')('npm run backup (SQLite)', () => {
  it(
    'copies a serving database mid-traffic: every write acknowledged before it started is in the copy, which is intact and serves',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-backup-'));
      const live = path.join(dir, 'parley.db');
      const copy = path.join(dir, 'backup', 'copy.db');
      fs.mkdirSync(path.dirname(copy));
      const { url } = await start({ DATABASE_URL: live });
      // A dashboard session (cookie) allows 600 requests a minute: writes are paced below that.
      const headers = { 'content-type': 'application/json', 'x-parley-csrf': '1', origin: `http://localhost:${new URL(url).port}` };
      const login = await fetch(`${url}/v1/auth/login`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'demo@parley.local', password: 'parley-demo-password' }),
      });
      expect(login.status).toBe(200);
      const cookie =
        login.headers
          .getSetCookie()
          .find((c) => c.startsWith('parley_session='))
          ?.split(';')[0] ?? '';

      const acked: Array<{ name: string; at: number }> = [];
      let writing = true;
      let n = 0;
      const writer = async () => {
        while (writing) {
          const name = `kb-${n++}`;
          const res = await fetch(`${url}/v1/knowledge-bases`, {
            method: 'POST',
            headers: { ...headers, cookie },
            body: JSON.stringify({ name }),
          });
          if (res.status === 201) acked.push({ name, at: performance.now() });
          else expect(res.status).toBe(201);
          await new Promise((r) => setTimeout(r, 150));
        }
      };
      const writers = [writer(), writer()];
      while (acked.length < 10) await new Promise((r) => setTimeout(r, 50));

      const startedAt = performance.now();
      const backup = await runOpsCommand('backup', [copy], { DATABASE_URL: live });
      const endedAt = performance.now();
      writing = false;
      await Promise.all(writers);

      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      const before = acked.filter((w) => w.at < startedAt).map((w) => w.name);
      const during = acked.filter((w) => w.at >= startedAt && w.at <= endedAt);
      expect(during.length).toBeGreaterThan(0); // the server kept serving writes while the copy was made
      expect(backup.stdout).toContain(`Backup written: ${copy}`);
      const bytes = fs.statSync(copy).size;
      expect(backup.stdout).toMatch(new RegExp(`size: .*\\(${bytes} bytes, ${bytes / 4096} pages of 4096 bytes\\)`));
      expect(backup.stdout).toContain('check:    ok');
      expect(backup.stdout).toMatch(/contents: 1 organizations, 1 users, 1 assistants, \d+ documents, \d+ conversations, \d+ messages/);
      expect(backup.stdout).toContain(`Restore: stop the server, then start it with DATABASE_URL=${copy}`);
      expect(fs.readdirSync(path.dirname(copy))).toEqual(['copy.db']); // no partial or WAL files left

      const check = new Database(copy, { readonly: true });
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      const inCopy = check.prepare('SELECT COUNT(*) AS n FROM knowledge_bases WHERE name LIKE ?').get('kb-%') as { n: number };
      check.close();
      expect(inCopy.n).toBeGreaterThanOrEqual(before.length);

      // Restore = start on the copy: everything acknowledged before the backup started is served.
      const restored = await start({ DATABASE_URL: copy });
      const names = await knowledgeBaseNames(restored.url, restored.key);
      for (const name of before) expect(names).toContain(name);
      await stop(restored.srv);
    },
    TIMEOUT_MS,
  );

  it(
    'never overwrites a file unless --force, and refuses a missing database or directory',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-backup-'));
      const live = path.join(dir, 'parley.db');
      const db = new Database(live);
      db.exec(
        'CREATE TABLE organizations (id TEXT); CREATE TABLE users (id TEXT); CREATE TABLE assistants (id TEXT);' +
          ' CREATE TABLE documents (id TEXT); CREATE TABLE conversations (id TEXT); CREATE TABLE messages (id TEXT);' +
          " INSERT INTO organizations VALUES ('org_1'), ('org_2');",
      );
      db.close();
      const target = path.join(dir, 'existing.db');
      fs.writeFileSync(target, 'an older backup');
      const env = { DATABASE_URL: live };
      const [refused, missingDb, missingDir] = await Promise.all([
        runOpsCommand('backup', [target], env),
        runOpsCommand('backup', [path.join(dir, 'x.db')], { DATABASE_URL: path.join(dir, 'nothing-here.db') }),
        runOpsCommand('backup', [path.join(dir, 'no', 'such', 'dir.db')], env),
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`backup: ${target} exists: name a new file, or add --force to replace it\n`);
      expect(fs.readFileSync(target, 'utf8')).toBe('an older backup');
      expect(missingDb.code).toBe(1);
      expect(missingDb.stderr).toMatch(/^backup: no SQLite database at .*nothing-here\.db/);
      expect(fs.existsSync(path.join(dir, 'nothing-here.db'))).toBe(false);
      expect(missingDir.code).toBe(1);
      expect(missingDir.stderr).toMatch(/^backup: the directory .*no\/such does not exist\n$/);

      const forced = await runOpsCommand('backup', [target, '--force'], env);
      expect(forced.code).toBe(0);
      expect(forced.stdout).toContain('contents: 2 organizations, 0 users');
      const copy = new Database(target, { readonly: true });
      expect(copy.prepare('SELECT id FROM organizations ORDER BY id').all()).toEqual([{ id: 'org_1' }, { id: 'org_2' }]);
      copy.close();
      expect(fs.readdirSync(dir).sort()).toEqual(['existing.db', 'parley.db']);
    },
    TIMEOUT_MS,
  );
});

describe('npm run backup on PostgreSQL', () => {
  it(
    'explains pg_dump and pg_restore with the commands, never prints the password, and exits non-zero',
    async () => {
      const r = await runOpsCommand('backup', ['ignored.db'], { DATABASE_URL: 'postgres://parley:s3cret@db.internal:5433/parley' });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('DATABASE_URL is PostgreSQL (db.internal:5433/parley)');
      expect(r.stderr).toContain('pg_dump --format=custom --file=parley.dump "$DATABASE_URL"');
      expect(r.stderr).toContain('pg_restore --no-owner --exit-on-error --dbname=');
      expect(r.stderr).not.toContain('s3cret');
      expect(fs.existsSync('ignored.db')).toBe(false);
    },
    TIMEOUT_MS,
  );
});

/** pg_dump/pg_restore of the newest PostgreSQL on the machine (Debian keeps them off PATH). */
function postgresTool(name: 'pg_dump' | 'pg_restore'): string | null {
  const versions = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const file = `/usr/lib/postgresql/${v}/bin/${name}`;
    if (fs.existsSync(file)) return file;
  }
  try {
    return execFileSync('which', [name], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}
const pgDump = postgresTool('pg_dump');
const pgRestore = postgresTool('pg_restore');

describe.skipIf(testDatabase !== 'postgres')('PostgreSQL backup and restore (the documented procedure)', () => {
  it.skipIf(!pgDump || !pgRestore)(
    `pg_dump -Fc of a serving database, pg_restore into a new one, and a server on it has every write${pgDump ? '' : ' [skipped: no pg_dump on this machine]'}`,
    async () => {
      const source = await freshPostgresStorage();
      cleanups.push(() => source.drop());
      const target = await scratchPostgresDatabase();
      cleanups.push(() => target.drop());
      const env = { RATE_LIMIT_STORE: 'memory', LOG_LEVEL: 'warn' };
      const live = await start({ ...env, DATABASE_URL: source.url, SEED_DEMO: 'true' });
      const names = Array.from({ length: 12 }, (_, i) => `kb-${i}`);
      for (const name of names) {
        const res = await fetch(`${live.url}/v1/knowledge-bases`, {
          method: 'POST',
          headers: { authorization: `Bearer ${live.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
        expect(res.status).toBe(201);
      }
      const dump = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-pgdump-')), 'parley.dump');
      // While the server serves: pg_dump reads one snapshot.
      execFileSync(pgDump!, ['--format=custom', `--file=${dump}`, source.url], { stdio: 'pipe' });
      await stop(live.srv);
      execFileSync(pgRestore!, ['--no-owner', '--exit-on-error', `--dbname=${target.url}`, dump], { stdio: 'pipe' });

      const restored = await start({ ...env, DATABASE_URL: target.url });
      const served = await knowledgeBaseNames(restored.url, restored.key);
      for (const name of names) expect(served).toContain(name);
      const after = await fetch(`${restored.url}/v1/knowledge-bases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${restored.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'after restore' }),
      });
      expect(after.status).toBe(201); // identity sequences came back too: new rows insert
      await stop(restored.srv);
    },
    TIMEOUT_MS,
  );
});
