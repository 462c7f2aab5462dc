import fs from 'node:fs';
import pg from 'pg';
import { Redis } from 'ioredis';
import { REDIS_TEST_URL } from '../../server/src/limits/redis-testing.js';
import { postgresAdminUrl } from '../../server/test/postgres.js';
import type { Prerequisite } from './runner.js';
import { NGINX_BIN } from './scale-out-nginx.js';

/**
 * What bench sections need from the machine, checked in a second or two before the bench
 * spends minutes on anything, each with the line that tells a newcomer how to get it.
 */

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Debian's nginx, which the scale-out section starts (its own instance, its own config). */
export const nginxAt = (bin: string): Prerequisite => ({
  name: 'nginx',
  check: async () => (fs.existsSync(bin) ? null : `nginx (${bin} not found): install it with \`apt-get install nginx-light\``),
});

/** A PostgreSQL server the bench may create databases on (as the tests: PARLEY_TEST_POSTGRES_URL). */
export const postgresAt = (url: string): Prerequisite => ({
  name: 'PostgreSQL',
  async check() {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return null;
    } catch (err) {
      return (
        `PostgreSQL at ${redactPassword(url)} does not answer (${messageOf(err)}): ` +
        'start it (`pg_ctlcluster <version> main start`) or set PARLEY_TEST_POSTGRES_URL'
      );
    } finally {
      await client.end().catch(() => undefined);
    }
  },
});

/** A Redis the scale-out instances share (as the tests: REDIS_TEST_URL). */
export const redisAt = (url: string): Prerequisite => ({
  name: 'Redis',
  async check() {
    const client = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 3_000,
    });
    client.on('error', () => {
      /* reported below */
    });
    try {
      await client.connect();
      await client.ping();
      return null;
    } catch (err) {
      return (
        `Redis at ${redactPassword(url)} does not answer (${messageOf(err)}): ` +
        'start it (`redis-server --daemonize yes --port 6379`) or set REDIS_TEST_URL'
      );
    } finally {
      client.disconnect();
    }
  },
});

export const nginx = nginxAt(NGINX_BIN);
export const postgres = postgresAt(postgresAdminUrl);
export const redis = redisAt(REDIS_TEST_URL);

/** A URL fit to print: its password replaced. */
export function redactPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
