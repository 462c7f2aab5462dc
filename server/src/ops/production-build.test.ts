import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, killGroup } from '../../test/main-process.js';
import { testDatabase } from '../../test/postgres.js';
import { makePdf } from '../../test/document-files.js';
import { REPO_ROOT } from '../paths.js';

/**
 * The production path as an operator (and the Dockerfile) takes it: `npm run build`, then
 * `npm run start:prod` with plain node, `npm run admin` and `npm run backup` on the build,
 * SIGTERM. The build runs in a copy of this checkout (its installed node_modules linked in):
 * building here would empty dashboard/dist and widget/dist under the browser tests running
 * beside this one. The copy takes the working tree as it is, uncommitted changes included.
 *
 * SQLite project only: the build and the built server do not depend on the database, and the
 * build costs about 30 s of CPU; PostgreSQL is covered by the same modules under tsx.
 */

const TIMEOUT_MS = 600_000;
const WORKSPACES = ['server', 'connectors', 'widget', 'dashboard', 'bench'];
/** Not copied: installed packages (linked instead), build output, local data, results. */
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'data', 'test-results', 'results', 'scratch']);

function copyCheckout(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-build-'));
  fs.cpSync(REPO_ROOT, root, {
    recursive: true,
    filter: (from) => {
      const name = path.basename(from);
      if (SKIP_DIRS.has(name) && fs.statSync(from).isDirectory()) return false;
      return !/\.(db|db-wal|db-shm|log)$/.test(name);
    },
  });
  for (const dir of ['', ...WORKSPACES]) {
    const modules = path.join(REPO_ROOT, dir, 'node_modules');
    if (fs.existsSync(modules)) fs.symlinkSync(modules, path.join(root, dir, 'node_modules'), 'dir');
  }
  return root;
}

