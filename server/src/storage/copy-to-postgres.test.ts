import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate.js';
import { openDb } from '../db/open.js';
import { seedDemo } from '../demo/seed.js';
import { DEMO_KNOWLEDGE_DIR } from '../paths.js';
import { startServer } from '../../test/test-server.js';
import { freshPostgresStorage } from '../../test/postgres.js';
import { copyOrder, copySqliteToPostgres } from './copy-to-postgres.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-copy-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A SQLite installation with real data: the demo, a conversation and a webhook event. */
async function sqliteInstallation(): Promise<{ file: string; apiKey: string }> {
  const file = path.join(dir, 'parley.db');
  const db = openDb(file);
  const server = await startServer({ db });
  const demo = await seedDemo(server.ctx, { knowledgeDir: DEMO_KNOWLEDGE_DIR, publicUrl: server.url, nowMs: server.ctx.clock.now() });
  // The chat route names its assistant in the path (chat/routes.ts: POST /v1/integrations/:id/chat).
  const chat = await fetch(`${server.url}/v1/integrations/${demo.assistantId}/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'How do I add the chat widget to my website?' }),
  });
  expect(chat.status).toBe(200);
  await server.close();
  db.close();
  return { file, apiKey: demo.apiKey };
}

describe('copying a SQLite installation into PostgreSQL', () => {
  it('orders tables parents first', () => {
    const db = openDb(':memory:');
    migrate(db);
    const order = copyOrder(db);
    expect(order.indexOf('organizations')).toBeLessThan(order.indexOf('assistants'));
    expect(order.indexOf('conversations')).toBeLessThan(order.indexOf('messages'));
    expect(order.some((t) => t.startsWith('chunks_fts'))).toBe(false);
    db.close();
  });

  it('copies every table with equal row counts, keeps ids and moves identity sequences past them', async () => {
    const { file } = await sqliteInstallation();
    const source = new Database(file, { readonly: true });
    const pg = await freshPostgresStorage();
    try {
      const report = await copySqliteToPostgres(source, pg.storage);
      expect(report.ok).toBe(true);
      const counts = Object.fromEntries(report.tables.map((t) => [t.table, t.postgres]));
      expect(counts.organizations).toBe(1);
      expect(counts.chunks).toBeGreaterThan(10);
      expect(counts.messages).toBeGreaterThanOrEqual(2);
      for (const t of report.tables) expect(t.postgres, t.table).toBe(t.sqlite);
      // The same key hashes, so every issued key stays valid.
      const keys = source.prepare('SELECT id, key_hash FROM api_keys ORDER BY id').all();
      expect(await pg.storage.all('SELECT id, key_hash FROM api_keys ORDER BY id')).toEqual(keys);
      // A chunk added after the copy does not collide with a copied id.
      const maxId = (source.prepare('SELECT MAX(id) AS m FROM chunks').get() as { m: number }).m;
      const next = await pg.storage.get<{ n: number }>("SELECT nextval(pg_get_serial_sequence('chunks', 'id')) AS n");
      expect(next!.n).toBeGreaterThan(maxId);
      // A second copy into the same (no longer fresh) database is refused.
      await expect(copySqliteToPostgres(source, pg.storage)).rejects.toThrow(/fresh database/);
    } finally {
      source.close();
      await pg.drop();
    }
  });
});
