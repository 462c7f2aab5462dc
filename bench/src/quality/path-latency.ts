/**
 * `tsx bench/src/quality/path-latency.ts [chunks=10000] [--plain]`: the whole extractive question
 * path as the chat service runs it (retrieval of six passages, the extractive answer, its
 * confidence) on the synthetic corpus of `npm run bench` (seed-corpus.ts), p50/p99 per question
 * after a warm-up, in memory and on FTS5. `--plain` turns the rerank off for comparison.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { estimateConfidence } from '../../../server/src/answer/confidence.js';
import { toPassages } from '../../../server/src/chat/passages.js';
import { createExtractiveProvider } from '../../../server/src/answer/providers/extractive.js';
import type { AnswerRequest } from '../../../server/src/answer/providers/types.js';
import { createRetriever } from '../../../server/src/knowledge/retrieval.js';
import { seedCorpusDb } from '../seed-corpus.js';
import { summarize } from '../stats.js';

const chunks = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 10_000);
const plain = process.argv.includes('--plain');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-path-'));
const seeded = await seedCorpusDb(path.join(dir, 'path.db'), chunks);
const kbs = [{ id: seeded.knowledgeBaseId, priority: 5 }];
const provider = createExtractiveProvider();

const parts = { retrieve: [] as number[], answer: [] as number[], confidence: [] as number[] };
async function ask(retriever: ReturnType<typeof createRetriever>, question: string): Promise<void> {
  const t0 = performance.now();
  const hits = await retriever.retrieve(question, kbs, 6);
  const t1 = performance.now();
  const passages = toPassages(hits);
  const request = {
    question,
    passages,
    history: [],
    systemPrompt: '',
    variables: {},
    language: 'en',
    maxResponseLength: 2000,
    model: { provider: 'extractive' },
  } as unknown as AnswerRequest;
  let text = '';
  let coverage: number | null = null;
  for await (const e of provider.answer(request, {})) {
    if (e.type === 'delta') text += e.text;
    else coverage = e.coverage ?? null;
  }
  const t2 = performance.now();
  if (text) estimateConfidence(question, passages, coverage);
  parts.retrieve.push(t1 - t0);
  parts.answer.push(t2 - t1);
  parts.confidence.push(performance.now() - t2);
}

const result: Record<string, unknown> = { chunks, rerank: !plain, questions: seeded.questions.length };
for (const engine of ['memory', 'fts'] as const) {
  const retriever = createRetriever(seeded.storage, {
    memoryIndexMaxChunks: engine === 'fts' ? 0 : Number.MAX_SAFE_INTEGER,
    ...(plain && { rerank: false }),
  });
  if (engine === 'memory') {
    retriever.warmUp();
    while (retriever.engine() !== 'memory') await new Promise((r) => setTimeout(r, 20));
  }
  for (const q of seeded.questions) await ask(retriever, q); // warm-up
  for (const k of Object.keys(parts) as (keyof typeof parts)[]) parts[k] = [];
  const samples: number[] = [];
  for (let r = 0; r < 3; r++) {
    for (const q of seeded.questions) {
      const t0 = performance.now();
      await ask(retriever, q);
      samples.push(performance.now() - t0);
    }
  }
  result[engine] = { ...summarize(samples), parts: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, summarize(v)])) };
}
process.stdout.write(`${JSON.stringify(result)}\n`);
seeded.db.close();
fs.rmSync(dir, { recursive: true, force: true });
