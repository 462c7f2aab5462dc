import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REDIS_TEST_URL } from '../../server/src/limits/redis-testing.js';
import { postgresAdminUrl } from '../../server/test/postgres.js';
import { nginxAt, postgresAt, redactPassword, redisAt } from './prerequisites.js';
import { runBench, saveInto, selectSections, type Prerequisite, type Section } from './runner.js';

/** Sections that stand in for the real benchmarks: what they do is logged in `events`. */
function harness() {
  const events: string[] = [];
  const printed: string[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-runner-'));
  dirs.push(dir);
  const save = saveInto(dir);
  const snapshots: Array<Record<string, unknown>> = [];
  const io = {
    print: (text: string) => {
      printed.push(text);
      events.push(`print:${text.split('\n')[0]}`);
    },
    save: (results: Record<string, unknown>, table: string) => {
      save(results, table);
      // What a reader of the file would find at this moment (the file is rewritten after each section).
      snapshots.push(JSON.parse(fs.readFileSync(path.join(dir, 'latest.json'), 'utf8')) as Record<string, unknown>);
    },
  };
  const prerequisite = (name: string, missing: string | null): Prerequisite => ({
    name,
    check: async () => {
      events.push(`check:${name}`);
      return missing;
    },
  });
  const ok = (name: string, value: number, needs: Prerequisite[] = []): Section => ({
    name,
    title: `measures ${name}`,
    needs,
    run: async () => {
      events.push(`run:${name}`);
      return { results: { [name]: { value } }, rows: [[`${name} figure`, `${value} ms`, 'detail']] };
    },
  });
  const failing = (name: string): Section => ({
    name,
    title: `measures ${name}`,
    run: async () => {
      events.push(`run:${name}`);
      throw new Error(`${name} broke\nat line 2`);
    },
  });
  return { events, printed, dir, io, snapshots, prerequisite, ok, failing };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('runBench', () => {
  it('checks every prerequisite before the first section; skips what lacks one, saying how to get it', async () => {
    const h = harness();
    const install = 'nginx (/usr/sbin/nginx not found): install it with `apt-get install nginx-light`';
    const nginx = h.prerequisite('nginx', install);
    const pg = h.prerequisite('PostgreSQL', null);
    const sections = [h.ok('first', 1), h.ok('scaleOut', 2, [nginx, pg]), h.ok('last', 3, [pg])];
    const report = await runBench(sections, {}, h.io);

    // Both checks (PostgreSQL once, though two sections need it) come before any section runs.
    expect(h.events.filter((e) => e.startsWith('check:')).sort()).toEqual(['check:PostgreSQL', 'check:nginx']);
    expect(h.events.findIndex((e) => e.startsWith('run:'))).toBeGreaterThan(h.events.lastIndexOf('check:nginx'));
    expect(h.events.filter((e) => e.startsWith('run:'))).toEqual(['run:first', 'run:last']);
    const head = h.printed[0] as string;
    expect(head).toContain(`missing  ${install}`);
    expect(head).toContain('ok       PostgreSQL');
    expect(head).toContain('Skipping for a missing prerequisite: scaleOut');

    expect(report.exitCode).toBe(0);
    expect(report.sections.map((s) => [s.name, s.status])).toEqual([
      ['first', 'ok'],
      ['scaleOut', 'skipped'],
      ['last', 'ok'],
    ]);
    expect(report.results.scaleOut).toEqual({ skipped: expect.stringContaining('apt-get install nginx-light') });
    const table = fs.readFileSync(path.join(h.dir, 'latest.md'), 'utf8');
    expect(table).toContain('| scaleOut (skipped) | skipped | nginx (/usr/sbin/nginx not found)');
  });

  it("prints each section's rows as it finishes, before the next one starts", async () => {
    const h = harness();
    await runBench([h.ok('first', 11), h.ok('second', 22)], {}, h.io);
    const firstRows = h.events.findIndex((e) => e.startsWith('print:| measure |'));
    expect(firstRows).toBeGreaterThan(h.events.indexOf('run:first'));
    expect(firstRows).toBeLessThan(h.events.indexOf('run:second'));
    expect(h.printed.join('')).toContain('| first figure | 11 ms | detail |');
  });

  it('keeps what was measured when a section fails, records the error, runs the rest, exits non-zero', async () => {
    const h = harness();
    const sections = [h.ok('first', 7), h.failing('broken'), h.ok('after', 9)];
    const report = await runBench(sections, { machine: { cpus: 2 } }, h.io);

    // The file as it stood right after the failing section: the first figure, the error, nothing invented.
    const afterFailure = h.snapshots[1] as Record<string, unknown>;
    expect(afterFailure.first).toEqual({ value: 7 });
    expect(afterFailure.broken).toEqual({ error: 'broken broke at line 2' });
    expect(afterFailure.after).toBeUndefined();
    expect(afterFailure.machine).toEqual({ cpus: 2 });

    const final = JSON.parse(fs.readFileSync(path.join(h.dir, 'latest.json'), 'utf8')) as Record<string, unknown>;
    expect(final.after).toEqual({ value: 9 });
    expect(final.sections).toEqual([
      { name: 'first', status: 'ok', seconds: expect.any(Number) },
      { name: 'broken', status: 'failed', seconds: expect.any(Number), reason: 'broken broke at line 2' },
      { name: 'after', status: 'ok', seconds: expect.any(Number) },
    ]);
    const table = fs.readFileSync(path.join(h.dir, 'latest.md'), 'utf8');
    expect(table.split('\n').slice(0, 2)).toEqual(['| measure | value | detail |', '|---|---|---|']);
    expect(table).toContain('| first figure | 7 ms | detail |');
    expect(table).toContain('| broken (failed) | failed | broken broke at line 2 |');
    expect(table).toContain('| after figure | 9 ms | detail |');
    expect(report.exitCode).toBe(1);
    expect(h.printed.join('')).toContain('broken FAILED after');
    expect(h.printed.at(-1)).toContain('1 section(s) failed: broken (broken broke at line 2)');
  });

  it('treats a prerequisite check that throws as missing, naming it', async () => {
    const h = harness();
    const flaky: Prerequisite = {
      name: 'Redis',
      check: async () => {
        throw new Error('socket hang up');
      },
    };
    const report = await runBench([h.ok('needsRedis', 1, [flaky])], {}, h.io);
    expect(report.sections[0]).toMatchObject({ status: 'skipped', reason: 'Redis: the check itself failed: socket hang up' });
    expect(h.events).not.toContain('run:needsRedis');
  });
});

describe('selectSections', () => {
  const all = ['http', 'scaleOut', 'analytics'].map((name): Section => ({
    name,
    title: name,
    run: async () => ({ results: {}, rows: [] }),
  }));
  const names = (opts: { only: string[] | null; skip: string[] | null }) => selectSections(all, opts).map((s) => s.name);
  it('keeps the order, applies --only then --skip, and names the sections when one is unknown', () => {
    expect(names({ only: null, skip: null })).toEqual(['http', 'scaleOut', 'analytics']);
    expect(names({ only: ['analytics', 'http'], skip: null })).toEqual(['http', 'analytics']);
    expect(names({ only: null, skip: ['scaleOut'] })).toEqual(['http', 'analytics']);
    expect(() => names({ only: ['scale-out'], skip: null })).toThrow(
      'unknown bench section(s) scale-out; the sections are http, scaleOut, analytics',
    );
  });
});

describe('the prerequisites', () => {
  /** A loopback port nothing listens on. */
  async function closedPort(): Promise<number> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it('nginx: present when the binary is there, else the package to install', async () => {
    expect(await nginxAt(process.execPath).check()).toBeNull();
    expect(await nginxAt('/nonexistent/nginx').check()).toBe(
      'nginx (/nonexistent/nginx not found): install it with `apt-get install nginx-light`',
    );
  });

  it('PostgreSQL and Redis: present when they answer (the test servers), else how to start them', async () => {
    expect(await postgresAt(postgresAdminUrl).check()).toBeNull();
    expect(await redisAt(REDIS_TEST_URL).check()).toBeNull();
    const port = await closedPort();
    const pg = await postgresAt(`postgres://postgres:secret@127.0.0.1:${port}/postgres`).check();
    expect(pg).toContain(`PostgreSQL at postgres://postgres:***@127.0.0.1:${port}/postgres does not answer (`);
    expect(pg).toContain('ECONNREFUSED');
    expect(pg).toContain('PARLEY_TEST_POSTGRES_URL');
    const redis = await redisAt(`redis://127.0.0.1:${port}`).check();
    expect(redis).toMatch(/^Redis at redis:\/\/127\.0\.0\.1:\d+ does not answer \(.+\): start it/);
    expect(redis).toContain('REDIS_TEST_URL');
  });

  it('redactPassword hides a password and leaves the rest', () => {
    expect(redactPassword('postgres://u:pw@h:5432/db')).toBe('postgres://u:***@h:5432/db');
    expect(redactPassword('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
