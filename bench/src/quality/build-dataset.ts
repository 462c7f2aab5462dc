/**
 * Rebuilds bench/data/quality/parley-qa.json from bench/data/quality/source/*.txt and checks
 * it: `tsx bench/src/quality/build-dataset.ts` (add `--check` to only compare with the file).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../../../server/src/paths.js';
import { parseSource, readSourceDir } from './dataset-source.js';
import { datasetCounts, validateSquad } from './squad.js';

export const QUALITY_DIR = path.join(REPO_ROOT, 'bench', 'data', 'quality');
export const DEFAULT_DATASET = path.join(QUALITY_DIR, 'parley-qa.json');
/** The public SQuAD 2.0 sample beside the checkout (../shared/data, see its README). */
export const SHARED_SAMPLE_FILE = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'squad2-sample.json');
export const PARAGRAPH_WORDS = { minWords: 60, maxWords: 200 };

export function buildDataset() {
  const { dataset, problems } = parseSource(readSourceDir(path.join(QUALITY_DIR, 'source')));
  const errors = [...problems.map((p) => `${p.file}:${p.line}: ${p.message}`), ...validateSquad(dataset, PARAGRAPH_WORDS)];
  return { dataset, errors };
}

/** Indented JSON, so a diff shows which question changed. */
export function serialize(dataset: unknown): string {
  return `${JSON.stringify(dataset, null, 1)}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { dataset, errors } = buildDataset();
  for (const e of errors) process.stderr.write(`${e}\n`);
  process.stdout.write(`${JSON.stringify(datasetCounts(dataset))}\n`);
  if (errors.length) process.exit(1);
  if (process.argv.includes('--check')) {
    const same = fs.existsSync(DEFAULT_DATASET) && fs.readFileSync(DEFAULT_DATASET, 'utf8') === serialize(dataset);
    process.stdout.write(same ? 'parley-qa.json is up to date\n' : 'parley-qa.json is stale: rebuild it\n');
    process.exit(same ? 0 : 1);
  }
  fs.writeFileSync(DEFAULT_DATASET, serialize(dataset));
  process.stdout.write(`wrote ${path.relative(REPO_ROOT, DEFAULT_DATASET)}\n`);
}
