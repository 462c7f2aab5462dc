import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scratchPostgresDatabase } from '../../../test/postgres.js';
import { createPostgresStorage, type PostgresStorage } from '../postgres.js';
import { migratePostgres, readPostgresMigrations } from './migrate.js';

describe('PostgreSQL migrations', () => {
  let db: { url: string; drop(): Promise<void> };
  const opened: PostgresStorage[] = [];
  const open = () => {
    const s = createPostgresStorage(db.url, { poolSize: 2 });
    opened.push(s);
    return s;
  };
  beforeEach(async () => {
    db = await scratchPostgresDatabase();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    await db.drop();
  });

  it('apply once when two instances start together, and record every version', async () => {
    const [a, b] = await Promise.all([migratePostgres(open()), migratePostgres(open())]);
    const names = readPostgresMigrations().map((m) => m.name);
    // One of them did the work under the lock; the other found nothing left to do.
    expect([...a.applied, ...b.applied]).toEqual(names);
    expect((await open().all<{ name: string }>('SELECT name FROM schema_migrations ORDER BY version')).map((r) => r.name)).toEqual(names);
    expect(await migratePostgres(open())).toEqual({ applied: [] });
  });

  it('are not cut short by the pool statement timeout, which the connection gets back afterwards', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-pg-migrations-'));
    fs.writeFileSync(path.join(dir, '001_slow.sql'), 'SELECT pg_sleep(0.3);');
    const s = createPostgresStorage(db.url, { poolSize: 1, statementTimeoutMs: 100 });
    opened.push(s);
    expect(await migratePostgres(s, { dir })).toEqual({ applied: ['001_slow.sql'] });
    expect(await s.get("SELECT current_setting('statement_timeout') AS t")).toEqual({ t: '100ms' });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('roll a failed migration back entirely and release the lock', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-pg-migrations-'));
    fs.writeFileSync(path.join(dir, '001_ok.sql'), 'CREATE TABLE a (x bigint);');
    fs.writeFileSync(path.join(dir, '002_bad.sql'), 'CREATE TABLE b (x bigint); SELECT no_such_function();');
    const s = open();
    await expect(migratePostgres(s, { dir })).rejects.toThrow(/002_bad.sql failed/);
    expect(await s.all("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename IN ('a', 'b') ORDER BY 1")).toEqual([
      { tablename: 'a' },
    ]);
    fs.writeFileSync(path.join(dir, '002_bad.sql'), 'CREATE TABLE b (x bigint);');
    expect(await migratePostgres(open(), { dir })).toEqual({ applied: ['002_bad.sql'] });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
