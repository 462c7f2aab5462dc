/**
 * `npm run bench:http`: only the chat / bare-Express throughput pairs of `npm run bench`
 * (bench/src/http-bench.ts), so a change on the chat path can be judged in about a minute and a
 * half instead of the whole bench. Five alternating pairs, the median ratio, and the server's CPU
 * time per chat request (process.cpuUsage of the serve process around each chat window), which
 * the load on a shared machine disturbs much less than throughput.
 * Options: --rounds N (default 5), --duration S (default 6), --chunks N (default 10000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readOption } from './cli-options.js';
import { runHttpBench } from './http-bench.js';
import { round } from './stats.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-http-'));
try {
  const http = await runHttpBench({
    chunks: readOption('chunks', 10_000),
    file: path.join(dir, 'http.db'),
    duration: readOption('duration', 6),
    rounds: readOption('rounds', 5),
  });
  const pct = (r: number) => `${round(r * 100, 1)} %`;
  process.stdout.write(
    [
      `| measure | value | detail |`,
      `|---|---|---|`,
      `| bare Express JSON POST | ${http.bare.requestsPerSecond} req/s | p50 ${http.bare.p50Ms} ms, p99 ${http.bare.p99Ms} ms |`,
      `| chat, ${http.chunks} chunks | ${http.chat.requestsPerSecond} req/s | p50 ${http.chat.p50Ms} ms, p99 ${http.chat.p99Ms} ms, non-2xx ${http.chat.non2xx} |`,
      `| chat / bare throughput | ${pct(http.ratio)} | median of ${http.ratios.length} pairs (${http.ratios.map(pct).join(', ')}); target ≥ 25 % |`,
      `| server CPU per chat | ${http.chatCpuUs.median} µs | per pair: ${http.chatCpuUs.perRound.join(', ')} µs |`,
      `| server CPU per bare POST | ${http.bareCpuUs.median} µs | per pair: ${http.bareCpuUs.perRound.join(', ')} µs |`,
    ].join('\n') + '\n',
  );
  process.stdout.write(JSON.stringify(http) + '\n');
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
