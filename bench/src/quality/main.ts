/**
 * `npm run bench:quality -- [file.json] [--quick]`: the quality section alone, on any SQuAD v2
 * file (default bench/data/quality/parley-qa.json). Prints the table and the JSON, and writes
 * bench/results/quality.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../../server/src/paths.js';
import { qualityRows, runQualityBench } from './harness.js';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const result = await runQualityBench({ file, repeats: args.includes('--quick') ? 1 : 3 });
const table = ['| measure | value | detail |', '|---|---|---|', ...qualityRows(result).map((r) => `| ${r.join(' | ')} |`)].join('\n');
process.stdout.write(`\n${table}\n\n${JSON.stringify(result, null, 2)}\n`);
fs.mkdirSync(path.join(REPO_ROOT, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(REPO_ROOT, 'bench', 'results', 'quality.json'), JSON.stringify(result, null, 2));
