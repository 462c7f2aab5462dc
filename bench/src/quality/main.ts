/**
 * `npm run bench:quality -- [file.json] [--engines] [--quick] [--tuning-only] [--languages-only] [--no-languages]
 * [--languages=en,de] [--no-faq]`: first the help centers of ../shared/data/faq (faq-harness.ts: tuning and
 * held-out products, a few seconds); then XQuAD's 12 languages (languages.ts) when ../shared/data/xquad is
 * there; then retrieval, answer and confidence quality on any SQuAD v2 file (default: the public sample
 * ../shared/data/squad2-sample.json when present, else bench/data/quality/parley-qa.json), tuning and
 * held-out articles side by side. Prints the tables and the JSON, and writes bench/results/quality.json
 * (and quality-faq.json, quality-languages.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../../server/src/paths.js';
import { DEFAULT_DATASET, SHARED_SAMPLE_FILE as SHARED_SAMPLE } from './build-dataset.js';
import { qualityHalfRows, qualityRows, runQualityBench } from './harness.js';
import { runFaqBench, SHARED_FAQ_DIR } from './faq-harness.js';
import { faqReport, writeFaqResult } from './faq-report.js';
import { languageTable, runLanguages, XQUAD_DIR, xquadFiles } from './languages.js';

const args = process.argv.slice(2);
if (!args.includes('--no-faq') && !args.includes('--languages-only') && fs.existsSync(SHARED_FAQ_DIR)) {
  const faq = await runFaqBench();
  process.stdout.write(faqReport(faq, args.includes('--tuning-only')));
  writeFaqResult(faq, args.includes('--tuning-only'));
}
const languagesOnly = args.includes('--languages-only');
if (!args.includes('--no-languages')) {
  const only = args
    .find((a) => a.startsWith('--languages='))
    ?.slice('--languages='.length)
    .split(',');
  const files = xquadFiles().filter((f) => !only || only.includes(f.language));
  if (files.length) {
    const results = await runLanguages(files);
    const tuning = languageTable(results, 'tuning');
    const heldOut = args.includes('--tuning-only') ? '' : `\n\n${languageTable(results, 'heldOut')}`;
    const ingest = results.map((r) => `${r.language} ${r.ingestMBps}`).join(', ');
    process.stdout.write(
      `\nXQuAD per language (${XQUAD_DIR})\n\n${tuning}${heldOut}\n\ningestion with detection and analysis (MB/s): ${ingest}\n`,
    );
    fs.mkdirSync(path.join(REPO_ROOT, 'bench', 'results'), { recursive: true });
    const shown = args.includes('--tuning-only') ? results.map((r) => ({ ...r, heldOut: null })) : results;
    fs.writeFileSync(path.join(REPO_ROOT, 'bench', 'results', 'quality-languages.json'), JSON.stringify(shown, null, 2));
  }
}
if (languagesOnly) process.exit(0);
const file =
  args.find((a) => !a.startsWith('--')) ??
  process.env.PARLEY_QUALITY_FILE ??
  (fs.existsSync(SHARED_SAMPLE) ? SHARED_SAMPLE : DEFAULT_DATASET);
const result = await runQualityBench({ file, repeats: args.includes('--quick') ? 1 : 3, engines: args.includes('--engines') });
// While tuning, `--tuning-only` keeps the held-out figures out of sight (and out of the file).
const tuningOnly = args.includes('--tuning-only');
const table = tuningOnly
  ? ['| measure | tuning |', '|---|---|', ...qualityHalfRows(result).map((r) => `| ${r[0]} | ${r[1]} |`)].join('\n')
  : ['| measure | tuning | held-out |', '|---|---|---|', ...qualityHalfRows(result).map((r) => `| ${r.join(' | ')} |`)].join('\n');
const shown = tuningOnly
  ? {
      ...result,
      heldOut: null,
      all: null,
      threshold: {
        ...result.threshold,
        sweep: { tuning: result.threshold.sweep.tuning },
        atDefault: { tuning: result.threshold.atDefault.tuning },
      },
    }
  : result;
// The fallback / gold-span trade-off lives in the threshold: the curve, half by half.
const pctOf = (x: number): string => `${(x * 100).toFixed(1)} %`;
const curveRow = (r: { threshold: number; recall: number; answerableFallback: number; unanswerableFallback: number }): string =>
  `${pctOf(r.recall)} / ${pctOf(r.answerableFallback)} / ${pctOf(r.unanswerableFallback)}`;
const curve = [
  `| threshold | tuning: gold span / answerable fallback / unanswerable fallback |${tuningOnly ? '' : ' held-out: the same |'}`,
  `|---|---|${tuningOnly ? '' : '---|'}`,
  ...result.threshold.sweep.tuning
    .filter((r) => r.threshold <= 0.6)
    .map((r, i) => {
      const h = result.threshold.sweep.heldOut[i];
      return `| ${r.threshold} | ${curveRow(r)} |${tuningOnly || !h ? '' : ` ${curveRow(h)} |`}`;
    }),
].join('\n');
const engines = [
  '| engine | value | detail |',
  '|---|---|---|',
  ...qualityRows(result)
    .slice(qualityHalfRows(result).length)
    .map((r) => `| ${r.join(' | ')} |`),
].join('\n');
process.stdout.write(
  `\n${result.dataset.file}: tuning ${result.dataset.halves.tuning.join(', ')}; held-out ${result.dataset.halves.heldOut.join(', ')}\n\n${table}\n\n${curve}\n\n${engines}\n\n${JSON.stringify(shown, null, 2)}\n`,
);
fs.mkdirSync(path.join(REPO_ROOT, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(REPO_ROOT, 'bench', 'results', 'quality.json'), JSON.stringify(shown, null, 2));
