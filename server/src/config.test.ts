import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const PG = 'postgres://parley:secret@db.internal:5432/parley';
const REDIS = 'redis://127.0.0.1:6379/0';

describe('database selection (DATABASE_URL, DATABASE_PATH)', () => {
  it('defaults to SQLite at ./data/parley.db', () => {
    const c = loadConfig({});
    expect(c.database).toEqual({ kind: 'sqlite', path: path.resolve('./data/parley.db') });
    expect(c.databasePath).toBe(path.resolve('./data/parley.db'));
  });

  it('keeps DATABASE_PATH as it was: a path or :memory:', () => {
    expect(loadConfig({ DATABASE_PATH: 'tmp/x.db' })).toMatchObject({
      databasePath: path.resolve('tmp/x.db'),
      database: { kind: 'sqlite', path: path.resolve('tmp/x.db') },
    });
    expect(loadConfig({ DATABASE_PATH: ':memory:' })).toMatchObject({
      databasePath: ':memory:',
      database: { kind: 'sqlite', path: ':memory:' },
    });
    expect(loadConfig({ DATABASE_PATH: '' }).databasePath).toBe(path.resolve('./data/parley.db')); // empty = unset
  });

  it('selects SQLite from a path, a file: URL or :memory:', () => {
    expect(loadConfig({ DATABASE_URL: '/var/lib/parley/parley.db' }).database).toEqual({
      kind: 'sqlite',
      path: '/var/lib/parley/parley.db',
    });
    expect(loadConfig({ DATABASE_URL: 'file:///var/lib/parley/my%20db.db' }).database).toEqual({
      kind: 'sqlite',
      path: '/var/lib/parley/my db.db',
    });
    expect(loadConfig({ DATABASE_URL: 'file://localhost/srv/p.db' }).database).toEqual({ kind: 'sqlite', path: '/srv/p.db' });
    expect(loadConfig({ DATABASE_URL: 'file:data/p.db' }).database).toEqual({ kind: 'sqlite', path: path.resolve('data/p.db') });
    expect(loadConfig({ DATABASE_URL: 'file:./data/p.db' }).databasePath).toBe(path.resolve('data/p.db'));
    expect(loadConfig({ DATABASE_URL: 'file::memory:' }).database).toEqual({ kind: 'sqlite', path: ':memory:' });
    expect(loadConfig({ DATABASE_URL: ':memory:' }).database).toEqual({ kind: 'sqlite', path: ':memory:' });
  });

  it('selects PostgreSQL from postgres:// or postgresql://, with Redis for limits', () => {
    const c = loadConfig({ DATABASE_URL: PG, REDIS_URL: REDIS });
    expect(c.database).toEqual({ kind: 'postgres', url: PG });
    expect(c.databasePath).toBe('');
    expect(c.limits).toEqual({ store: 'redis', url: REDIS, prefix: 'parley:' });
    expect(c.warnings).toEqual([]);
    expect(loadConfig({ DATABASE_URL: 'postgresql://localhost/parley', REDIS_URL: REDIS }).database).toEqual({
      kind: 'postgres',
      url: 'postgresql://localhost/parley',
    });
    expect(loadConfig({ DATABASE_URL: 'POSTGRES://localhost/parley', REDIS_URL: REDIS }).database?.kind).toBe('postgres');
  });

  it('takes a PostgreSQL URL through DATABASE_PATH too (an alias takes the same values)', () => {
    expect(loadConfig({ DATABASE_PATH: PG, REDIS_URL: REDIS }).database).toEqual({ kind: 'postgres', url: PG });
  });

  it('accepts both variables when they agree, refuses them when they differ', () => {
    expect(loadConfig({ DATABASE_URL: 'file:data/a.db', DATABASE_PATH: 'data/a.db' }).databasePath).toBe(path.resolve('data/a.db'));
    expect(() => loadConfig({ DATABASE_URL: PG, DATABASE_PATH: 'data/a.db', REDIS_URL: REDIS })).toThrow(
      /DATABASE_URL and DATABASE_PATH name different databases/,
    );
  });

  it('names the variable and never repeats a password in its errors', () => {
    const bad = (env: Record<string, string>, pattern: RegExp) => {
      let err: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(pattern);
      expect((err as Error).message).not.toMatch(/secret/);
    };
    bad({ DATABASE_URL: 'postgres://u:secret@[::1' }, /^Invalid environment: DATABASE_URL: is not a valid PostgreSQL URL/);
    bad({ DATABASE_URL: 'mysql://u:secret@h/db' }, /DATABASE_URL: unsupported scheme "mysql:"/);
    bad({ DATABASE_URL: 'sqlite:data/p.db' }, /DATABASE_URL: unsupported scheme "sqlite:"/);
    bad({ DATABASE_PATH: 'http://example.com/db' }, /DATABASE_PATH: unsupported scheme "http:"/);
    bad({ DATABASE_URL: 'file:data/p.db?mode=ro' }, /DATABASE_URL: a file: URL takes no \?query/);
    bad({ DATABASE_URL: 'file://otherhost/p.db' }, /DATABASE_URL: is not a local file: URL/);
    bad({ DATABASE_URL: 'file:' }, /DATABASE_URL: names no file/);
  });
});

