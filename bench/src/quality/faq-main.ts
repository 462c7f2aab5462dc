/**
 * `npm run bench:faq -- [dir] [--tuning-only] [--misses]`: help-center quality (issue 26) on the
 * FAQ development set (default ../shared/data/faq), tuning and held-out products side by side,
 * with the targets. Prints the table and writes bench/results/quality-faq.json.
 * `--tuning-only` keeps held-out figures out of sight while tuning; `--misses` lists the tuning
 * half's wrong answers and fallbacks to read. `npm run bench:quality` prints the same table.
 */
import { faqTuningMisses, runFaqBench } from './faq-harness.js';
import { faqReport, writeFaqResult } from './faq-report.js';

const args = process.argv.slice(2);
const tuningOnly = args.includes('--tuning-only');
const result = await runFaqBench({ dir: args.find((a) => !a.startsWith('--')) });
process.stdout.write(faqReport(result, tuningOnly));
if (args.includes('--misses')) process.stdout.write(`${JSON.stringify(faqTuningMisses(result), null, 2)}\n`);
writeFaqResult(result, tuningOnly);
