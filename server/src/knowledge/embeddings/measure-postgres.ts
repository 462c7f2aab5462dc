/**
 * One-off measurements for dense retrieval on PostgreSQL (not a test):
 * `npx tsx server/src/knowledge/embeddings/measure-postgres.ts` (PostgreSQL on loopback, as the tests).
 *
 * For 10k vectors of 384 and 768 dimensions: the in-memory index's search time (k = 20, p50/p95
 * over 200 random questions; one base holding them all, and one base of ten), the bytes it
 * holds, and the time an instance takes to load them from PostgreSQL at start (replica.ts),
 * plus search at 100k × 384 and the load time at 50k × 768.
 */
import { freshPostgresStorage } from '../../../test/postgres.js';
import { systemClock } from '../../lib/clock.js';
import { createLogger } from '../../lib/logger.js';
import { createKnowledgeStore } from '../store.js';
import { createMemoryVectors } from './memory-vectors.js';
import { createPostgresVectorStore } from './postgres-store.js';
import { bytesOf } from './postgres-vector-sql.js';
import { createVectorReplica } from './replica.js';

const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const fmt = (xs: number[]): string => `p50 ${pct(xs, 50).toFixed(2)} ms, p95 ${pct(xs, 95).toFixed(2)} ms`;
const randomVector = (d: number): Float32Array => Float32Array.from({ length: d }, () => Math.random() - 0.5);

function searchTimes(n: number, d: number, bases: number): { times: number[]; bytes: number; heapMb: number } {
  const before = process.memoryUsage();
  const index = createMemoryVectors(d);
  for (let i = 1; i <= n; i++) index.upsert(i, `kb_${i % bases}`, randomVector(d));
  const after = process.memoryUsage();
  const queries = Array.from({ length: 220 }, () => randomVector(d));
  const times: number[] = [];
  queries.forEach((q, i) => {
    const t = performance.now();
    index.search(q, ['kb_0'], 20);
    if (i >= 20) times.push(performance.now() - t); // the first 20 warm the JIT
  });
  return { times, bytes: index.bytes, heapMb: (after.arrayBuffers + after.heapUsed - before.arrayBuffers - before.heapUsed) / 1e6 };
}

async function loadTime(n: number, d: number): Promise<void> {
  const pg = await freshPostgresStorage();
  const storage = pg.storage;
  try {
    const at = new Date().toISOString();
    await storage.run("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_m', 'M', 'free', ?)", [at]);
    const store = createKnowledgeStore(storage);
    const kb = await store.createKb('org_m', { name: 'Measure', description: null }, at);
    const doc = await store.addDocument(kb.id, { title: 'Seed', content: 'seed', format: 'markdown', url: null }, at);
    await storage.run(
      `INSERT INTO chunks (document_id, knowledge_base_id, ordinal, title, headings, body)
      SELECT ?, ?, g, 'Chunk', '', 'body ' || g FROM generate_series(1, ?) AS g`,
      [doc.id, kb.id, n],
    );
    const ids = (await storage.all<{ id: number }>('SELECT id FROM chunks ORDER BY id')).map((r) => r.id);
    const vectors = createPostgresVectorStore(storage, { identity: { model: 'm', dimensions: null }, clock: systemClock, leaseMs: 60_000 });
    await vectors.open();
    await vectors.backlog.create(d);
    const gen = vectors.generation as number;
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      await storage.run(
        `INSERT INTO chunk_dense_vectors (chunk_id, knowledge_base_id, generation, vector) VALUES ${part.map(() => '(?, ?, ?, ?)').join(', ')}`,
        part.flatMap((id) => [id, kb.id, gen, bytesOf(randomVector(d))]),
      );
    }
    const replica = createVectorReplica(storage, vectors, { pollMs: 60_000, logger: createLogger('silent') });
    const t = performance.now();
    await replica.settled();
    const ms = performance.now() - t;
    console.log(
      `  load from PostgreSQL at start: ${replica.size} × ${d} in ${ms.toFixed(0)} ms (${(replica.bytes / 1e6).toFixed(1)} MB held)`,
    );
    replica.stop();
  } finally {
    await pg.drop();
  }
}

async function main(): Promise<void> {
  for (const d of [384, 768]) {
    console.log(`10,000 vectors × ${d}:`);
    const one = searchTimes(10_000, d, 1);
    console.log(
      `  search k=20, one base of 10k:         ${fmt(one.times)}; index ${(one.bytes / 1e6).toFixed(1)} MB (capacity), heap+buffers +${one.heapMb.toFixed(1)} MB`,
    );
    const ten = searchTimes(10_000, d, 10);
    console.log(`  search k=20, one base of ten (1k):    ${fmt(ten.times)}`);
    await loadTime(10_000, d);
  }
  const big = searchTimes(100_000, 384, 1);
  console.log(`100,000 vectors × 384, one base: search ${fmt(big.times)}; index ${(big.bytes / 1e6).toFixed(1)} MB`);
  await loadTime(50_000, 768);
}

await main();
