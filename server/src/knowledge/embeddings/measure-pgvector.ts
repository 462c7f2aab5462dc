/**
 * One-off measurements of the pgvector search (not a test), on PGlite: PostgreSQL 18 compiled to
 * WASM with the real pgvector, in this process (server/test/pglite.ts). A native PostgreSQL is
 * faster; the figures compare pgvector with the in-memory search on the same vectors and give
 * HNSW's recall, which does not depend on the runtime.
 *
 * `npx tsx server/src/knowledge/embeddings/measure-pgvector.ts [vectors=10000] [dim=384] [ef=200] [--clustered] [--no-analyze]`
 *
 * Two bases (one of 90 % of the vectors, one of 10 %), 100 questions of k = 20 on both and on the
 * small one, alternating pgvector and the in-memory search; recall@20 against the latter.
 * `--clustered`: vectors and questions are one of 200 topic centroids plus noise (closer to real
 * embeddings than uniform random vectors, HNSW's worst case). `--no-analyze`: drops the statistics the activation's ANALYZE made.
 */
import { startPglite } from '../../../test/pglite.js';
import { createLogger } from '../../lib/logger.js';
import { seededRandom } from '../../lib/seeded-random.js';
import { createMemoryVectors } from './memory-vectors.js';
import { createPgvectorSearch, enablePgvector } from './pgvector.js';
import { createPostgresVectorStore } from './postgres-store.js';
import { bytesOf } from './postgres-vector-sql.js';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const N = Number(args[0] ?? 10_000);
const D = Number(args[1] ?? 384);
const EF = Number(args[2] ?? 200);
const clustered = process.argv.includes('--clustered');
const AT = '2026-01-01T00:00:00.000Z';

const random = seededRandom(1);
const r = (): number => random() * 2 - 1;
const centroids = Array.from({ length: 200 }, () => Float32Array.from({ length: D }, r));
let topic = 0;
const nextVector = (): Float32Array => {
  if (!clustered) return Float32Array.from({ length: D }, r);
  topic = (topic * 7 + 13) % centroids.length;
  return Float32Array.from(centroids[topic] as Float32Array, (x) => x + 0.5 * r());
};
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

const db = await startPglite();
const s = db.storage;
try {
  await s.run('INSERT INTO organizations (id, name, plan, created_at) VALUES (?, ?, ?, ?)', ['org_m', 'M', 'free', AT]);
  for (const kb of ['kb_big', 'kb_small'])
    await s.run('INSERT INTO knowledge_bases (id, organization_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [
      kb,
      'org_m',
      kb,
      AT,
      AT,
    ]);
  await s.run('INSERT INTO documents (id, knowledge_base_id, title, format, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
    'doc_m',
    'kb_big',
    't',
    'markdown',
    AT,
    AT,
  ]);
  const store = createPostgresVectorStore(s, {
    identity: { model: 'measure', dimensions: null },
    clock: { now: () => Date.now() },
    leaseMs: 60_000,
  });
  await store.open();
  await store.backlog.create(D);
  const memory = createMemoryVectors(D);
  let t = performance.now();
  // Stored as the backlog's writes store them, before pgvector is on: the activation copies them.
  for (let i = 0; i < N; i += 200) {
    await s.tx(async (tx) => {
      for (let j = i; j < Math.min(N, i + 200); j++) {
        const kb = j % 10 === 0 ? 'kb_small' : 'kb_big';
        const row = await tx.get<{ id: number }>(
          "INSERT INTO chunks (document_id, knowledge_base_id, ordinal, title, headings, body) VALUES ('doc_m', ?, ?, 't', '', 'b') RETURNING id",
          [kb, j],
        );
        const v = nextVector();
        memory.upsert((row as { id: number }).id, kb, v);
        await tx.run('INSERT INTO chunk_dense_vectors (chunk_id, knowledge_base_id, generation, vector) VALUES (?, ?, ?, ?)', [
          (row as { id: number }).id,
          kb,
          store.generation,
          bytesOf(v),
        ]);
      }
    });
  }
  console.log(`${N} float32 rows stored in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const version = await enablePgvector(s, createLogger('silent'));
  if (!version) throw new Error('no pgvector');
  const search = createPgvectorSearch(s, store, { version, pollMs: 60_000, logger: createLogger('silent'), efSearch: EF });
  t = performance.now();
  await search.settled();
  console.log(
    `activation (table, HNSW, copy of ${await search.count()} vectors row by row) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  // The activation ANALYZEs the table it filled; `--no-analyze` measures the plans without statistics.
  if (process.argv.includes('--no-analyze'))
    await s.run('DELETE FROM pg_statistic WHERE starelid = CAST(? AS regclass)', ['chunk_pgvectors']);
  for (const kbs of [['kb_big', 'kb_small'], ['kb_small']]) {
    const tp: number[] = [];
    const tm: number[] = [];
    let found = 0;
    let wanted = 0;
    for (let i = 0; i < 100; i++) {
      const q = nextVector();
      let t0 = performance.now();
      const got = await search.search(q, kbs, 20);
      tp.push(performance.now() - t0);
      t0 = performance.now();
      const exact = memory.search(q, kbs, 20);
      tm.push(performance.now() - t0);
      const ids = new Set(exact.map((h) => h.chunkId));
      found += got.filter((h) => ids.has(h.chunkId)).length;
      wanted += exact.length;
    }
    console.log(
      `${N} x ${D} ${clustered ? 'clustered' : 'uniform random'}, bases ${kbs.join('+')}, k = 20, ef_search ${EF}: pgvector (PGlite/WASM) p50 ${pct(tp, 50).toFixed(2)} / p95 ${pct(tp, 95).toFixed(2)} ms, in memory p50 ${pct(tm, 50).toFixed(2)} / p95 ${pct(tm, 95).toFixed(2)} ms, recall@20 ${(found / wanted).toFixed(3)}`,
    );
  }
} finally {
  await db.close();
}
