/**
 * `tsx bench/src/quality/tune-answer.ts [file.json]`: the extractive answerer's sentence weights
 * (server/src/answer/extractive.ts WEIGHTS) on a grid, on the TUNING articles only: share of
 * answerable questions whose answer holds a gold span (threshold 0) and mean answer length,
 * through the retriever and composeExtractiveAnswer as the chat service calls them.
 */
import fs from 'node:fs';
import { toPassages } from '../../../server/src/chat/passages.js';
import { composeExtractiveAnswer, FACTOID, type Passage } from '../../../server/src/answer/extractive.js';
import { WEIGHTS } from '../../../server/src/answer/sentence-scoring.js';
import { openQualityCorpus } from './harness.js';
import { SHARED_SAMPLE_FILE } from './build-dataset.js';
import { containsSpan } from './metrics.js';

const file = process.argv[2] ?? SHARED_SAMPLE_FILE;
if (!fs.existsSync(file)) throw new Error(`${file} not found`);
const corpus = await openQualityCorpus(file);
const tuning = corpus.questions.filter((q) => q.answerable && corpus.halfOf(q) === 'tuning');
const passagesOf = await Promise.all(
  tuning.map(async (q) => {
    const chunks = await corpus.retriever.retrieve(q.question, corpus.kbs, 6);
    return toPassages(chunks);
  }),
);
const base = { ...WEIGHTS, ...FACTOID };
const variants: Partial<typeof base>[] = [{}];
for (const antecedent of [true, false])
  for (const second of [0.5, 0.7, 2]) for (const pairChars of [200, 250, 300]) variants.push({ antecedent, second, pairChars });
process.stdout.write(`tuning articles, ${tuning.length} answerable questions\n| weights | gold span | mean chars |\n|---|---|---|\n`);
for (const v of variants) {
  Object.assign(WEIGHTS, base, v);
  Object.assign(FACTOID, base, v);
  let right = 0;
  let chars = 0;
  tuning.forEach((q, i) => {
    const a = composeExtractiveAnswer(q.question, passagesOf[i] as Passage[], { maxLength: 1000 });
    if (containsSpan(a.text, q.answers)) right++;
    chars += a.text.length;
  });
  process.stdout.write(`| ${JSON.stringify(v)} | ${(right / tuning.length).toFixed(3)} | ${(chars / tuning.length).toFixed(0)} |\n`);
}
corpus.close();
