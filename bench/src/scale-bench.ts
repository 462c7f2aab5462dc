/**
 * Knowledge at scale (issue 6): ingestion speed of markdown, database size, and question
 * latency at growing chunk counts, for both retrieval engines measured in the same process on
 * the same database: SQLite FTS5 (the durable index) and the in-memory MaxScore replica that
 * answers questions by default.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRetriever, type Retriever } from '../../server/src/knowledge/retrieval.js';
import { seedCorpusDb } from './seed-corpus.js';
import { round, summarize } from './stats.js';

export interface ScaleResult {
  chunks: number;
  ingest: { megabytes: number; seconds: number; megabytesPerSecond: number };
  databaseMegabytes: number;
  fts: { p50: number; p99: number; mean: number; n: number };
  memory: { buildSeconds: number; megabytes: number | null; p50: number; p99: number; mean: number; n: number };
  /** FTS5 p50 / memory p50: how many times faster the memory engine answers. */
  speedup: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
const usedBytes = (): number => {
  gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

async function latency(retriever: Retriever, kbId: string, questions: string[], rounds: number) {
  const kbs = [{ id: kbId, priority: 5 }];
  for (const q of questions.slice(0, 20)) await retriever.retrieve(q, kbs, 6);
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of questions) {
      const t0 = performance.now();
      await retriever.retrieve(q, kbs, 6);
      samples.push(performance.now() - t0);
    }
  }
  return summarize(samples);
}

async function untilMemory(retriever: Retriever): Promise<void> {
  retriever.warmUp();
  while (retriever.engine() !== 'memory') await new Promise((r) => setTimeout(r, 20));
}

/**
 * Ingestion one document per transaction, as `POST …/documents` stores each upload: every
 * commit flushes a small FTS5 segment, so this is slower than the batched figure. `runs` fresh
 * databases, one after the other; the figure is their median (one run moves by ±10 % on a busy
 * machine).
 */
export async function runPerDocumentIngest(
  file: string,
  chunks: number,
  runs = 3,
): Promise<{ chunks: number; megabytesPerSecond: number; runs: number[] }> {
  const speeds: number[] = [];
  let count = 0;
  for (let i = 0; i < runs; i++) {
    const seeded = await seedCorpusDb(file, chunks, { documentsPerTransaction: 1 });
    count = (seeded.db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
    seeded.db.close();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    speeds.push(round(seeded.bytes / 1e6 / seeded.seconds, 2));
  }
  const sorted = [...speeds].sort((a, b) => a - b);
  return { chunks: count, megabytesPerSecond: sorted[Math.floor((sorted.length - 1) / 2)] as number, runs: speeds };
}

export async function runScaleBench(opts: { dir: string; sizes: number[] }): Promise<ScaleResult[]> {
  const out: ScaleResult[] = [];
  for (const chunks of opts.sizes) {
    const file = path.join(opts.dir, `scale-${chunks}.db`);
    const seeded = await seedCorpusDb(file, chunks);
    seeded.db.pragma('wal_checkpoint(TRUNCATE)');
    const databaseMegabytes = round(fs.statSync(file).size / 1e6, 1);
    const actual = (seeded.db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
    const rounds = chunks >= 1_000_000 ? 2 : 3;
    const fts = await latency(
      createRetriever(seeded.storage, { memoryIndexMaxChunks: 0 }),
      seeded.knowledgeBaseId,
      seeded.questions,
      rounds,
    );
    const before = usedBytes();
    const t0 = performance.now();
    const memoryRetriever = createRetriever(seeded.storage, { memoryIndexMaxChunks: Number.MAX_SAFE_INTEGER });
    await untilMemory(memoryRetriever);
    const buildSeconds = round((performance.now() - t0) / 1000, 2);
    const megabytes = gc ? round((usedBytes() - before) / 1e6, 1) : null;
    const memory = await latency(memoryRetriever, seeded.knowledgeBaseId, seeded.questions, rounds);
    out.push({
      chunks: actual,
      ingest: {
        megabytes: round(seeded.bytes / 1e6, 1),
        seconds: round(seeded.seconds, 2),
        megabytesPerSecond: round(seeded.bytes / 1e6 / seeded.seconds, 2),
      },
      databaseMegabytes,
      fts,
      memory: { buildSeconds, megabytes, ...memory },
      speedup: round(fts.p50 / memory.p50, 1),
    });
    seeded.db.close();
    fs.rmSync(file, { force: true });
  }
  return out;
}

export function scaleRows(results: ScaleResult[]): [string, string, string][] {
  return results.flatMap((r): [string, string, string][] => [
    [
      `ingest markdown → ${r.chunks} chunks`,
      `${r.ingest.megabytesPerSecond} MB/s`,
      `${r.ingest.megabytes} MB in ${r.ingest.seconds} s; database ${r.databaseMegabytes} MB; target ≥ 5 MB/s`,
    ],
    [
      `question, ${r.chunks} chunks (memory index, default)`,
      `p50 ${r.memory.p50} ms`,
      `p99 ${r.memory.p99} ms (n=${r.memory.n}); built in ${r.memory.buildSeconds} s${r.memory.megabytes === null ? '' : `, ${r.memory.megabytes} MB`}; target p99 < 50 ms`,
    ],
    [
      `question, ${r.chunks} chunks (FTS5 only)`,
      `p50 ${r.fts.p50} ms`,
      `p99 ${r.fts.p99} ms (n=${r.fts.n}); memory index ${r.speedup}× faster at p50`,
    ],
  ]);
}