interface Spawned {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm <args>` in `cwd`, in its own process group, with a clean environment plus `env`. */
function npm(cwd: string, args: string[], env: Record<string, string> = {}): Spawned {
  // An operator's shell: no loader or test settings inherited from vitest.
  const { NODE_OPTIONS: _o, DATABASE_URL: _u, DATABASE_PATH: _p, ...inherited } = process.env;
  const child = spawn('npm', args, { cwd, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** The command lines of the processes in `child`'s process group (Linux /proc). */
function groupCommandLines(child: ChildProcess): string[] {
  const lines: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgid === child.pid) lines.push(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim());
    } catch {
      /* the process ended meanwhile */
    }
  }
  return lines;
}

const started: Spawned[] = [];
/** The built copy, once the first test has built it (the connector tests run its build). */
let builtRoot: string | undefined;
/** Data directories of the started server, removed at the end. */
const dataDirs: string[] = [];
afterAll(() => {
  for (const s of started) killGroup(s.child, 'SIGKILL');
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  if (!builtRoot) return;
  // The links first, so removing the copy can never reach the checkout's installed packages.
  for (const dir of ['', ...WORKSPACES]) fs.rmSync(path.join(builtRoot, dir, 'node_modules'), { force: true });
  fs.rmSync(builtRoot, { recursive: true, force: true });
});

describe.skipIf(testDatabase !== 'sqlite')('production build: npm run build, npm run start:prod', () => {
  it(
    'builds once, serves from the build with plain node (no TypeScript loader), runs admin and backup, drains on SIGTERM',
    async () => {
      const root = copyCheckout();
      const build = npm(root, ['run', 'build']);
      const built = await build.exited;
      expect(built, build.output()).toBe(0);
      builtRoot = root;
      for (const file of [
        'server/dist/main.js',
        'server/dist/ops/admin.js',
        'server/dist/ops/backup.js',
        'server/dist/db/migrations/001-init.sql',
        'server/dist/storage/postgres/migrations/001_baseline.sql',
        'server/dist/knowledge/files/pdf-worker.mjs',
        'connectors/dist/discord/main.js',
        'connectors/dist/slack/main.js',
        'connectors/dist/teams/main.js',
        'widget/dist/widget.js',
        'dashboard/dist/index.html',
      ]) {
        expect(fs.existsSync(path.join(root, file)), file).toBe(true);
      }
      const emitted = fs.readdirSync(path.join(root, 'server/dist'), { recursive: true }).map(String);
      expect(emitted.filter((f) => /\.test\.js$|\.ts$/.test(f))).toEqual([]);

      const data = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-prod-'));
      dataDirs.push(data);
      const port = await freePort();
      const env = { PORT: String(port), DATABASE_URL: path.join(data, 'parley.db'), DEMO_TRAFFIC_CONVERSATIONS: '0', LOG_LEVEL: 'warn' };
      const srv = npm(root, ['run', 'start:prod'], env);
      started.push(srv);
      const url = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 120_000;
      while (!srv.output().includes('Try it:')) {
        if (Date.now() > deadline || srv.child.exitCode !== null) throw new Error(`start:prod did not start:\n${srv.output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const processes = groupCommandLines(srv.child);
      expect(processes).toContain('node scripts/run-built.mjs main.js');
      expect(processes.filter((p) => /tsx|ts-node|--loader|--import/.test(p))).toEqual([]);

      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const key = /Bearer (sk_[A-Za-z0-9_-]+)/.exec(srv.output())?.[1];
      const assistantId = /integrations\/(asst_[A-Za-z0-9]+)\/chat/.exec(srv.output())?.[1];
      const chat = await fetch(`${url}/v1/integrations/${assistantId}/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'How do I add the chat widget to my website?' }),
      });
      expect(chat.status).toBe(200);
      expect(((await chat.json()) as { response: string }).response).toContain('script');
      // What the server reads from disk is found from the built layout: bundles, demo page.
      for (const page of ['/js/widget.js', '/dashboard/', '/demo/']) expect((await fetch(url + page)).status, page).toBe(200);
      // A PDF upload: the extraction runs in a worker loaded from its .mjs beside the built module.
      const auth = { authorization: `Bearer ${key}` };
      const kb = await fetch(`${url}/v1/knowledge-bases`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Files' }),
      });
      const form = new FormData();
      form.append('file', new Blob([(await makePdf([['The lens cap is stored in the left pocket.']])) as BlobPart]), 'manual.pdf');
      const upload = await fetch(`${url}/v1/knowledge-bases/${((await kb.json()) as { data: { id: string } }).data.id}/documents`, {
        method: 'POST',
        headers: auth,
        body: form,
      });
      expect(upload.status).toBe(201);
      expect(((await upload.json()) as { data: unknown }).data).toMatchObject({ format: 'pdf', chunkCount: 1 });

      const admin = npm(root, ['run', '--silent', 'admin', '--', 'list-orgs'], { DATABASE_URL: env.DATABASE_URL });
      expect(await admin.exited, admin.output()).toBe(0);
      expect(admin.output()).toMatch(/org_\S+\s+free\s+1\s+\S+\s+demo@parley\.local\s+Parley Demo/);
      const copy = path.join(data, 'copy.db');
      const backup = npm(root, ['run', '--silent', 'backup', '--', copy], { DATABASE_URL: env.DATABASE_URL });
      expect(await backup.exited, backup.output()).toBe(0);
      expect(backup.output()).toContain(`Backup written: ${copy}`);
      const check = new Database(copy, { readonly: true });
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      expect((check.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n).toBe(2);
      check.close();

      // SIGTERM while a request is in flight (the process manager's stop): it is answered, then exit 0.
      const body = JSON.stringify({ email: 'late@example.com', password: 'long enough pw', organizationName: 'Late' });
      const pending = new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            path: '/v1/auth/register',
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.on('finish', () => {
          setTimeout(() => srv.child.kill('SIGTERM'), 5);
        });
        req.end(body);
      });
      expect(await pending).toBe(201);
      expect(await srv.exited).toBe(0);
    },
    TIMEOUT_MS,
  );

  it.each(['discord', 'slack', 'teams'])(
    'the built %s connector runs with plain node (and asks for its settings)',
    async (platform) => {
      expect(builtRoot, 'built by the test above').toBeDefined();
      const main = path.join(builtRoot ?? '', 'connectors', 'dist', platform, 'main.js');
      const { NODE_OPTIONS: _o, ...inherited } = process.env;
      const child = spawn(process.execPath, [main], { env: { ...inherited, PARLEY_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => {
        err += d;
      });
      expect(await new Promise((resolve) => child.on('close', resolve))).toBe(1);
      expect(err).toContain(`${platform} connector failed to start: PARLEY_URL is required`);
    },
    TIMEOUT_MS,
  );
});
