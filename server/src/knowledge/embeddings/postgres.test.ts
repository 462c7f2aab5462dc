import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEmbedder, type FakeEmbedder } from '../../../test/fake-embeddings.js';
import { setupShop } from '../../../test/fixtures.js';
import { client, registerAccount } from '../../../test/http.js';
import { sharedPostgresDatabase, testDatabase, type SharedPostgres } from '../../../test/postgres.js';
import { startServer, type TestServer } from '../../../test/test-server.js';
import { openDb } from '../../db/open.js';
import { createFakeClock } from '../../lib/clock.js';
import { copySqliteToPostgres } from '../../storage/copy-to-postgres.js';
import type { PostgresStorage } from '../../storage/postgres.js';
import { createKnowledgeStore } from '../store.js';
import type { EmbeddingsConfig } from '../../config.js';
import { createPostgresVectorStore } from './postgres-store.js';
import { createVectorReplica } from './replica.js';

// Dense retrieval on PostgreSQL with several instances: two storages (two pools, as two Parley
// servers have) on one database, against the fake OpenAI-compatible embeddings server. These
// cases need PostgreSQL by nature: they run in the postgres project only.

const PARAPHRASE = 'When am I reimbursed?';
const AT = '2026-01-01T00:00:00.000Z';

let fake: FakeEmbedder;
let pg: SharedPostgres | null = null;
const servers: TestServer[] = [];

beforeAll(async () => {
  fake = await startFakeEmbedder({ dims: { 'fake-embed': 64, 'fake-other': 48 } });
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await pg?.drop();
  pg = null;
  fake.fallback = { kind: 'ok' };
  fake.delayMs = 0;
});

function embeddingsConfig(apiKey: string, overrides: Partial<EmbeddingsConfig> = {}): EmbeddingsConfig {
  return {
    baseUrl: `${fake.url}/v1`,
    model: 'fake-embed',
    apiKey,
    dimensions: undefined,
    tuning: {
      batchSize: 4,
      batchTimeoutMs: 2_000,
      batchRetry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0 },
      backoffBaseMs: 20,
      backoffMaxMs: 200,
      idleSweepMs: 100,
      queryTimeoutMs: 1_000,
      queryCooldownMs: 0,
      vectorPollMs: 100,
    },
    ...overrides,
  };
}

/** A database and a second storage on it. */
async function database(): Promise<{ a: PostgresStorage; b: PostgresStorage }> {
  pg = await sharedPostgresDatabase();
  return { a: pg.storage, b: pg.open() };
}

