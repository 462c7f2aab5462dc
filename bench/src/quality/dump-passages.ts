/**
 * `tsx bench/src/quality/dump-passages.ts [file.json] out.json`: the six passages the chat
 * service hands the answerer for every TUNING question (retriever as the server runs it, scores
 * relative to the best), written once so answer and confidence changes can be measured in
 * seconds (explore.ts) without rebuilding the corpus. Held-out questions are not written.
 */
import fs from 'node:fs';
import { toPassages } from '../../../server/src/chat/passages.js';
import { SHARED_SAMPLE_FILE } from './build-dataset.js';
import { openQualityCorpus } from './harness.js';

const [fileArg, outArg] = process.argv.slice(2);
const file = outArg ? (fileArg as string) : SHARED_SAMPLE_FILE;
const out = outArg ?? fileArg ?? '/tmp/parley-tuning-passages.json';
const corpus = await openQualityCorpus(file);
const rows = await Promise.all(
  corpus.questions
    .filter((q) => corpus.halfOf(q) === 'tuning')
    .map(async (q) => {
      const chunks = await corpus.retriever.retrieve(q.question, corpus.kbs, 6);
      const passages = toPassages(chunks);
      return { ...q, goldTop: corpus.paragraphsOf(chunks)[0] === q.paragraph, passages };
    }),
);
fs.writeFileSync(out, JSON.stringify(rows));
process.stdout.write(`${rows.length} tuning questions → ${out}\n`);
corpus.close();
