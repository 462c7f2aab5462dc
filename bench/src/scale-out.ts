/**
 * `npm run bench:scale-out`: chat throughput on SQLite (one instance) against PostgreSQL with one
 * instance direct, one behind nginx and two behind nginx, in alternating rounds (issue 15); bare
 * Express for the ratio, as in `npm run bench:http`. Needs PostgreSQL on 127.0.0.1:5432 (trust,
 * user postgres; PARLEY_TEST_POSTGRES_URL names another), Redis (REDIS_TEST_URL, default
 * redis://127.0.0.1:6379) and Debian's nginx at /usr/sbin/nginx; starts and stops its own.
 * Options: --rounds N (default 3), --duration S (default 6), --chunks N (default 10000).
 * About 2½ minutes with the defaults.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readOption } from './cli-options.js';
import { runScaleOutBench, scaleOutRows } from './scale-out-bench.js';
import { requireNginx } from './scale-out-nginx.js';

requireNginx();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-scale-out-'));
try {
  const result = await runScaleOutBench({
    dir,
    chunks: readOption('chunks', 10_000),
    duration: readOption('duration', 6),
    rounds: readOption('rounds', 3),
  });
  const rows = scaleOutRows(result);
  process.stdout.write(
    [
      '| measure | value | detail |',
      '|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
      ...result.notes.map((n) => `- ${n}`),
      '',
    ].join('\n') + '\n',
  );
  process.stdout.write(JSON.stringify(result) + '\n');
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