/** A Parley server on `storage`, embedding with its own key (the fake records who asked). */
async function server(storage: PostgresStorage, key: string, overrides: Partial<EmbeddingsConfig> = {}): Promise<TestServer> {
  const s = await startServer({ storage, config: { embeddings: embeddingsConfig(key, overrides) } });
  servers.push(s);
  return s;
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<number> {
  const t0 = performance.now();
  while (!(await check())) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return performance.now() - t0;
}

const count = async (s: PostgresStorage, sql: string, params: (string | number)[] = []): Promise<number> =>
  (await s.get<{ n: number }>(sql, params))?.n ?? 0;
const chunkIds = async (s: PostgresStorage, where = 'TRUE', params: string[] = []): Promise<number[]> =>
  (await s.all<{ id: number }>(`SELECT id FROM chunks WHERE ${where} ORDER BY id`, params)).map((r) => r.id);
const requestsBy = (key: string, from = 0) => fake.requests.slice(from).filter((r) => r.headers.authorization === `Bearer ${key}`);
const search = (api: ReturnType<typeof client>, kbId: string, query: string, limit = 5) =>
  api.post(`/v1/knowledge-bases/${kbId}/search`, { query, limit });

describe.skipIf(testDatabase !== 'postgres')('dense retrieval on PostgreSQL, several instances', () => {
  it('a SQLite database that had embeddings on copies to PostgreSQL (sqlite-vec tables left behind), whose instance embeds again', async () => {
    const db = openDb(':memory:');
    const sqlite = await startServer({ db, config: { embeddings: embeddingsConfig('key-s') } });
    servers.push(sqlite);
    const shop = await setupShop(sqlite.url);
    await until('SQLite embedded everything', async () => {
      const st = await sqlite.ctx.embeddings!.status();
      return st.ready && st.pending === 0;
    });
    await sqlite.close();
    servers.splice(servers.indexOf(sqlite), 1);
    expect(
      (db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name LIKE 'chunk_vectors%'").get() as { n: number }).n,
    ).toBeGreaterThan(1); // vec0 and its shadow tables

    pg = await sharedPostgresDatabase();
    const report = await copySqliteToPostgres(db, pg.storage);
    db.close();
    expect(report.ok).toBe(true);
    expect(report.tables.some((t) => t.table.startsWith('chunk_vectors'))).toBe(false);
    const P = await server(pg.storage, 'key-p');
    const total = await count(pg.storage, 'SELECT count(*) AS n FROM chunks');
    await until('PostgreSQL embedded the copied chunks', async () => (await P.ctx.embeddings!.status()).searchable === total);
    const hits = await search(client(P.url, shop.token), shop.kbId, PARAPHRASE);
    expect(hits.body.data[0].text).toContain('Refunds go back');
  }, 60_000);

  it("vectors one instance embeds appear in the other's memory index, and deleted chunks leave it", async () => {
    const { a, b } = await database();
    const A = await server(a, 'key-a');
    const B = await server(b, 'key-b');
    // B only answers: its worker is held, its in-memory copy still follows the table.
    await B.ctx.embeddings!.worker.stop();
    B.ctx.embeddings!.postgres!.replica.start();
    const fromB = fake.requests.length;

    const account = await registerAccount(A.url, 'Shop');
    const kb = (await account.api.post('/v1/knowledge-bases', { name: 'Help' })).body.data.id as string;
    await account.api.post(`/v1/knowledge-bases/${kb}/documents`, {
      title: 'Refunds',
      content: 'A refund is paid within five business days.',
    });
    await account.api.post(`/v1/knowledge-bases/${kb}/documents`, { title: 'Opening hours', content: 'The shop opens at nine.' });
    const ids = await chunkIds(a);
    const replicaB = B.ctx.embeddings!.postgres!.replica;
    const took = await until('B holds every vector', () => ids.every((id) => replicaB.has(id)));
    expect(requestsBy('key-b', fromB)).toEqual([]); // B embedded nothing (and has asked no question yet)
    expect(await count(b, 'SELECT count(*) AS n FROM chunk_dense_vectors')).toBe(ids.length);
    console.log(`A's vectors in B's memory ${took.toFixed(0)} ms after the documents were added`);

    // Through B: hybrid answers from vectors A embedded (BM25 alone has no word of the paraphrase).
    const viaB = client(B.url, account.token);
    const hits = await search(viaB, kb, PARAPHRASE);
    expect(hits.status).toBe(200);
    expect(hits.body.data[0]).toMatchObject({ title: 'Refunds', text: expect.stringContaining('refund is paid') });

    // Deleting the document through A: its chunks leave B's memory (chunk_deletions feed) and the table.
    const docs = await account.api.get(`/v1/knowledge-bases/${kb}/documents`);
    const refunds = (docs.body.data as { id: string; title: string }[]).find((d) => d.title === 'Refunds')!;
    const gone = await chunkIds(a, 'document_id = ?', [refunds.id]);
    expect(gone.length).toBeGreaterThan(0);
    expect((await account.api.del(`/v1/knowledge-bases/${kb}/documents/${refunds.id}`)).status).toBe(200);
    await until('B drops the deleted chunks', () => gone.every((id) => !replicaB.has(id)));
    expect(await count(a, `SELECT count(*) AS n FROM chunk_dense_vectors WHERE chunk_id IN (${gone.join(', ')})`)).toBe(0);
    expect(replicaB.size).toBe(ids.length - gone.length);
    const after = (await search(viaB, kb, PARAPHRASE, 10)).body.data as { title: string }[];
    expect(after.some((h) => h.title === 'Refunds')).toBe(false);
  }, 60_000);

  it('a worker hears of chunks another instance added (change feed) and embeds them', async () => {
    const { a, b } = await database();
    const A = await server(a, 'key-a');
    // No idle pass within the test: only the change feed can wake B.
    const B = await server(b, 'key-b', { tuning: { ...embeddingsConfig('key-b').tuning, idleSweepMs: 600_000 } });
    await A.ctx.embeddings!.worker.stop(); // A only writes documents
    A.ctx.embeddings!.postgres!.replica.start();
    const from = fake.requests.length;
    const account = await registerAccount(A.url, 'Quiet');
    const kb = (await account.api.post('/v1/knowledge-bases', { name: 'Help' })).body.data.id as string;
    await account.api.post(`/v1/knowledge-bases/${kb}/documents`, {
      title: 'Refunds',
      content: 'A refund is paid within five business days.',
    });
    const ids = await chunkIds(a);
    await until("B embedded A's chunks", async () => (await count(a, 'SELECT count(*) AS n FROM chunk_dense_vectors')) === ids.length);
    expect(requestsBy('key-a', from)).toEqual([]);
    expect(requestsBy('key-b', from).length).toBeGreaterThan(0);
    await until("A holds B's vectors", () => ids.every((id) => A.ctx.embeddings!.postgres!.replica.has(id)));
    expect((await search(account.api, kb, PARAPHRASE)).body.data[0].title).toBe('Refunds');
  }, 60_000);

  it('two workers never embed the same chunk at once: each chunk is sent once, and both share the work', async () => {
    const { a, b } = await database();
    const A = await server(a, 'key-a');
    const B = await server(b, 'key-b');
    // The backlog is written first, then both workers start on it at once; each batch takes the
    // fake 100 ms, so one worker alone would need 800 ms for it: their claims overlap in time.
    await Promise.all([A.ctx.embeddings!.worker.stop(), B.ctx.embeddings!.worker.stop()]);
    const account = await registerAccount(A.url, 'Busy');
    const kb = (await account.api.post('/v1/knowledge-bases', { name: 'Help' })).body.data.id as string;
    for (let i = 0; i < 30; i++)
      await account.api.post(`/v1/knowledge-bases/${kb}/documents`, {
        title: `Note ${i}`,
        content: `Rule number ${i} of the shop: item ${i} ships on day ${i}.`,
      });
    const total = (await chunkIds(a)).length;
    fake.delayMs = 100;
    const from = fake.requests.length;
    A.ctx.embeddings!.worker.start();
    B.ctx.embeddings!.worker.start();
    await until(
      'every chunk has a vector',
      async () => (await count(a, 'SELECT count(*) AS n FROM chunk_dense_vectors')) === total,
      60_000,
    );

    const inputs = fake.requests.slice(from).flatMap((r) => r.body.input as string[]);
    const counts = new Map<string, number>();
    for (const s of inputs) counts.set(s, (counts.get(s) ?? 0) + 1);
    expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
    expect(counts.size).toBe(total);
    const byA = requestsBy('key-a', from).length;
    const byB = requestsBy('key-b', from).length;
    console.log(`30 documents, ${total} chunks: ${byA} batches by A, ${byB} by B, no input sent twice`);
    expect(byA).toBeGreaterThan(0);
    expect(byB).toBeGreaterThan(0);
    expect(await count(a, 'SELECT count(*) AS n FROM embedding_claims')).toBe(0);
  }, 90_000);

  it("leases: a stalled holder's late write is refused once another took the chunks over; a renewed lease is not taken", async () => {
    const { a, b } = await database();
    const storeA = createKnowledgeStore(a);
    await a.run("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_t', 'T', 'free', ?)", [AT]);
    const kb = await storeA.createKb('org_t', { name: 'Help', description: null }, AT);
    for (let i = 0; i < 3; i++)
      await storeA.addDocument(kb.id, { title: `Doc ${i}`, content: `Text number ${i}.`, format: 'markdown', url: null }, AT);
    const identity = { model: 'fake-embed', dimensions: null };
    const clock = createFakeClock();
    const x = createPostgresVectorStore(a, { identity, clock, leaseMs: 60_000 });
    const y = createPostgresVectorStore(b, { identity, clock, leaseMs: 60_000 });
    expect(await x.open()).toBe('empty');
    expect(await y.open()).toBe('ready');
    await x.backlog.create(4);
    await y.backlog.create(4);
    const vec = (n: number) => Array.from({ length: n }, (_, i) => Float32Array.from([1, i, 0, 1]));

    const held = await x.backlog.take(0, 10, new Set());
    expect(held.batch.chunks).toHaveLength(3);
    expect((await y.backlog.take(0, 10, new Set())).batch.chunks).toEqual([]); // live claims
    clock.advance(60_001); // X stalls past its lease (its renewal never ran: the fake clock moved)
    const taken = await y.backlog.take(0, 10, new Set());
    expect(taken.batch.chunks.map((c) => c.id)).toEqual(held.batch.chunks.map((c) => c.id));
    expect(await x.backlog.write(held.batch, vec(3))).toBe(0); // fenced: the claim carries Y's token
    expect(await count(a, 'SELECT count(*) AS n FROM chunk_dense_vectors')).toBe(0);
    expect(await y.backlog.write(taken.batch, vec(3))).toBe(3);
    expect(await x.backlog.write(held.batch, vec(3))).toBe(0); // and still refused after Y is done

    // A renewed lease (real time: renewed every third of it) is never taken over.
    const real = createPostgresVectorStore(a, { identity, clock: { now: () => Date.now() }, leaseMs: 300 });
    const other = createPostgresVectorStore(b, { identity, clock: { now: () => Date.now() }, leaseMs: 300 });
    await real.open();
    await other.open();
    await storeA.addDocument(kb.id, { title: 'Late', content: 'A late chunk.', format: 'markdown', url: null }, AT);
    const mine = await real.backlog.take(0, 10, new Set());
    expect(mine.batch.chunks).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 1_000)); // three lease lengths
    expect((await other.backlog.take(0, 10, new Set())).batch.chunks).toEqual([]);
    await real.backlog.release(mine.batch); // handed back: taken at once
    const back = await other.backlog.take(0, 10, new Set());
    expect(back.batch.chunks.map((c) => c.id)).toEqual(mine.batch.chunks.map((c) => c.id));
    await other.backlog.release(back.batch);
  });

  it('a model change: the instance starting with the new model resets once; the old one retires to BM25 and writes nothing', async () => {
    const { a, b } = await database();
    const A = await server(a, 'key-a');
    const shop = await registerAccount(A.url, 'Shop');
    const kb = (await shop.api.post('/v1/knowledge-bases', { name: 'Help' })).body.data.id as string;
    await shop.api.post(`/v1/knowledge-bases/${kb}/documents`, {
      title: 'Refunds',
      content: 'A refund is paid within five business days.',
    });
    await shop.api.post(`/v1/knowledge-bases/${kb}/documents`, { title: 'Opening hours', content: 'The shop opens at nine.' });
    const total = (await chunkIds(a)).length;
    await until('A embedded everything', async () => (await A.ctx.embeddings!.status()).searchable === total);
    const before = await a.get<{ generation: number; model: string; dim: number }>(
      'SELECT generation, model, dim FROM embedding_index_state',
    );
    expect(before).toMatchObject({ model: 'fake-embed', dim: 64 });
    // A holds a batch across the change (a write in flight when the new model arrives).
    await shop.api.post(`/v1/knowledge-bases/${kb}/documents`, { title: 'Gift cards', content: 'Gift cards never expire.' });
    await A.ctx.embeddings!.worker.stop();
    A.ctx.embeddings!.postgres!.replica.start();
    const inFlight = await A.ctx.embeddings!.postgres!.store.backlog.take(0, 10, new Set());
    expect(inFlight.batch.chunks).toHaveLength(1);

    const B = await server(b, 'key-b', { model: 'fake-other' });
    const all = total + 1;
    await until('B re-embedded everything at 48', async () => (await B.ctx.embeddings!.status()).searchable === all);
    const state = await a.get<{ generation: number; model: string; dim: number }>(
      'SELECT generation, model, dim FROM embedding_index_state',
    );
    expect(state).toEqual({ generation: (before?.generation ?? 0) + 1, model: 'fake-other', dim: 48 });
    expect(
      await count(a, 'SELECT count(*) AS n FROM chunk_dense_vectors WHERE octet_length(vector) = 48 * 4 AND generation = ?', [
        state!.generation,
      ]),
    ).toBe(all);

    // A's late write of the old model: refused, and A retires.
    expect(await A.ctx.embeddings!.postgres!.store.backlog.write(inFlight.batch, [Float32Array.from({ length: 64 }, () => 1)])).toBe(0);
    expect(A.ctx.embeddings!.postgres!.store.retired).toBe(true);
    await until("A's memory drops the other model's vectors", () => !A.ctx.embeddings!.dense.ready);
    expect(await count(a, 'SELECT count(*) AS n FROM chunk_dense_vectors WHERE octet_length(vector) <> 48 * 4')).toBe(0);
    // A answers from BM25 alone (nothing for the paraphrase); B from its vectors.
    expect((await search(shop.api, kb, PARAPHRASE)).body.data).toEqual([]);
    expect((await search(client(B.url, shop.token), kb, PARAPHRASE)).body.data[0].title).toBe('Refunds');
    // A restarting its worker embeds nothing (not its model).
    const fromA = fake.requests.length;
    A.ctx.embeddings!.worker.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(requestsBy('key-a', fromA).filter((r) => (r.body.input as string[]).length > 1)).toEqual([]);
  });

  it('the model answering with another dimension rebuilds the vectors for every instance', async () => {
    const { a, b } = await database();
    const A = await server(a, 'key-a');
    const B = await server(b, 'key-b');
    const shop = await registerAccount(A.url, 'Shop');
    const kb = (await shop.api.post('/v1/knowledge-bases', { name: 'Help' })).body.data.id as string;
    await shop.api.post(`/v1/knowledge-bases/${kb}/documents`, {
      title: 'Refunds',
      content: 'A refund is paid within five business days.',
    });
    await until(
      'vectors at 64',
      async () => (await B.ctx.embeddings!.status()).searchable === 1 && (await A.ctx.embeddings!.status()).searchable === 1,
    );
    const before = await count(a, 'SELECT generation AS n FROM embedding_index_state');
    fake.dims['fake-embed'] = 32;
    try {
      await shop.api.post(`/v1/knowledge-bases/${kb}/documents`, { title: 'Gift cards', content: 'Gift cards never expire.' });
      await until('both instances hold both chunks at 32', async () => {
        const [sa, sb] = await Promise.all([A.ctx.embeddings!.status(), B.ctx.embeddings!.status()]);
        return sa.dimension === 32 && sb.dimension === 32 && sa.searchable === 2 && sb.searchable === 2;
      });
      expect(await count(a, 'SELECT generation AS n FROM embedding_index_state')).toBeGreaterThan(before);
      expect(await count(a, 'SELECT count(*) AS n FROM chunk_dense_vectors WHERE octet_length(vector) = 32 * 4')).toBe(2);
      expect((await search(client(B.url, shop.token), kb, PARAPHRASE)).body.data[0].title).toBe('Refunds');
    } finally {
      fake.dims['fake-embed'] = 64;
    }
  }, 60_000);

  it('an instance whose database goes away logs the failed vector reads once, not every poll', async () => {
    const { b } = await database();
    const lines: { level: string; msg: string }[] = [];
    const at = (level: string) => (msg: string) => {
      lines.push({ level, msg });
    };
    const logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
    const store = createPostgresVectorStore(b, {
      identity: { model: 'fake-embed', dimensions: null },
      clock: createFakeClock(),
      leaseMs: 1_000,
    });
    await store.open();
    await store.backlog.create(4);
    const replica = createVectorReplica(b, store, { pollMs: 20, logger });
    replica.start();
    await replica.settled();
    await b.close(); // the pool ends: every read fails from now on
    await new Promise((r) => setTimeout(r, 300)); // ~15 polls
    replica.stop();
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual(['reading dense vectors failed: retrying every poll']);
  });

  it('two instances starting at once with a new model reset the vectors once', async () => {
    const { a, b } = await database();
    const identity = { model: 'fake-embed', dimensions: null };
    const clock = createFakeClock();
    const x = createPostgresVectorStore(a, { identity, clock, leaseMs: 1_000 });
    const y = createPostgresVectorStore(b, { identity, clock, leaseMs: 1_000 });
    const before = await count(a, 'SELECT generation AS n FROM embedding_index_state');
    const results = await Promise.all([x.open(), y.open()]);
    expect(results.sort()).toEqual(['empty', 'ready']);
    expect(await count(a, 'SELECT generation AS n FROM embedding_index_state')).toBe(before + 1);
    expect(x.generation).toBe(y.generation);
    await Promise.all([x.backlog.create(64), y.backlog.create(64)]);
    expect(await count(a, 'SELECT generation AS n FROM embedding_index_state')).toBe(before + 1);
    expect(await count(a, 'SELECT dim AS n FROM embedding_index_state')).toBe(64);
  });
});