describe('limit store selection (REDIS_URL, RATE_LIMIT_STORE)', () => {
  it('counts in memory by default, in Redis when REDIS_URL is set', () => {
    expect(loadConfig({}).limits).toEqual({ store: 'memory' });
    expect(loadConfig({}).warnings).toEqual([]);
    expect(loadConfig({ REDIS_URL: REDIS }).limits).toEqual({ store: 'redis', url: REDIS, prefix: 'parley:' });
    expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache.internal:6380', REDIS_KEY_PREFIX: 'shop1:' }).limits).toEqual({
      store: 'redis',
      url: 'rediss://:pw@cache.internal:6380',
      prefix: 'shop1:',
    });
  });

  it('RATE_LIMIT_STORE chooses explicitly', () => {
    expect(loadConfig({ RATE_LIMIT_STORE: 'redis', REDIS_URL: REDIS }).limits?.store).toBe('redis');
    const memory = loadConfig({ RATE_LIMIT_STORE: 'memory', REDIS_URL: REDIS });
    expect(memory.limits).toEqual({ store: 'memory' });
    expect(memory.warnings).toEqual(['REDIS_URL is set but RATE_LIMIT_STORE=memory: Redis is not used.']);
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).toThrow(/REDIS_URL is required with RATE_LIMIT_STORE=redis/);
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'valkey' })).toThrow(/RATE_LIMIT_STORE/);
  });

  it('requires REDIS_URL with PostgreSQL unless RATE_LIMIT_STORE=memory, which allows one instance and says so', () => {
    expect(() => loadConfig({ DATABASE_URL: PG })).toThrow(/REDIS_URL is required with PostgreSQL .* set RATE_LIMIT_STORE=memory/);
    const single = loadConfig({ DATABASE_URL: PG, RATE_LIMIT_STORE: 'memory' });
    expect(single.limits).toEqual({ store: 'memory' });
    expect(single.warnings).toHaveLength(1);
    expect(single.warnings?.[0]).toMatch(/run ONE instance/);
  });

  it('refuses a REDIS_URL that is not a redis URL, naming the variable', () => {
    expect(() => loadConfig({ REDIS_URL: '127.0.0.1:6379' })).toThrow(/REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ REDIS_URL: 'redis://' })).toThrow(/REDIS_URL/);
  });
});

describe('web job lease and upkeep interval (WEB_JOB_LEASE_MS, UPKEEP_INTERVAL_MS)', () => {
  it('default to 30 s and 60 s, and take whole milliseconds within their bounds', () => {
    expect(loadConfig({})).toMatchObject({ webJobLeaseMs: 30_000, upkeepIntervalMs: 60_000 });
    expect(loadConfig({ WEB_JOB_LEASE_MS: '10000', UPKEEP_INTERVAL_MS: '5000' })).toMatchObject({
      webJobLeaseMs: 10_000,
      upkeepIntervalMs: 5_000,
    });
    expect(loadConfig({ WEB_JOB_LEASE_MS: '3000', UPKEEP_INTERVAL_MS: '86400000' })).toMatchObject({
      webJobLeaseMs: 3_000,
      upkeepIntervalMs: 86_400_000,
    });
    expect(loadConfig({ WEB_JOB_LEASE_MS: '', UPKEEP_INTERVAL_MS: '' })).toMatchObject({ webJobLeaseMs: 30_000, upkeepIntervalMs: 60_000 }); // empty = unset
  });

  it('refuse other values, naming the variable and the reason', () => {
    expect(() => loadConfig({ WEB_JOB_LEASE_MS: '2999' })).toThrow(
      /^Invalid environment: WEB_JOB_LEASE_MS: must be at least 3000 ms: a live instance that pauses/,
    );
    expect(() => loadConfig({ WEB_JOB_LEASE_MS: '3600001' })).toThrow(/WEB_JOB_LEASE_MS: must be at most 3600000 ms/);
    expect(() => loadConfig({ WEB_JOB_LEASE_MS: '30s' })).toThrow(/WEB_JOB_LEASE_MS: must be a number of milliseconds/);
    expect(() => loadConfig({ UPKEEP_INTERVAL_MS: '1500.5' })).toThrow(/UPKEEP_INTERVAL_MS: must be a whole number of milliseconds/);
    expect(() => loadConfig({ UPKEEP_INTERVAL_MS: '999' })).toThrow(/UPKEEP_INTERVAL_MS: must be at least 1000 ms/);
    expect(() => loadConfig({ UPKEEP_INTERVAL_MS: '-5' })).toThrow(/UPKEEP_INTERVAL_MS: must be at least 1000 ms/);
    expect(() => loadConfig({ UPKEEP_INTERVAL_MS: '86400001' })).toThrow(/UPKEEP_INTERVAL_MS: must be at most 86400000 ms/);
  });
});
