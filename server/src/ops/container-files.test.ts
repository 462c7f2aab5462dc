import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { loadConfig } from '../config.js';
import { REPO_ROOT } from '../paths.js';
import { freePort } from '../../test/main-process.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { until } from '../../test/wait.js';

/**
 * The container files, read: no container runtime works on this project's machines, so the
 * images are never built here. What can be held to is what they run: only commands CI runs and
 * tests (production-build.test.ts runs `npm ci`'s result through `npm run build` and what
 * `npm run start:prod` starts), an unprivileged user, a health check on /readyz (run here
 * against a real server), and a compose topology whose environment the server's own config
 * loader accepts. `yaml` is the parser installed with vite and @microsoft/teams-ai (not a
 * dependency of ours: if it ever goes, parse the file some other way, do not drop the test).
 */

const read = (file: string): string => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions: comments dropped, `\` continuations joined. */
function dockerfile(text: string): Instruction[] {
  const logical = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return logical
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [keyword = '', ...rest] = l.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Runs an exec-form command (a JSON array) with `env`; resolves its exit status. */
function runExecForm(argv: string[], env: Record<string, string>): Promise<number | null> {
  const [command = '', ...args] = argv;
  const child = spawn(command === 'node' ? process.execPath : command, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
  return new Promise((resolve) => child.on('close', resolve));
}

describe('Dockerfile', () => {
  const instructions = dockerfile(read('Dockerfile'));
  const all = (keyword: string) => instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

  it('builds on the official Node 20 image in stages and runs only npm ci and npm run build', () => {
    const froms = all('FROM');
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) expect(from).toMatch(/^node:20-bookworm-slim AS \w+$/);
    const runs = all('RUN');
    expect(runs).toContain('npm run build');
    for (const run of runs) expect(run).toMatch(/^npm (ci( --omit=dev| --no-audit| --no-fund)*|run build)$/);
    // Every file the image copies from the build context exists.
    for (const copy of all('COPY').filter((c) => !c.includes('--from='))) {
      const sources = copy
        .replace(/--chown=\S+\s*/, '')
        .split(/\s+/)
        .slice(0, -1);
      for (const source of sources) expect(fs.existsSync(path.join(REPO_ROOT, source)), source).toBe(true);
    }
  });

  it('runs as an unprivileged user with its data in the /data volume, listening on all interfaces', () => {
    const users = all('USER');
    expect(users.at(-1)).toBe('node');
    expect(instructions.findLastIndex((i) => i.keyword === 'USER')).toBeLessThan(instructions.findIndex((i) => i.keyword === 'CMD'));
    expect(all('VOLUME')).toEqual(['["/data"]']);
    const env = all('ENV').join(' ');
    expect(env).toMatch(/\bDATABASE_URL=\/data\/parley\.db\b/);
    expect(env).toMatch(/\bHOST=0\.0\.0\.0\b/);
    expect(all('COPY')).toContain('--chown=node:node deploy/data/ /data/');
  });

  it('starts what npm run start:prod starts, with plain node', () => {
    const cmd = JSON.parse(all('CMD').at(-1) ?? '[]') as string[];
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['start:prod']).toBe(`exec ${cmd.join(' ')}`);
    expect(cmd).toEqual(['node', 'scripts/run-built.mjs', 'main.js']);
  });

  it('HEALTHCHECK asks /readyz: 0 from a ready server, 1 when nothing answers', async () => {
    const healthcheck = all('HEALTHCHECK').at(-1) ?? '';
    const argv = JSON.parse(healthcheck.slice(healthcheck.indexOf('CMD ') + 4)) as string[];
    expect(argv.join(' ')).toContain('/readyz');
    const server = await startServer();
    servers.push(server);
    // Ready means the retrieval index is built too: on a loaded machine that can follow the listen.
    await until('/readyz answers 200', async () => (await fetch(`${server.url}/readyz`)).ok);
    expect(await runExecForm(argv, { PORT: new URL(server.url).port })).toBe(0);
    expect(await runExecForm(argv, { PORT: String(await freePort()) })).toBe(1);
  });

  it('.dockerignore keeps installed packages, build output, local databases and secrets out of the context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const pattern of ['**/node_modules', '**/dist', '.git', 'data', '**/*.db', '**/.env']) expect(ignored).toContain(pattern);
    for (const kept of ['demo', 'deploy', 'scripts', 'server', 'package-lock.json']) expect(ignored).not.toContain(kept);
  });
});

interface ComposeService {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
}

describe('compose.yaml (scale-out)', () => {
  const compose = YAML.parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };
  const services = compose.services;
  const parleys = Object.entries(services).filter(([, s]) => s.build === '.');

  it('has PostgreSQL, Redis, two Parley instances of this image and nginx', () => {
    expect(services.postgres?.image).toMatch(/^postgres:1[3-9]/);
    expect(services.redis?.image).toMatch(/^redis:[7-9]/);
    expect(parleys.map(([name]) => name)).toEqual(['parley1', 'parley2']);
    for (const [, s] of parleys) {
      expect(s.image).toBe('parley:local');
      expect(s.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
      // Longer than the server's own 10 s drain limit (main.ts), so SIGKILL never cuts it.
      expect(Number(/^(\d+)s$/.exec(s.stop_grace_period ?? '')?.[1])).toBeGreaterThan(10);
    }
    expect(services.nginx?.image).toMatch(/^nginx:/);
    expect(services.nginx?.volumes).toContain('./deploy/nginx.conf:/etc/nginx/nginx.conf:ro');
    expect(services.nginx?.depends_on).toEqual({ parley1: { condition: 'service_healthy' }, parley2: { condition: 'service_healthy' } });
  });

  it('gives each instance an environment the server accepts: PostgreSQL, Redis limits, behind one proxy', () => {
    for (const [, s] of parleys) {
      // Compose's ${VAR:?…} / ${VAR:-default}, as compose fills them in from .env.
      const env = Object.fromEntries(
        Object.entries(s.environment ?? {}).map(([k, v]) => [
          k,
          String(v)
            .replace(/\$\{POSTGRES_PASSWORD:\?[^}]*\}/g, 'secret')
            .replace(/\$\{(\w+):-([^}]*)\}/g, (_, _name: string, d: string) => d),
        ]),
      );
      const config = loadConfig(env);
      expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://parley:secret@postgres:5432/parley' });
      expect(config.limits).toEqual({ store: 'redis', url: 'redis://redis:6379', prefix: 'parley:' });
      expect(config.warnings).toEqual([]);
      expect(config).toMatchObject({ host: '0.0.0.0', port: 3000, trustProxy: 1, seedDemo: false, publicUrl: 'http://localhost:8080' });
    }
    const password = services.postgres?.environment?.POSTGRES_PASSWORD;
    expect(password).toMatch(/^\$\{POSTGRES_PASSWORD:\?/); // no default password: compose refuses to start without one
  });

  it('deploy/nginx.conf sends to both instances, keeps connections, streams SSE unbuffered', () => {
    const nginx = read('deploy/nginx.conf');
    const upstreams = [...nginx.matchAll(/^\s*server (\S+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(upstreams).toEqual(parleys.map(([name, s]) => `${name}:${s.environment?.PORT ?? ''}`));
    const port = /^\s*-\s*"?(\d+):(\d+)"?$/m.exec(read('compose.yaml'))?.[2];
    expect(nginx).toMatch(new RegExp(`listen ${port};`));
    for (const directive of [
      'proxy_http_version 1.1;',
      'proxy_set_header Connection "";',
      'proxy_buffering off;',
      'keepalive 64;',
      'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      'client_max_body_size 26m;',
    ]) {
      expect(nginx).toContain(directive);
    }
  });
});
