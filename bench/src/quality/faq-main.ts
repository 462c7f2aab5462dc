/**
 * `npm run bench:faq -- [dir] [--tuning-only] [--misses]`: help-center quality (issue 26) on the
 * FAQ development set (default ../shared/data/faq), tuning and held-out products side by side,
 * with the targets. Prints the table and writes bench/results/quality-faq.json.
 * `--tuning-only` keeps held-out figures out of sight while tuning; `--misses` lists the tuning
 * half's wrong answers and fallbacks to read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../../server/src/paths.js';
import { faqRows } from './faq.js';
import { faqTuningMisses, runFaqBench } from './faq-harness.js';

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--'));
const tuningOnly = args.includes('--tuning-only');
const result = await runFaqBench({ dir });
const rows = faqRows(result.tuning, result.heldOut);
const table = tuningOnly
  ? ['| measure | tuning | target |', '|---|---|---|', ...rows.map((r) => `| ${r[0]} | ${r[1]} | ${r[3]} |`)]
  : ['| measure | tuning | held-out | target |', '|---|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)];
const perProduct = Object.entries(result.perProduct)
  .filter(([, s]) => !tuningOnly || s.half === 'tuning')
  .map(([p, s]) => `| ${p} (${s.half}) | ${s.right} | ${s.useful} | ${s.wrong} | ${s.fallbackUnanswerable} | ${s.aurocRightVsRest} | ${s.recallAt1} / ${s.recallAt5} |`);
process.stdout.write([
  `\n${result.dir}: tuning ${result.split.tuning.join(', ')}; held-out ${tuningOnly ? '(hidden)' : result.split.heldOut.join(', ')}\n`,
  ...table, '',
  '| product | right | useful | wrong | unanswerable fall back | AUROC | recall@1 / @5 |', '|---|---|---|---|---|---|---|', ...perProduct, '',
].join('\n'));
if (args.includes('--misses')) process.stdout.write(`${JSON.stringify(faqTuningMisses(result), null, 2)}\n`);
const shown = { ...result, judged: undefined, ...(tuningOnly && { heldOut: null, perProduct: Object.fromEntries(Object.entries(result.perProduct).filter(([, s]) => s.half === 'tuning')) }) };
fs.mkdirSync(path.join(REPO_ROOT, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(REPO_ROOT, 'bench', 'results', 'quality-faq.json'), JSON.stringify(shown, null, 2));
