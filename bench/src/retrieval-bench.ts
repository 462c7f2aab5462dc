import { createRetriever } from '../../server/src/knowledge/retrieval.js';
import type { Db } from '../../server/src/db/open.js';
import { summarize } from './stats.js';

/** Retrieval latency over a seeded base: every question several times, warm cache. */
export function runRetrievalBench(db: Db, knowledgeBaseId: string, questions: string[], rounds = 3) {
  const retriever = createRetriever(db);
  const kbs = [{ id: knowledgeBaseId, priority: 5 }];
  for (const q of questions.slice(0, 20)) retriever.retrieve(q, kbs, 6); // warm-up
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of questions) {
      const t0 = performance.now();
      retriever.retrieve(q, kbs, 6);
      samples.push(performance.now() - t0);
    }
  }
  return summarize(samples);
}
