/**
 * `tsx bench/src/quality/tune-rerank.ts [file.json]`: the rerank weights (server/src/knowledge/
 * rerank.ts) on a grid, scored on the TUNING articles only (the held-out half is never read):
 * paragraph recall@1 / @5 and MRR, beside plain BM25 order. The shipped RERANK_WEIGHTS are the
 * middle of the best recall@1 plateau here (0.787–0.791 for sentence 1–2, bigram 0.2–0.6 on the
 * shared sample), with the best recall@5 of it; plain BM25 order: recall@1 0.761, @5 0.927.
 */
import fs from 'node:fs';
import { createRetriever } from '../../../server/src/knowledge/retrieval.js';
import type { RerankWeights } from '../../../server/src/knowledge/rerank.js';
import { openQualityCorpus } from './harness.js';
import { SHARED_SAMPLE_FILE } from './build-dataset.js';
import { meanReciprocalRank, rankOf, recallAt } from './metrics.js';

const file = process.argv[2] ?? SHARED_SAMPLE_FILE;
if (!fs.existsSync(file)) throw new Error(`${file} not found`);
const corpus = await openQualityCorpus(file);
const tuning = corpus.questions.filter((q) => q.answerable && corpus.halfOf(q) === 'tuning');
const grid: (RerankWeights | false)[] = [false];
for (const sentence of [0, 0.5, 1, 1.5, 2, 3])
  for (const bigram of [0, 0.2, 0.4, 0.6]) if (sentence || bigram) grid.push({ sentence, bigram });
for (const depth of [8, 10, 15, 30]) grid.push({ sentence: 1.5, bigram: 0.4, depth });
const rows: string[] = [];
for (const weights of grid) {
  const retriever = createRetriever(corpus.storage, { rerank: weights });
  const ranks: (number | null)[] = [];
  for (const q of tuning)
    ranks.push(rankOf(corpus.paragraphsOf(await retriever.retrieve(q.question, corpus.kbs, 5)).slice(0, 5), q.paragraph));
  rows.push(
    `| ${weights ? `${weights.sentence} / ${weights.bigram}${weights.depth ? ` (depth ${weights.depth})` : ''}` : 'plain BM25'} | ${recallAt(ranks, 1).toFixed(3)} | ${recallAt(ranks, 5).toFixed(3)} | ${meanReciprocalRank(ranks).toFixed(3)} |`,
  );
}
process.stdout.write(
  `tuning articles, ${tuning.length} answerable questions\n| sentence / bigram | recall@1 | recall@5 | MRR |\n|---|---|---|---|\n${rows.join('\n')}\n`,
);
corpus.close();
