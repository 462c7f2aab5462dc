import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEmbedder, type FakeEmbedder } from '../../../test/fake-embeddings.js';
import { startFakeOpenAi, type FakeProvider } from '../../../test/fake-openai.js';
import { HANDBOOK, setupShop } from '../../../test/fixtures.js';
import { client, registerAccount } from '../../../test/http.js';
import { startServer, type TestServer } from '../../../test/test-server.js';
import type { Config } from '../../config.js';
import { migrate } from '../../db/migrate.js';
import { openDb } from '../../db/open.js';
import { createRetriever } from '../retrieval.js';
import type { SqliteStorage } from '../../storage/sqlite.js';
import type { EmbeddingsConfig } from '../../config.js';
import { createHybridRetriever } from './hybrid.js';

/** BM25 has no word of it ("reimbursed" is no form of "refund"); the fake's vectors relate them. */
const PARAPHRASE = 'When am I reimbursed?';

let fake: FakeEmbedder;
const servers: TestServer[] = [];

beforeAll(async () => {
  fake = await startFakeEmbedder({ apiKey: 'emb-key', dims: { 'fake-embed': 64, 'fake-other': 48 } });
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fake.fallback = { kind: 'ok' };
  fake.delayMs = 0;
});

function embeddingsConfig(overrides: Partial<EmbeddingsConfig> = {}): EmbeddingsConfig {
  return {
    baseUrl: `${fake.url}/v1`,
    model: 'fake-embed',
    apiKey: 'emb-key',
    dimensions: undefined,
    tuning: {
      batchSize: 4,
      batchTimeoutMs: 2_000,
      batchRetry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0 },
      // The backoff's jitter pinned to its ceiling: waits of 20, 40, 80… ms, which a test measures.
      backoffBaseMs: 20,
      backoffMaxMs: 200,
      backoffRandom: () => 0.999_999,
      idleSweepMs: 100,
      queryTimeoutMs: 1_000,
      queryCooldownMs: 0,
    },
    ...overrides,
  };
}

