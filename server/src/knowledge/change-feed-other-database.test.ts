import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresUrlFor, sharedPostgresDatabase, type SharedPostgres } from '../../test/postgres.js';
import { FEED_POLL_MS } from './change-feed.js';
import { createRetriever, type Retriever } from './retrieval.js';
import { createKnowledgeStore } from './store.js';

/**
 * The PostgreSQL chunk change feed between two instances (two pools on one database) while a
 * transaction of ANOTHER database of the same server stays open: the feed reads below the commit
 * horizon of this database (storage/postgres/horizon.ts), so B still hears of A's document at
 * once. With a server-wide horizon B waited until that transaction ended. An older transaction
 * of this database still holds the feed back, and its chunk is not skipped.
 */

const AT = '2026-01-01T00:00:00.000Z';
let db: SharedPostgres | null = null;
const clients: pg.Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => undefined);
  await db?.drop();
  db = null;
});

async function connect(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url, application_name: 'parley-test-other-database' });
  c.on('error', () => undefined);
  await c.connect();
  clients.push(c);
  return c;
}

/** Asks B until the first chunk is `title`; the time it took. */
async function until(
  r: Retriever,
  sel: { id: string; priority: number }[],
  question: string,
  title: string,
  limitMs: number,
): Promise<number> {
  const start = performance.now();
  for (;;) {
    if ((await r.retrieve(question, sel, 3))[0]?.title === title) return performance.now() - start;
    if (performance.now() - start > limitMs) throw new Error(`"${question}" not answered by ${title} within ${limitMs} ms`);
    await new Promise((res) => setTimeout(res, 5));
  }
}

describe('the chunk change feed with a transaction open in another database', () => {
  it('is not held back by it, and still waits for (and keeps) an older transaction of its own database', async () => {
    db = await sharedPostgresDatabase();
    const a = db.storage;
    const b = db.open();
    await a.run("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_t', 'T', 'free', ?)", [AT]);
    const storeA = createKnowledgeStore(a);
    const kb = await storeA.createKb('org_t', { name: 'Help', description: null }, AT);
    await storeA.addDocument(
      kb.id,
      { title: 'Opening hours', content: 'The shop opens at nine and closes at six.', format: 'markdown', url: null },
      AT,
    );
    const sel = [{ id: kb.id, priority: 5 }];
    const onB = createRetriever(b);
    await until(onB, sel, 'When does the shop open?', 'Opening hours', 10_000);
    // The feed's first read (it starts with the first subscriber) rebuilds B's replica once: let
    // it pass, so that what B learns below comes from the feed's cursor, not from a rebuild.
    await new Promise((res) => setTimeout(res, 500));
    await until(onB, sel, 'When does the shop open?', 'Opening hours', 10_000);
    expect(await onB.settledEngine()).toBe('memory');

    const other = await connect(postgresUrlFor('postgres'));
    await other.query('BEGIN');
    const foreign = BigInt((await other.query<{ x: string }>('SELECT CAST(pg_current_xact_id() AS TEXT) AS x')).rows[0]!.x);

    await storeA.addDocument(kb.id, { title: 'Otters', content: 'The otter enclosure opens at ten.', format: 'markdown', url: null }, AT);
    const row = await a.get<{
      x: string;
      xmin: string;
    }>(`SELECT CAST(max(xact_id) AS TEXT) AS x, CAST(pg_snapshot_xmin(pg_current_snapshot()) AS TEXT) AS xmin
      FROM chunks WHERE title = 'Otters'`);
    expect(BigInt(row!.x)).toBeGreaterThan(foreign); // the control: a server-wide horizon is held below it
    expect(BigInt(row!.xmin)).toBeLessThanOrEqual(foreign);
    const ms = await until(onB, sel, 'otter enclosure', 'Otters', 2 * FEED_POLL_MS);
    console.log(`change feed A → B with another database's transaction open: ${ms.toFixed(1)} ms`);

    // An older transaction of this database: writes its chunk, stays open while a later one
    // (into another base: the first holds its base's row) commits.
    const otherKb = await storeA.createKb('org_t', { name: 'Other', description: null }, AT);
    const both = [...sel, { id: otherKb.id, priority: 5 }];
    let commitLate!: () => void;
    const gate = new Promise<void>((res) => {
      commitLate = res;
    });
    let lateWritten!: () => void;
    const written = new Promise<void>((res) => {
      lateWritten = res;
    });
    const late = storeA.write(async (w) => {
      await w.addDocument(kb.id, { title: 'Walrus', content: 'The walrus pool closes in winter.', format: 'markdown', url: null }, AT);
      lateWritten();
      await gate;
    });
    try {
      await written;
      await createKnowledgeStore(a).addDocument(
        otherKb.id,
        { title: 'Penguins', content: 'The penguin parade starts at noon.', format: 'markdown', url: null },
        AT,
      );
      await new Promise((res) => setTimeout(res, FEED_POLL_MS + 500)); // a poll round and then some
      // B's feed stops before the later transaction's chunk: the older one may still commit below it.
      expect((await onB.retrieve('penguin parade', both, 3))[0]?.title).not.toBe('Penguins');
    } finally {
      commitLate();
      await late;
    }
    await until(onB, both, 'walrus pool', 'Walrus', 2 * FEED_POLL_MS);
    await until(onB, both, 'penguin parade', 'Penguins', 2 * FEED_POLL_MS);
    expect(await onB.settledEngine()).toBe('memory');
    await other.query('COMMIT');
    // A fresh PostgreSQL database in either project: CREATE DATABASE may wait on a checkpoint, as
    // vitest.config.ts says of the postgres project (it timed out at 30 s once in the sqlite run).
  }, 60_000);
});
