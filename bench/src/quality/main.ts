/**
 * `npm run bench:quality -- [file.json] [--engines] [--quick] [--tuning-only]`: retrieval, answer and confidence
 * quality on any SQuAD v2 file (default: the public sample ../shared/data/squad2-sample.json when
 * present, else bench/data/quality/parley-qa.json), tuning and held-out articles side by side.
 * Prints the table and the JSON, and writes bench/results/quality.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../../server/src/paths.js';
import { DEFAULT_DATASET, SHARED_SAMPLE_FILE as SHARED_SAMPLE } from './build-dataset.js';
import { qualityHalfRows, qualityRows, runQualityBench } from './harness.js';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? process.env.PARLEY_QUALITY_FILE ?? (fs.existsSync(SHARED_SAMPLE) ? SHARED_SAMPLE : DEFAULT_DATASET);
const result = await runQualityBench({ file, repeats: args.includes('--quick') ? 1 : 3, engines: args.includes('--engines') });
// While tuning, `--tuning-only` keeps the held-out figures out of sight (and out of the file).
const tuningOnly = args.includes('--tuning-only');
const table = tuningOnly
  ? ['| measure | tuning |', '|---|---|', ...qualityHalfRows(result).map((r) => `| ${r[0]} | ${r[1]} |`)].join('\n')
  : ['| measure | tuning | held-out |', '|---|---|---|', ...qualityHalfRows(result).map((r) => `| ${r.join(' | ')} |`)].join('\n');
const shown = tuningOnly
  ? { ...result, heldOut: null, all: null, threshold: { ...result.threshold, sweep: { tuning: result.threshold.sweep.tuning }, atDefault: { tuning: result.threshold.atDefault.tuning } } }
  : result;
// The fallback / gold-span trade-off lives in the threshold: the curve, half by half.
const pctOf = (x: number): string => `${(x * 100).toFixed(1)} %`;
const curveRow = (r: { threshold: number; recall: number; answerableFallback: number; unanswerableFallback: number }): string => `${pctOf(r.recall)} / ${pctOf(r.answerableFallback)} / ${pctOf(r.unanswerableFallback)}`;
const curve = [
  `| threshold | tuning: gold span / answerable fallback / unanswerable fallback |${tuningOnly ? '' : ' held-out: the same |'}`,
  `|---|---|${tuningOnly ? '' : '---|'}`,
  ...result.threshold.sweep.tuning.filter((r) => r.threshold <= 0.6).map((r, i) => {
    const h = result.threshold.sweep.heldOut[i];
    return `| ${r.threshold} | ${curveRow(r)} |${tuningOnly || !h ? '' : ` ${curveRow(h)} |`}`;
  }),
].join('\n');
const engines = ['| engine | value | detail |', '|---|---|---|', ...qualityRows(result).slice(qualityHalfRows(result).length).map((r) => `| ${r.join(' | ')} |`)].join('\n');
process.stdout.write(`\n${result.dataset.file}: tuning ${result.dataset.halves.tuning.join(', ')}; held-out ${result.dataset.halves.heldOut.join(', ')}\n\n${table}\n\n${curve}\n\n${engines}\n\n${JSON.stringify(shown, null, 2)}\n`);
fs.mkdirSync(path.join(REPO_ROOT, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(REPO_ROOT, 'bench', 'results', 'quality.json'), JSON.stringify(shown, null, 2));
