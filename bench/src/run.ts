/**
 * `npm run bench`: figures for the server core (issue 2), knowledge at scale (issue 6) and the rest. Prints a markdown table and JSON,
 * and writes bench/results/latest.json. Ratios compare against a baseline measured in the same
 * run, so noisy machines still give comparable numbers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../server/src/paths.js';
import { runHttpBench } from './http-bench.js';
import { runTtftBench } from './ttft-bench.js';
import { runWebhookBench, webhookRows } from './webhook-bench.js';
import { runWidgetBench } from './widget-bench.js';
import { runDashboardBench } from './dashboard-bench.js';
import { runPerDocumentIngest, runScaleBench, scaleRows } from './scale-bench.js';
import { qualityRows, runQualityBench } from './quality/harness.js';
import { analyticsRows, runAnalyticsBench } from './analytics-bench.js';
import { runScaleOutBench, scaleOutRows } from './scale-out-bench.js';
import { round } from './stats.js';

const quick = process.argv.includes('--quick');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
const results: Record<string, unknown> = { machine: { cpus: os.cpus().length, node: process.version }, startedAt: new Date().toISOString() };
const rows: [string, string, string][] = [];

const http = await runHttpBench({ chunks: 10_000, file: path.join(dir, 'http-10k.db'), duration: quick ? 3 : 6, rounds: quick ? 1 : 5 });
results.http = http;
rows.push(
  ['bare Express JSON POST (baseline)', `${http.bare.requestsPerSecond} req/s`, `p50 ${http.bare.p50Ms} ms, p99 ${http.bare.p99Ms} ms`],
  [`chat, ${http.chunks} chunks`, `${http.chat.requestsPerSecond} req/s`, `p50 ${http.chat.p50Ms} ms, p99 ${http.chat.p99Ms} ms, non-2xx ${http.chat.non2xx}`],
  ['chat / bare throughput', `${round(http.ratio * 100, 1)} %`, `median of ${http.ratios.length} alternating pairs (${http.ratios.map((r) => `${round(r * 100, 1)} %`).join(', ')}); target ≥ 25 %`],
);

// Scale-out (issue 15): chat on PostgreSQL, one instance and two behind nginx, against SQLite in the same run.
const scaleOut = await runScaleOutBench({ dir: path.join(dir, 'scale-out'), chunks: 10_000, duration: quick ? 3 : 6, rounds: quick ? 1 : 3 });
results.scaleOut = scaleOut;
rows.push(...scaleOutRows(scaleOut));

// Knowledge at scale: ingestion, database size, both retrieval engines (issue 6).
const scale = await runScaleBench({ dir, sizes: quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000] });
const perDocument = await runPerDocumentIngest(path.join(dir, 'one-by-one.db'), 10_000);
results.scale = { sizes: scale, perDocument };
rows.push(...scaleRows(scale), [`ingest markdown, one document per transaction → ${perDocument.chunks} chunks`, `${perDocument.megabytesPerSecond} MB/s`, 'what POST …/documents does per upload: each commit flushes a small FTS5 segment']);

const webhooks = await runWebhookBench({ dir, quick });
results.webhooks = webhooks;
rows.push(...webhookRows(webhooks));

for (const chunks of quick ? [10_000] : [200, 10_000]) {
  const ttft = await runTtftBench({ chunks, file: path.join(dir, `ttft-${chunks}.db`), requests: quick ? 150 : 400 });
  results[`ttft_${chunks}`] = ttft;
  rows.push([`time to first token added by the server, ${chunks} chunks`, `p50 ${ttft.addedMs.p50} ms`, `p99 ${ttft.addedMs.p99} ms (n=${ttft.addedMs.n}; before provider p50 ${ttft.beforeProviderMs.p50} ms, relay p50 ${ttft.relayMs.p50} ms); target p50 < 5 ms`]);
}

// Analytics time series over 90 days (issue 13): rollups kept by triggers, target < 200 ms at 1M messages.
const analytics = await runAnalyticsBench({ dir, messages: quick ? 100_000 : 1_000_000 });
results.analytics = analytics;
rows.push(...analyticsRows(analytics));

const widget = await runWidgetBench(quick ? 5 : 15);
results.widget = widget;
rows.push(['widget.js gzip', `${widget.size.gzipBytes} B`, `budget ${widget.size.budgetGzipBytes} B; raw ${widget.size.bytes} B`]);
if (widget.launcherVisibleMs) rows.push(['widget: script load → launcher visible', `p50 ${widget.launcherVisibleMs.p50} ms`, `p99 ${widget.launcherVisibleMs.p99} ms (n=${widget.launcherVisibleMs.n}, Chromium, demo page)`]);

const dashboard = await runDashboardBench(quick ? 5 : 15);
results.dashboard = dashboard;
if (dashboard.sizes) {
  const { firstLoadGzipBytes, budgetFirstLoadBytes, largestChunk, budgetChunkBytes } = dashboard.sizes;
  rows.push(['dashboard first load (JS gzip)', `${firstLoadGzipBytes} B`, `budget ${budgetFirstLoadBytes} B`]);
  if (largestChunk) rows.push(['dashboard largest lazy chunk (JS gzip)', `${largestChunk.gzipBytes} B`, `${largestChunk.file}; budget ${budgetChunkBytes} B each`]);
}
if (dashboard.interactiveMs) rows.push(['dashboard: navigation → first screen interactive', `p50 ${dashboard.interactiveMs.p50} ms`, `p99 ${dashboard.interactiveMs.p99} ms (n=${dashboard.interactiveMs.n}, signed in, cold cache, Chromium); target < 300 ms`]);

// Retrieval and answer quality on a labelled SQuAD v2 set, beside MiniSearch and Orama.
const quality = await runQualityBench({ repeats: quick ? 1 : 3 });
results.quality = quality;
rows.push(...qualityRows(quality));

const table = ['| measure | value | detail |', '|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
process.stdout.write(`\n${table}\n\n${JSON.stringify(results, null, 2)}\n`);
fs.mkdirSync(path.join(REPO_ROOT, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(REPO_ROOT, 'bench', 'results', 'latest.json'), JSON.stringify(results, null, 2));
fs.rmSync(dir, { recursive: true, force: true });
