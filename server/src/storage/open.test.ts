import { afterEach, describe, expect, it } from 'vitest';
import { scratchPostgresDatabase } from '../../test/postgres.js';
import type { Logger } from '../lib/logger.js';
import { openStorage } from './open.js';
import { readPostgresMigrations } from './postgres/migrate.js';

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const at = (msg: string, fields?: Record<string, unknown>) => {
    lines.push(`${msg} ${JSON.stringify(fields ?? {})}`);
  };
  return { lines, debug: at, info: at, warn: at, error: at };
}

describe('openStorage', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('opens and migrates SQLite, new once', async () => {
    const logger = recordingLogger();
    const opened = await openStorage({ kind: 'sqlite', path: ':memory:' }, logger);
    cleanup.push(() => opened.storage.close());
    expect(opened.isNew).toBe(true);
    expect(opened.storage.dialect).toBe('sqlite');
    expect(await opened.storage.get('SELECT last_seq FROM webhook_fanout')).toEqual({ last_seq: 0 });
  });

  it('opens and migrates PostgreSQL, new only the first time, and logs no password', async () => {
    const db = await scratchPostgresDatabase();
    cleanup.push(() => db.drop());
    const url = db.url.replace('postgres@', 'postgres:secret-pw@');
    const logger = recordingLogger();
    const first = await openStorage({ kind: 'postgres', url }, logger);
    cleanup.push(() => first.storage.close());
    expect(first).toMatchObject({ isNew: true, applied: readPostgresMigrations().map((m) => m.name) });
    expect(await first.storage.get('SELECT last_seq FROM webhook_fanout')).toEqual({ last_seq: 0 });
    const second = await openStorage({ kind: 'postgres', url }, logger);
    cleanup.push(() => second.storage.close());
    expect(second).toMatchObject({ isNew: false, applied: [] });
    expect(logger.lines.join('\n')).not.toContain('secret-pw');
  });

  it('warns at start when the PostgreSQL server runs without autovacuum, and only then', async () => {
    const db = await scratchPostgresDatabase();
    cleanup.push(() => db.drop());
    const logger = recordingLogger();
    const opened = await openStorage({ kind: 'postgres', url: db.url }, logger);
    cleanup.push(() => opened.storage.close());
    const autovacuum = (await opened.storage.get<{ autovacuum: string }>('SHOW autovacuum'))?.autovacuum;
    const warned = logger.lines.some((l) => l.startsWith('autovacuum is off'));
    expect(warned).toBe(autovacuum === 'off');
  });
});
