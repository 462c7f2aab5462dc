/**
 * One-off measurements for dense retrieval (not a test): `npx tsx server/src/knowledge/embeddings/measure.ts`
 *
 * 1. backlog throughput: chunks/s embedded from a 10k-chunk corpus against the fake embedder
 *    (test/fake-embeddings.ts, 384 dimensions, in this process, on loopback);
 * 2. query latency at 10k chunks: BM25 alone vs hybrid (question vector not cached: a loopback
 *    round trip; cached), p50/p95 over the corpus questions;
 * 3. KNN time at 10k and 100k vectors of 384 dimensions: one base holding them all, and one base
 *    of ten (partitioned: only that base's vectors are read).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getLoadablePath } from 'sqlite-vec';
import { seedCorpusDb } from '../../../../bench/src/seed-corpus.js';
import { startFakeEmbedder } from '../../../test/fake-embeddings.js';
import { migrate } from '../../db/migrate.js';
import { openDb } from '../../db/open.js';
import { createSqliteStorage } from '../../storage/sqlite.js';
import { createLogger } from '../../lib/logger.js';
import { createRetriever } from '../retrieval.js';
import { createHybridRetriever } from './hybrid.js';
import { createEmbeddings } from './index.js';
import { createVectorIndex } from './vector-index.js';

const DIM = 384;
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const fmt = (xs: number[]): string => `p50 ${pct(xs, 50).toFixed(2)} ms, p95 ${pct(xs, 95).toFixed(2)} ms`;

async function latencyAndThroughput(): Promise<void> {
  const fake = await startFakeEmbedder({ dims: { 'fake-384': DIM } });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-emb-measure-'));
  const { db, storage, knowledgeBaseId, questions } = await seedCorpusDb(path.join(dir, 'corpus.db'), 10_000);
  const chunks = (db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
  const embeddings = createEmbeddings({
    storage,
    logger: createLogger('silent'),
    config: { baseUrl: `${fake.url}/v1`, model: 'fake-384', apiKey: undefined, dimensions: undefined },
  });

  const t0 = performance.now();
  embeddings.worker.start();
  while ((await embeddings.status()).embedded < chunks) await new Promise((r) => setTimeout(r, 20));
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `backlog: ${chunks} chunks in ${seconds.toFixed(1)} s = ${Math.round(chunks / seconds)} chunks/s (batches of 64, fake in-process)`,
  );
  await embeddings.worker.stop();

  const kbs = [{ id: knowledgeBaseId, priority: 5 }];
  const bm25 = createRetriever(storage);
  for (const q of questions.slice(0, 20)) await bm25.retrieve(q, kbs, 6); // warm (and let a memory index build)
  await new Promise((r) => setTimeout(r, 2_000));
  for (const q of questions.slice(0, 20)) await bm25.retrieve(q, kbs, 6);
  const hybrid = createHybridRetriever({ bm25, dense: embeddings.dense });
  const off = createHybridRetriever({ bm25, dense: null });
  const time = async (fn: (q: string) => unknown, qs: string[]): Promise<number[]> => {
    const out: number[] = [];
    for (const q of qs) {
      const s = performance.now();
      await fn(q);
      out.push(performance.now() - s);
    }
    return out;
  };
  const qs = questions.slice(20);
  await time((q) => hybrid.retrieve(`warm ${q}`, kbs, 6), qs.slice(0, 20));
  const lexical = await time((q) => bm25.retrieve(q, kbs, 6), qs);
  const offPath = await time((q) => off.retrieve(q, kbs, 6), qs);
  const miss = await time((q) => hybrid.retrieve(q, kbs, 6), qs);
  const hit = await time((q) => hybrid.retrieve(q, kbs, 6), qs);
  const embedOnly = await time((q) => embeddings.queries.embed(`x ${q}`), qs);
  const vectors = await Promise.all(qs.slice(0, 50).map((q) => embeddings.queries.embed(q)));
  const knnOnly = await time(async (q) => embeddings.dense.search(vectors[qs.indexOf(q) % 50] as Float32Array, [knowledgeBaseId], 20), qs);
  console.log(`queries at ${chunks} chunks (${qs.length} questions, limit 6; BM25 engine: ${bm25.engine()}):`);
  console.log(`  BM25 alone                     ${fmt(lexical)}`);
  console.log(`  embeddings off (wrapper)       ${fmt(offPath)}`);
  console.log(`  hybrid, question not cached    ${fmt(miss)}`);
  console.log(`  hybrid, question cached        ${fmt(hit)}`);
  console.log(`  parts: embed round trip ${fmt(embedOnly)}; KNN k=20 ${fmt(knnOnly)}`);
  await storage.close();
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

async function knn(n: number): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-emb-knn-'));
  const db = openDb(path.join(dir, 'knn.db'));
  migrate(db);
  db.loadExtension(getLoadablePath()); // createEmbeddings does this for the server
  const storage = createSqliteStorage(db);
  const index = createVectorIndex(storage, { model: 'random', dimensions: null });
  await index.open();
  await index.create(DIM);
  let seed = 7;
  const rnd = (): number => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32 - 0.5;
  const vec = (): Float32Array => Float32Array.from({ length: DIM }, rnd);
  const insert = db.prepare('INSERT INTO chunk_vectors (chunk_id, knowledge_base_id, embedding) VALUES (?, ?, ?)');
  const mark = db.prepare('INSERT INTO chunk_embeddings (chunk_id) VALUES (?)');
  const t0 = performance.now();
  db.transaction(() => {
    for (let i = 1; i <= n; i++) {
      const v = vec();
      insert.run(BigInt(i), `kb${i % 10}`, Buffer.from(v.buffer));
      mark.run(i);
    }
  })();
  const insertMs = performance.now() - t0;
  const queries = Array.from({ length: 30 }, vec);
  const all = Array.from({ length: 10 }, (_, i) => `kb${i}`);
  const run = async (kbs: string[]): Promise<number[]> => {
    const out: number[] = [];
    for (const q of queries) {
      const s = performance.now();
      await index.search(q, kbs, 20);
      out.push(performance.now() - s);
    }
    return out;
  };
  await run(all);
  console.log(
    `KNN ${n} vectors x ${DIM} (insert ${(insertMs / 1000).toFixed(1)} s): all 10 bases ${fmt(await run(all))}; one base of ten ${fmt(await run(['kb3']))}`,
  );
  await storage.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

await latencyAndThroughput();
await knn(10_000);
await knn(100_000);