async function start(
  opts: {
    config?: Partial<Config>;
    db?: ReturnType<typeof openDb>;
    embeddings?: Partial<EmbeddingsConfig> | null;
    projectDatabase?: boolean;
  } = {},
): Promise<TestServer> {
  const embeddings = opts.embeddings === null ? null : embeddingsConfig(opts.embeddings);
  if (opts.projectDatabase) {
    // The project's database (PARLEY_TEST_DATABASE): sqlite-vec on SQLite, PostgreSQL's
    // vectors-in-memory backend (postgres-store.ts, replica.ts) on PostgreSQL.
    const server = await startServer({ config: { embeddings, ...opts.config } });
    servers.push(server);
    return server;
  }
  // Cases that read sqlite-vec's tables (or SQLite's id reuse) run on a SQLite database of their
  // own whatever PARLEY_TEST_DATABASE says; PostgreSQL's own cases are in postgres.test.ts.
  const db = opts.db ?? openDb(':memory:');
  const server = await startServer({ config: { embeddings, ...opts.config }, db });
  if (!opts.db) {
    const close = server.close;
    server.close = async () => {
      await close();
      db.close();
    };
  }
  servers.push(server);
  return server;
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const backlogDone = (s: TestServer) =>
  until('the backlog is embedded', async () => {
    const st = await s.ctx.embeddings!.status();
    return st.ready && st.pending === 0 && st.searchable === st.embedded;
  });

const search = (api: ReturnType<typeof client>, kbId: string, query: string, limit = 5) =>
  api.post(`/v1/knowledge-bases/${kbId}/search`, { query, limit });

/** The SQLite connection under a test server, for the sqlite-vec tables only SQLite has. */
function sqliteDb(s: TestServer) {
  if (s.ctx.storage.dialect !== 'sqlite') throw new Error('a SQLite-only check ran on PostgreSQL');
  return (s.ctx.storage as SqliteStorage).db;
}

const vectorRows = (s: TestServer, chunkIds: number[]): number =>
  (
    sqliteDb(s)
      .prepare('SELECT count(*) AS n FROM chunk_vectors WHERE chunk_id IN (SELECT value FROM json_each(?))')
      .get(JSON.stringify(chunkIds)) as { n: number }
  ).n;

/**
 * Vectors still held for these chunks, either backend: SQLite's vec0 rows; PostgreSQL's rows and
 * this instance's in-memory copy (a chunk counts when either still has it).
 */
async function vectorsHeld(s: TestServer, chunkIds: number[]): Promise<number> {
  if (s.ctx.storage.dialect === 'sqlite') return vectorRows(s, chunkIds);
  const rows = await s.ctx.storage.all<{ chunk_id: number }>(
    `SELECT chunk_id FROM chunk_dense_vectors WHERE chunk_id IN (${chunkIds.map(() => '?').join(', ')})`,
    chunkIds,
  );
  const inDb = new Set(rows.map((r) => r.chunk_id));
  const replica = s.ctx.embeddings!.postgres!.replica;
  return chunkIds.filter((id) => inDb.has(id) || replica.has(id)).length;
}

const chunkIdsWhere = async (s: TestServer, where: string, value: string): Promise<number[]> =>
  (await s.ctx.storage.all<{ id: number }>(`SELECT id FROM chunks WHERE ${where} = ? ORDER BY id`, [value])).map((r) => r.id);

const tmpDb = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-embeddings-')), 'parley.db');

describe('dense retrieval (embeddings)', () => {
  it('is off by default: no extension loaded, no vector table, search and deletes work', async () => {
    const server = await start({ embeddings: null });
    expect(server.ctx.embeddings ?? null).toBeNull();
    expect(() => sqliteDb(server).prepare('SELECT vec_version()').get()).toThrow(/no such function/);
    const shop = await setupShop(server.url);
    const hits = await search(shop.api, shop.kbId, 'How long do refunds take?');
    expect(hits.status).toBe(200);
    expect(hits.body.data[0].text).toContain('Refunds go back');
    expect(sqliteDb(server).prepare("SELECT 1 FROM sqlite_master WHERE name = 'chunk_vectors'").get()).toBeUndefined();
    expect((await search(shop.api, shop.kbId, PARAPHRASE)).body.data).toEqual([]);
    const docs = await shop.api.get(`/v1/knowledge-bases/${shop.kbId}/documents`);
    expect((await shop.api.del(`/v1/knowledge-bases/${shop.kbId}/documents/${docs.body.data[0].id}`)).status).toBe(200);
  });

  it('embeds new documents in the background and finds by meaning what BM25 misses, through search and chat', async () => {
    const llm: FakeProvider = await startFakeOpenAi({ apiKey: null });
    try {
      const server = await start({ config: { openaiApiKey: 'sk-test', openaiBaseUrl: `${llm.url}/v1` }, projectDatabase: true });
      const before = fake.requests.length;
      const shop = await setupShop(server.url, { model: { provider: 'openai', name: 'gpt-test' } });
      await backlogDone(server);
      const status = await server.ctx.embeddings!.status();
      expect(status).toMatchObject({ model: 'fake-embed', dimension: 64, ready: true, pending: 0 });
      expect(status.embedded).toBe((await server.ctx.storage.get<{ n: number }>('SELECT count(*) AS n FROM chunks'))?.n);

      // The wire format, exactly.
      const sent = fake.requests.slice(before);
      expect(sent.length).toBeGreaterThan(1); // batches of 4
      for (const r of sent) {
        expect(r.headers.authorization).toBe('Bearer emb-key');
        expect(r.body).toEqual({ model: 'fake-embed', input: expect.any(Array), encoding_format: 'float' });
        expect(r.body.input.length).toBeLessThanOrEqual(4);
      }
      expect(fake.embeddedInputs.some((s) => s.startsWith('Returns and refunds › Refunds\n\nRefunds go back'))).toBe(true);

      // BM25 alone has nothing for the paraphrase; hybrid finds the refunds section.
      expect(await createRetriever(server.ctx.storage).retrieve(PARAPHRASE, [{ id: shop.kbId, priority: 5 }], 5)).toEqual([]);
      const hits = await search(shop.api, shop.kbId, PARAPHRASE);
      expect(hits.status).toBe(200);
      expect(hits.body.data[0]).toMatchObject({
        title: 'Returns and refunds',
        url: 'https://shop.example.com/help/returns',
        text: expect.stringContaining('Refunds go back'),
      });
      // No lexical match at all: scores are cosine similarities.
      expect(hits.body.data[0].score).toBeGreaterThan(0.3);
      expect(hits.body.data[0].score).toBeLessThanOrEqual(1);

      // Mixed: BM25's hits keep their BM25 scores; the vector-only refunds chunk joins them.
      const mixed = 'Am I reimbursed for customs fees?';
      const lexical = await createRetriever(server.ctx.storage).retrieve(mixed, [{ id: shop.kbId, priority: 5 }], 20);
      expect(lexical.some((c) => c.text.includes('Refunds go back'))).toBe(false);
      const fused = (await search(shop.api, shop.kbId, mixed)).body.data as { chunkId: string; text: string; score: number }[];
      expect(fused.some((c) => c.text.includes('Refunds go back'))).toBe(true);
      for (const c of fused) {
        const bm = lexical.find((l) => String(l.chunkId) === c.chunkId);
        if (bm) expect(c.score).toBeCloseTo(bm.score, 4);
        else expect(c.score).toBeLessThanOrEqual(Math.max(...lexical.map((l) => l.score)) + 1e-9);
      }

      // Chat: the model is given the refunds passage and cites it.
      llm.fallback = (r) => {
        const system: string = r.body.messages[0].content;
        const n = /<passage number="(\d+)" title="Returns and refunds" section="Refunds"/.exec(system)?.[1];
        return { chunks: n ? [`Within 5 business days [${n}].`] : ['NO_ANSWER'] };
      };
      const chat = await shop.keyApi.post(shop.chatPath, { message: PARAPHRASE });
      expect(chat.status).toBe(200);
      expect(chat.body).toMatchObject({
        response: 'Within 5 business days [1].',
        sources: [{ title: 'Returns and refunds', url: 'https://shop.example.com/help/returns' }],
      });
      expect(chat.body.confidence).toBeGreaterThanOrEqual(0.6);
    } finally {
      await llm.close();
    }
  });

  it("gives a chunk only the vectors found its document's language, which the answerer reads it in (issue 25)", async () => {
    const server = await start({ projectDatabase: true });
    const account = await registerAccount(server.url, 'Sprachen');
    const kbId = (await account.api.post('/v1/knowledge-bases', { name: 'Hilfe', language: 'de' })).body.data.id as string;
    for (const doc of HANDBOOK) expect((await account.api.post(`/v1/knowledge-bases/${kbId}/documents`, doc)).status).toBe(201);
    await backlogDone(server);
    const dense = server.ctx.embeddings!.dense;
    const ids = await chunkIdsWhere(server, 'knowledge_base_id', kbId);
    const rows = await dense.hydrate(ids, [kbId]);
    expect([...rows.values()].map((r) => r.language)).toEqual(ids.map(() => 'de'));
    // BM25 finds nothing: every hit is the vectors', read back with its language as BM25's hits are.
    const hybrid = createHybridRetriever({ bm25: { retrieve: async () => [] }, dense });
    const hits = await hybrid.retrieve(PARAPHRASE, [{ id: kbId, priority: 5 }], 3);
    expect(hits[0]).toMatchObject({ text: expect.stringContaining('Refunds go back'), language: 'de' });
    expect(hits.every((h) => h.language === 'de')).toBe(true);
  });

  it('never returns another knowledge base or organization, nor a deleted chunk', async () => {
    const server = await start({ projectDatabase: true });
    const shop = await setupShop(server.url);
    const other = await shop.api.post('/v1/knowledge-bases', { name: 'Staff' });
    const staffKb = other.body.data.id as string;
    await shop.api.post(`/v1/knowledge-bases/${staffKb}/documents`, {
      title: 'Travel',
      content: 'Staff get a refund of travel costs every month.',
    });
    const rival = await registerAccount(server.url, 'Rival');
    const rivalKb = (await rival.api.post('/v1/knowledge-bases', { name: 'Rival help' })).body.data.id as string;
    await rival.api.post(`/v1/knowledge-bases/${rivalKb}/documents`, {
      title: 'Rival refunds',
      content: 'Refunds refunds refunds: reimbursement in store credit.',
    });
    await backlogDone(server);

    const kbOf = new Map(
      (await server.ctx.storage.all<{ id: number; kb: string }>('SELECT id, knowledge_base_id AS kb FROM chunks')).map((r) => [r.id, r.kb]),
    );
    const chunkKb = (id: string) => kbOf.get(Number(id));
    const mine = (await search(shop.api, shop.kbId, PARAPHRASE, 20)).body.data as { chunkId: string; documentId: string; text: string }[];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((h) => chunkKb(h.chunkId) === shop.kbId)).toBe(true);
    const staff = (await search(shop.api, staffKb, PARAPHRASE, 20)).body.data as { chunkId: string }[];
    expect(staff.map((h) => chunkKb(h.chunkId))).toEqual([staffKb]);
    expect((await search(rival.api, shop.kbId, PARAPHRASE)).status).toBe(404);

    // Deleting a document: its chunks stop matching at once, their vectors go with the next sweep.
    const refunds = mine.find((h) => h.text.includes('Refunds go back'))!;
    const docChunks = await chunkIdsWhere(server, 'document_id', refunds.documentId);
    expect(await vectorsHeld(server, docChunks)).toBe(docChunks.length);
    expect((await shop.api.del(`/v1/knowledge-bases/${shop.kbId}/documents/${refunds.documentId}`)).status).toBe(200);
    const after = (await search(shop.api, shop.kbId, PARAPHRASE, 20)).body.data as { documentId: string }[];
    expect(after.some((h) => h.documentId === refunds.documentId)).toBe(false);
    await until('the deleted chunks lose their vectors', async () => (await vectorsHeld(server, docChunks)) === 0);

    // Deleting a knowledge base takes its vectors too.
    const staffChunks = await chunkIdsWhere(server, 'knowledge_base_id', staffKb);
    expect(await vectorsHeld(server, staffChunks)).toBe(staffChunks.length);
    expect((await shop.api.del(`/v1/knowledge-bases/${staffKb}`)).status).toBe(200);
    await until('the deleted base loses its vectors', async () => (await vectorsHeld(server, staffChunks)) === 0);
    if (server.ctx.storage.dialect === 'sqlite')
      expect(sqliteDb(server).prepare('SELECT count(*) AS n FROM chunk_vector_garbage').get()).toEqual({ n: 0 });
  });

  it("never pairs a vector with a new chunk that took a deleted chunk's id", async () => {
    const server = await start();
    const account = await registerAccount(server.url, 'Ids');
    const kb = (await account.api.post('/v1/knowledge-bases', { name: 'Ids' })).body.data.id as string;
    await account.api.post(`/v1/knowledge-bases/${kb}/documents`, { title: 'Keep', content: 'Shipping takes three days.' });
    const last = (
      await account.api.post(`/v1/knowledge-bases/${kb}/documents`, { title: 'Refund rules', content: 'A refund is paid in ten days.' })
    ).body.data.id as string;
    await backlogDone(server);
    const oldId = (sqliteDb(server).prepare('SELECT max(id) AS id FROM chunks').get() as { id: number }).id;

    await server.ctx.embeddings!.worker.stop(); // hold the backlog: the new chunk stays without a vector
    await account.api.del(`/v1/knowledge-bases/${kb}/documents/${last}`);
    await account.api.post(`/v1/knowledge-bases/${kb}/documents`, { title: 'Opening hours', content: 'The shop opens at nine.' });
    expect((sqliteDb(server).prepare('SELECT max(id) AS id FROM chunks').get() as { id: number }).id).toBe(oldId); // SQLite re-used the id
    expect(vectorRows(server, [oldId])).toBe(1); // the old vector is still in the table…
    const hits = (await search(account.api, kb, PARAPHRASE, 10)).body.data as { chunkId: string }[];
    expect(hits.map((h) => Number(h.chunkId))).not.toContain(oldId); // …but is never used for the new chunk

    server.ctx.embeddings!.worker.start();
    await backlogDone(server);
    const opening = (await search(account.api, kb, 'When does the shop open?', 10)).body.data as { chunkId: string; text: string }[];
    expect(opening[0]).toMatchObject({ chunkId: String(oldId), text: 'The shop opens at nine.' });
  });

  it('answers from BM25 alone while the embeddings endpoint fails at question time', async () => {
    const server = await start({ projectDatabase: true });
    const shop = await setupShop(server.url);
    await backlogDone(server);
    fake.fallback = { kind: 'error', status: 503, message: 'overloaded' };
    const requests = fake.requests.length;
    const lexical = await createRetriever(server.ctx.storage).retrieve('How long do refunds take?', [{ id: shop.kbId, priority: 5 }], 5);
    const down = await search(shop.api, shop.kbId, 'How long do refunds take?');
    expect(down.status).toBe(200);
    expect(down.body.data.map((h: { chunkId: string }) => h.chunkId)).toEqual(lexical.map((c) => String(c.chunkId)));
    expect(down.body.data[0].text).toContain('Refunds go back');
    expect(fake.requests.length).toBeGreaterThan(requests); // it did try
    expect((await search(shop.api, shop.kbId, PARAPHRASE)).body.data).toEqual([]); // what only vectors find is gone meanwhile
    expect((await search(shop.api, shop.kbId, 'Where is my package?')).status).toBe(200);
    const chat = await shop.keyApi.post(shop.chatPath, { message: 'How long do refunds take?' });
    expect(chat.status).toBe(200);
    expect(chat.body.response).toMatch(/Refunds/); // the answer, or (below the threshold) the topic suggestions

    // A hung endpoint costs at most the query timeout, and the answer still comes.
    fake.fallback = { kind: 'hang' };
    const t0 = performance.now();
    expect((await search(shop.api, shop.kbId, 'Do you ship to Japan?')).body.data[0].text).toContain('Japan');
    expect(performance.now() - t0).toBeLessThan(2_000);
  });

  it('retries a failing backlog with backoff, honouring Retry-After, and resumes after a restart', async () => {
    const file = tmpDb();
    let db = openDb(file);
    migrate(db);
    fake.fallback = { kind: 'error', status: 503 };
    const before = fake.requests.length;
    const first = await start({ db });
    const account = await registerAccount(first.url, 'Restart');
    const kb = (await account.api.post('/v1/knowledge-bases', { name: 'Help' })).body.data.id as string;
    for (let i = 0; i < 6; i++)
      await account.api.post(`/v1/knowledge-bases/${kb}/documents`, {
        title: `Refund note ${i}`,
        content: `Refund rule number ${i} applies to orders.`,
      });
    await until('a few attempts', () => fake.requests.length - before >= 3);
    expect(await first.ctx.embeddings!.status()).toMatchObject({ ready: false, embedded: 0, pending: 6 });
    // Attempts are spaced by the backoff (20, 40, 80… ms).
    const times = fake.requests.slice(before).map((r) => r.at);
    expect((times[2] as number) - (times[1] as number)).toBeGreaterThanOrEqual(30);
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    db.close();

    // After the restart the backlog is picked up; a 429 with retry-after-ms is waited out first.
    db = openDb(file);
    fake.fallback = { kind: 'ok' };
    fake.enqueue({ kind: 'error', status: 429, headers: { 'retry-after-ms': '300' } });
    const at = fake.requests.length;
    const second = await start({ db });
    await backlogDone(second);
    const retried = fake.requests.slice(at);
    expect((retried[1]?.at as number) - (retried[0]?.at as number)).toBeGreaterThanOrEqual(280);
    expect(await second.ctx.embeddings!.status()).toMatchObject({ embedded: 6, pending: 0 });
    const hits = (await search(client(second.url, account.token), kb, PARAPHRASE)).body.data;
    expect(hits[0].title).toMatch(/^Refund note/);
    await second.close();
    servers.splice(servers.indexOf(second), 1);
    db.close();
  });

  it('isolates and skips an input the endpoint refuses, but never skips for a configuration error', async () => {
    const server = await start({ projectDatabase: true });
    const account = await registerAccount(server.url, 'Poison');
    const kb = (await account.api.post('/v1/knowledge-bases', { name: 'Help' })).body.data.id as string;
    await account.api.post(`/v1/knowledge-bases/${kb}/documents`, { title: 'Fine', content: 'Refunds take five days.' });
    await backlogDone(server);
    fake.fallback = (r) =>
      r.body.input.some((s: string) => s.includes('POISON')) ? { kind: 'error', status: 400, message: 'input too long' } : { kind: 'ok' };
    for (const title of ['One', 'Two', 'POISON', 'Three'])
      await account.api.post(`/v1/knowledge-bases/${kb}/documents`, { title, content: `${title} says refunds are fine.` });
    await until('all but the refused chunk are embedded', async () => (await server.ctx.embeddings!.status()).embedded === 4);
    await until('the refused chunk is skipped', () => server.ctx.embeddings!.worker.stats.skipped === 1);
    expect((await server.ctx.embeddings!.status()).pending).toBe(1);

    // A model the endpoint does not know: every request fails the same way; it backs off, skips nothing.
    const wrong = await start({ embeddings: { model: 'no-such-model' }, projectDatabase: true });
    const other = await registerAccount(wrong.url, 'Wrong');
    const kb2 = (await other.api.post('/v1/knowledge-bases', { name: 'Help' })).body.data.id as string;
    for (const title of ['A', 'B', 'C']) await other.api.post(`/v1/knowledge-bases/${kb2}/documents`, { title, content: `${title} text.` });
    await until('a few failed attempts', () => wrong.ctx.embeddings!.worker.stats.failures >= 3);
    expect(wrong.ctx.embeddings!.worker.stats.skipped).toBe(0);
    expect((await search(other.api, kb2, 'text')).status).toBe(200); // BM25 alone meanwhile
  });

  it('re-embeds everything when the model (or its dimension) changes, and a plain start still opens the database', async () => {
    const file = tmpDb();
    let db = openDb(file);
    migrate(db);
    const first = await start({ db });
    const shop = await setupShop(first.url);
    await backlogDone(first);
    const chunks = (await first.ctx.embeddings!.status()).embedded;
    await first.close();
    servers.splice(0);
    db.close();

    // Another model: the index is emptied at start, rebuilt at the new dimension.
    db = openDb(file);
    const seen = fake.embeddedInputs.length;
    const second = await start({ db, embeddings: { model: 'fake-other' } });
    const api = client(second.url, shop.token);
    await backlogDone(second);
    expect(await second.ctx.embeddings!.status()).toMatchObject({ model: 'fake-other', dimension: 48, embedded: chunks });
    expect(fake.embeddedInputs.length - seen).toBeGreaterThanOrEqual(chunks);
    expect(JSON.parse((db.prepare("SELECT value FROM settings WHERE key = 'embeddings_index'").get() as { value: string }).value)).toEqual({
      model: 'fake-other',
      dimensions: null,
      dim: 48,
    });
    expect((await search(api, shop.kbId, PARAPHRASE)).body.data[0].text).toContain('Refunds go back');

    // The same model name now answering with another dimension: noticed at the next batch.
    fake.dims['fake-other'] = 32;
    await api.post(`/v1/knowledge-bases/${shop.kbId}/documents`, { title: 'Gift cards', content: 'Gift cards never expire.' });
    await until('the index is rebuilt at 32', async () => (await second.ctx.embeddings!.status()).dimension === 32);
    await backlogDone(second);
    expect((await second.ctx.embeddings!.status()).embedded).toBe(chunks + 1);
    expect((await search(api, shop.kbId, PARAPHRASE)).body.data[0].text).toContain('Refunds go back');
    await second.close();
    servers.splice(0);
    db.close();
    fake.dims['fake-other'] = 48;

    // Embeddings turned off: the database (with its vec0 table) opens, migrates, deletes, searches.
    db = openDb(file);
    const third = await start({ db, embeddings: null });
    const plain = client(third.url, shop.token);
    const docs = await plain.get(`/v1/knowledge-bases/${shop.kbId}/documents`);
    expect((await plain.del(`/v1/knowledge-bases/${shop.kbId}/documents/${docs.body.data[0].id}`)).status).toBe(200);
    expect((await search(plain, shop.kbId, 'How long do refunds take?')).body.data.length).toBeGreaterThan(0);
    expect((db.prepare('SELECT count(*) AS n FROM chunk_vector_garbage').get() as { n: number }).n).toBeGreaterThan(0);
    await third.close();
    servers.splice(0);
    db.close();
  });
});
