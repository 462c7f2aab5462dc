/**
 * The help-center figures as printed by `npm run bench:faq` and `npm run bench:quality`: the
 * issue's table (tuning and held-out products, targets) and one row per product, and the JSON
 * written to bench/results/quality-faq.json. `tuningOnly` keeps held-out figures out of sight.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../../server/src/paths.js';
import { faqRows } from './faq.js';
import type { FaqBenchResult } from './faq-harness.js';

export function faqReport(result: FaqBenchResult, tuningOnly: boolean): string {
  const rows = faqRows(result.tuning, result.heldOut);
  const table = tuningOnly
    ? ['| measure | tuning | target |', '|---|---|---|', ...rows.map((r) => `| ${r[0]} | ${r[1]} | ${r[3]} |`)]
    : ['| measure | tuning | held-out | target |', '|---|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)];
  const perProduct = Object.entries(result.perProduct)
    .filter(([, s]) => !tuningOnly || s.half === 'tuning')
    .map(
      ([p, s]) =>
        `| ${p} (${s.half}) | ${s.right} | ${s.useful} | ${s.wrong} | ${s.fallbackUnanswerable} | ${s.aurocRightVsRest} | ${s.recallAt1} / ${s.recallAt5} |`,
    );
  return [
    `\nHelp centers, ${result.dir}: tuning ${result.split.tuning.join(', ')}; held-out ${tuningOnly ? '(hidden)' : result.split.heldOut.join(', ')}\n`,
    ...table,
    '',
    '| product | right | useful | wrong | unanswerable fall back | AUROC | recall@1 / @5 |',
    '|---|---|---|---|---|---|---|',
    ...perProduct,
    '',
  ].join('\n');
}

export function writeFaqResult(result: FaqBenchResult, tuningOnly: boolean): void {
  const shown = {
    ...result,
    judged: undefined,
    ...(tuningOnly && {
      heldOut: null,
      perProduct: Object.fromEntries(Object.entries(result.perProduct).filter(([, s]) => s.half === 'tuning')),
    }),
  };
  fs.mkdirSync(path.join(REPO_ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(REPO_ROOT, 'bench', 'results', 'quality-faq.json'), JSON.stringify(shown, null, 2));
}
