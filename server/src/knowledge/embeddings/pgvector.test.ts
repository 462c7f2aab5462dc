import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPglite, type PgliteDatabase } from '../../../test/pglite.js';
import { freshPostgresStorage, postgresAdminUrl, testDatabase } from '../../../test/postgres.js';
import { createFakeClock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import { seededRandom } from '../../lib/seeded-random.js';
import type { PostgresStorage } from '../../storage/postgres.js';
import { createKnowledgeStore } from '../store.js';
import { createEmbeddings } from './index.js';
import { createMemoryVectors } from './memory-vectors.js';
import { createPgvectorSearch, enablePgvector, type PgvectorSearch } from './pgvector.js';
import { PGVECTOR_TABLE } from './pgvector-table.js';
import { createPostgresVectorStore, type PostgresVectorStore } from './postgres-store.js';

// pgvector (pgvector.ts) against real PostgreSQL with the real extension: PGlite (PostgreSQL 18
// compiled to WASM) with its pgvector build, served over the wire protocol on loopback by
// pglite-socket, so the server's own PostgreSQL adapter and migrations run against it (Debian's
// PostgreSQL 15 here has no pgvector package). PGlite is one session: pool of one connection.
// The fallback runs on the machine's PostgreSQL (no pgvector); a case runs there with pgvector
// when the server has it. All of it runs in the postgres project only (once per `npm test`).

const AT = '2026-01-01T00:00:00.000Z';
const onPostgres = testDatabase === 'postgres';

function captureLogger(): Logger & { lines: { level: string; msg: string }[] } {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (msg: string) => {
    lines.push({ level, msg });
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Deterministic pseudo-random vectors, so a failure can be replayed. */
const vectorFor = (seed: number, dim: number): Float32Array => {
  const r = seededRandom(seed);
  return Float32Array.from({ length: dim }, () => r() * 2 - 1);
};

interface Corpus {
  kbA: string;
  kbB: string;
  docs: { id: string; kb: string }[];
}

/** Two bases of `perKb` one-chunk documents each. */
async function corpus(storage: PostgresStorage, org: string, perKb: number): Promise<Corpus> {
  const store = createKnowledgeStore(storage);
  await storage.run('INSERT INTO organizations (id, name, plan, created_at) VALUES (?, ?, ?, ?)', [org, org, 'free', AT]);
  const kbA = (await store.createKb(org, { name: 'A', description: null }, AT)).id;
  const kbB = (await store.createKb(org, { name: 'B', description: null }, AT)).id;
  const docs: { id: string; kb: string }[] = [];
  for (let i = 0; i < perKb * 2; i++) {
    const kb = i % 2 ? kbB : kbA;
    const doc = await store.addDocument(
      kb,
      { title: `Note ${i}`, content: `Rule ${i}: item ${i} ships on day ${i}.`, format: 'markdown', url: null },
      AT,
    );
    docs.push({ id: doc.id, kb });
  }
  return { kbA, kbB, docs };
}

/** Embeds every pending chunk through the store's backlog (claims, then the write path), `vec(id)` each. */
async function embedAll(store: PostgresVectorStore, vec: (chunkId: number) => Float32Array, max = Infinity): Promise<number> {
  let written = 0;
  for (let cursor = 0; written < max;) {
    const { batch, scannedTo, done } = await store.backlog.take(cursor, Math.min(50, max - written), new Set());
    if (batch.chunks.length)
      written += await store.backlog.write(
        batch,
        batch.chunks.map((c) => vec(c.id)),
      );
    cursor = scannedTo;
    if (done) break;
  }
  return written;
}

const count = async (s: PostgresStorage, sql: string): Promise<number> => (await s.get<{ n: number }>(sql))?.n ?? 0;

/** pgvector's answers against the exact in-memory search over the same vectors, for many queries, bases and k. */
async function expectExact(
  storage: PostgresStorage,
  search: PgvectorSearch,
  c: Corpus,
  dim: number,
  vec: (chunkId: number) => Float32Array,
): Promise<void> {
  const exact = createMemoryVectors(dim);
  for (const r of await storage.all<{ id: number; knowledge_base_id: string }>(
    'SELECT id, knowledge_base_id FROM chunks WHERE id IN (SELECT chunk_id FROM chunk_dense_vectors)',
  )) {
    exact.upsert(r.id, r.knowledge_base_id, vec(r.id));
  }
  let compared = 0;
  for (let q = 0; q < 12; q++) {
    const query = vectorFor(10_000 + q, dim);
    for (const kbs of [[c.kbA], [c.kbB], [c.kbA, c.kbB]]) {
      for (const k of [1, 5, 10]) {
        const want = exact.search(query, kbs, k);
        const got = await search.search(query, kbs, k);
        expect(got.map((h) => [h.chunkId, h.knowledgeBaseId])).toEqual(want.map((h) => [h.chunkId, h.knowledgeBaseId]));
        got.forEach((h, i) => expect(h.distance).toBeCloseTo((want[i] as { distance: number }).distance, 5));
        compared++;
      }
    }
  }
  expect(compared).toBe(12 * 3 * 3);
}

/** A vector store for `model` (default dimensions, a minute's lease). */
const vectorStore = (storage: PostgresStorage, model: string, clock = createFakeClock()) =>
  createPostgresVectorStore(storage, { identity: { model, dimensions: null }, clock, leaseMs: 60_000 });

describe.skipIf(!onPostgres)('pgvector on PGlite (PostgreSQL 18 in WASM with the real extension)', () => {
  let db: PgliteDatabase;
  beforeAll(async () => {
    db = await startPglite();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('creates the extension, fills its table from vectors stored before, writes it with new ones, and answers exactly as the in-memory search', async () => {
    const { storage } = db;
    const c = await corpus(storage, 'org_exact', 60);
    const dim = 16;
    const vec = (id: number) => vectorFor(id, dim);
    const store = vectorStore(storage, 'm-exact');
    expect(await store.open()).toBe('empty');
    await store.backlog.create(dim);
    expect(await embedAll(store, vec, 50)).toBe(50); // before pgvector: float32 rows only
    expect(await storage.get(`SELECT to_regclass('${PGVECTOR_TABLE}') AS t`)).toEqual({ t: null });

    const logger = captureLogger();
    const version = await enablePgvector(storage, logger);
    expect(version).toMatch(/^0\.(8|9)\.|^[1-9]/);
    const search = createPgvectorSearch(storage, store, { version: version as string, pollMs: 60_000, logger });
    await search.settled();
    expect(search.ready).toBe(true);
    expect(await search.count()).toBe(50); // filled at activation
    expect(await embedAll(store, vec)).toBe(70); // the write path writes both tables
    expect(await search.count()).toBe(120);
    expect(await count(storage, 'SELECT count(*) AS n FROM chunk_dense_vectors')).toBe(120);
    const indexes = (await storage.all<{ indexdef: string }>('SELECT indexdef FROM pg_indexes WHERE tablename = ?', [PGVECTOR_TABLE])).map(
      (r) => r.indexdef,
    );
    expect(indexes.some((d) => /USING hnsw \(embedding vector_cosine_ops\)/.test(d))).toBe(true);
    // The KNN query uses the HNSW index (with the base filter, pgvector's iterative scan).
    const plan = await storage.tx(async (tx) => {
      await tx.get("SELECT set_config('enable_seqscan', 'off', true) AS x");
      return tx.all<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT chunk_id FROM ${PGVECTOR_TABLE} ORDER BY embedding <=> CAST(? AS vector) LIMIT 5`,
        [`[${Array(dim).fill(1).join(',')}]`],
      );
    });
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/chunk_pgvectors_hnsw/);

    await expectExact(storage, search, c, dim, vec);
    expect(await search.search(vec(1), ['kb_none'], 5)).toEqual([]);
    expect(await search.search(vectorFor(1, dim + 1), [c.kbA], 5)).toEqual([]);
    expect(await search.search(new Float32Array(dim), [c.kbA], 5)).toEqual([]);
  });

  it("a deleted document's chunks leave the pgvector table and the answers", async () => {
    const { storage } = db;
    const c = await corpus(storage, 'org_delete', 10);
    const dim = 16;
    const vec = (id: number) => vectorFor(id, dim);
    const store = vectorStore(storage, 'm-delete');
    expect(await store.open()).toBe('reset'); // the previous case's model
    await store.backlog.create(dim);
    const search = createPgvectorSearch(storage, store, {
      version: (await enablePgvector(storage, captureLogger())) as string,
      pollMs: 60_000,
      logger: captureLogger(),
    });
    await search.settled();
    expect(await search.count()).toBe(0); // the model change dropped the previous table
    const total = await count(storage, 'SELECT count(*) AS n FROM chunks'); // the earlier case's chunks are embedded again too
    expect(await embedAll(store, vec)).toBe(total);
    await search.settled();
    expect(search.ready).toBe(true);
    const victim = c.docs[4] as { id: string; kb: string };
    const chunk = (await storage.get<{ id: number }>('SELECT id FROM chunks WHERE document_id = ?', [victim.id]))?.id as number;
    expect((await search.search(vec(chunk), [victim.kb], 1))[0]?.chunkId).toBe(chunk);
    expect(await createKnowledgeStore(storage).deleteDocument(victim.kb, victim.id, AT)).toBe(true);
    const after = await search.search(vec(chunk), [victim.kb], 10);
    expect(after.some((h) => h.chunkId === chunk)).toBe(false);
    expect(after).toHaveLength(9);
    expect(await search.count()).toBe(total - 1);
    await expectExact(storage, search, c, dim, vec);
  });

  it("a generation change to another dimension drops the table; it is made again at the new dimension, and the old model's search stops", async () => {
    const { storage } = db;
    const c = await corpus(storage, 'org_gen', 15);
    const version = (await enablePgvector(storage, captureLogger())) as string;
    const clock = createFakeClock();
    const old = vectorStore(storage, 'm-gen-a', clock);
    await old.open();
    await old.backlog.create(16);
    const oldLog = captureLogger();
    const oldSearch = createPgvectorSearch(storage, old, { version, pollMs: 60_000, logger: oldLog });
    await embedAll(old, (id) => vectorFor(id, 16));
    await oldSearch.settled();
    expect(oldSearch.ready).toBe(true);
    const total = await count(storage, 'SELECT count(*) AS n FROM chunks');

    const next = vectorStore(storage, 'm-gen-b', clock);
    expect(await next.open()).toBe('reset');
    expect(await storage.get(`SELECT to_regclass('${PGVECTOR_TABLE}') AS t`)).toEqual({ t: null });
    // The old model's search, between two polls, finds its table gone: no answer, no error.
    expect(oldSearch.ready).toBe(true);
    expect(await oldSearch.search(vectorFor(1, 16), [c.kbA], 5)).toEqual([]);
    expect(oldLog.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      'pgvector search failed: answering from BM25 alone meanwhile',
    ]);
    await next.backlog.create(8);
    const vec8 = (id: number) => vectorFor(id + 7, 8);
    const search = createPgvectorSearch(storage, next, { version, pollMs: 60_000, logger: captureLogger() });
    expect(await embedAll(next, vec8)).toBe(total);
    await search.settled();
    expect(search.ready).toBe(true);
    expect(await count(storage, `SELECT count(*) AS n FROM ${PGVECTOR_TABLE}`)).toBe(total);
    expect(
      await storage.get(
        `SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = to_regclass('${PGVECTOR_TABLE}') AND attname = 'embedding'`,
      ),
    ).toEqual({ t: 'vector(8)' });
    await expectExact(storage, search, c, 8, vec8);

    await oldSearch.settled();
    expect(old.retired).toBe(true);
    expect(oldSearch.ready).toBe(false);
    expect(await oldSearch.search(vectorFor(1, 16), [c.kbA], 5)).toEqual([]);

    // The same model answering with another dimension (a new generation by backlog.create).
    await next.backlog.create(4);
    await search.settled();
    expect(
      await storage.get(
        `SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = to_regclass('${PGVECTOR_TABLE}') AND attname = 'embedding'`,
      ),
    ).toEqual({ t: 'vector(4)' });
    expect(search.ready).toBe(false); // no vectors yet
    expect(await embedAll(next, (id) => vectorFor(id, 4))).toBe(total);
    await search.settled();
    expect(search.ready).toBe(true);
    await expectExact(storage, search, c, 4, (id) => vectorFor(id, 4));
  });

  it('createEmbeddings answers from pgvector where the extension is there (no in-memory copy), and from the replica with EMBEDDINGS_VECTOR_SEARCH=memory', async () => {
    const { storage } = db;
    const c = await corpus(storage, 'org_wiring', 5);
    const config = (model: string, vectorSearch: 'auto' | 'memory') => ({
      baseUrl: 'http://127.0.0.1:9/v1',
      model,
      apiKey: undefined,
      dimensions: undefined,
      vectorSearch,
    });
    const logger = captureLogger();
    const emb = createEmbeddings({ storage, config: config('m-wiring', 'auto'), logger });
    await emb.postgres!.opened;
    const pgv = emb.postgres!.pgvector!;
    expect(pgv.kind).toBe('pgvector');
    expect(logger.lines.map((l) => l.msg)).toContain(`dense retrieval on (PostgreSQL, vectors searched with pgvector ${pgv.version})`);
    await emb.postgres!.store.backlog.create(16);
    const total = await embedAll(emb.postgres!.store, (id) => vectorFor(id, 16));
    await pgv.settled();
    expect(emb.dense.ready).toBe(true);
    const first = (await storage.get<{ id: number }>('SELECT min(id) AS id FROM chunks WHERE knowledge_base_id IN (?, ?)', [c.kbA, c.kbB]))
      ?.id as number;
    const hits = await emb.dense.search(vectorFor(first, 16), [c.kbA, c.kbB], 3);
    expect(hits.map((h) => h.chunkId)).toHaveLength(3);
    expect(hits[0]?.chunkId).toBe(first);
    expect((await emb.status()).searchable).toBe(total);
    expect(emb.postgres!.replica.size).toBe(0);

    const forced = createEmbeddings({ storage, config: config('m-wiring', 'memory'), logger: captureLogger() });
    await forced.postgres!.opened;
    expect(forced.postgres!.pgvector).toBeNull();
    forced.postgres!.replica.start();
    try {
      await forced.postgres!.replica.settled();
      expect(forced.postgres!.replica.size).toBe(total);
      expect(forced.dense.ready).toBe(true);
      expect((await forced.dense.search(vectorFor(first, 16), [c.kbA, c.kbB], 3)).map((h) => h.chunkId)).toEqual(
        hits.map((h) => h.chunkId),
      );
    } finally {
      forced.postgres!.replica.stop();
    }
  });
});

/** The machine's PostgreSQL (the postgres project's server): has it pgvector? A reason to skip, or null. */
async function machinePgvector(): Promise<'available' | 'absent' | string> {
  if (!onPostgres) return 'not the postgres project';
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  try {
    await client.connect();
    const r = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
    return r.rowCount ? 'available' : 'absent';
  } catch (err) {
    return `cannot reach ${postgresAdminUrl}: ${(err as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}
const machine = await machinePgvector();

describe.skipIf(!onPostgres)("pgvector on the machine's PostgreSQL", () => {
  it.skipIf(machine !== 'absent')(
    `without the extension on the server, the in-memory replica answers (logged once)${machine === 'absent' ? '' : ` [skipped: ${machine === 'available' ? 'this server has pgvector' : machine}]`}`,
    async () => {
      const db = await freshPostgresStorage({ poolSize: 1 });
      try {
        const logger = captureLogger();
        const emb = createEmbeddings({
          storage: db.storage,
          config: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm-fallback', apiKey: undefined, dimensions: undefined, vectorSearch: 'auto' },
          logger,
        });
        await emb.postgres!.opened;
        expect(emb.postgres!.pgvector).toBeNull();
        expect(logger.lines.filter((l) => /pgvector/.test(l.msg)).map((l) => l.msg)).toEqual([
          'pgvector is not installed on the database server: dense vectors are searched in memory by every instance (docs/deploy-scale-out.md)',
        ]);
        expect(logger.lines.map((l) => l.msg)).toContain('dense retrieval on (PostgreSQL, vectors searched in memory)');
        const c = await corpus(db.storage, 'org_fallback', 3);
        const store = emb.postgres!.store;
        await store.backlog.create(16);
        const total = await embedAll(store, (id) => vectorFor(id, 16));
        expect(await db.storage.get(`SELECT to_regclass('${PGVECTOR_TABLE}') AS t`)).toEqual({ t: null });
        emb.postgres!.replica.start();
        try {
          await emb.postgres!.replica.settled();
          expect((await emb.status()).searchable).toBe(total);
          expect((await emb.dense.search(vectorFor(1, 16), [c.kbA, c.kbB], 10)).length).toBe(total);
        } finally {
          emb.postgres!.replica.stop();
        }
      } finally {
        await db.drop();
      }
    },
  );

  it.skipIf(machine !== 'available')(
    `with pgvector on the server, answers as the exact search${machine === 'available' ? '' : ` [skipped: ${machine === 'absent' ? 'this PostgreSQL has no pgvector (Debian does not package it)' : machine}]`}`,
    async () => {
      const db = await freshPostgresStorage({ poolSize: 2 });
      try {
        const version = await enablePgvector(db.storage, captureLogger());
        expect(version).not.toBeNull();
        const c = await corpus(db.storage, 'org_machine', 30);
        const store = createPostgresVectorStore(db.storage, {
          identity: { model: 'm-machine', dimensions: null },
          clock: createFakeClock(),
          leaseMs: 60_000,
        });
        await store.open();
        await store.backlog.create(16);
        const vec = (id: number) => vectorFor(id, 16);
        await embedAll(store, vec);
        const search = createPgvectorSearch(db.storage, store, { version: version as string, pollMs: 60_000, logger: captureLogger() });
        await search.settled();
        expect(search.ready).toBe(true);
        await expectExact(db.storage, search, c, 16, vec);
      } finally {
        await db.drop();
      }
    },
  );
});
