/**
 * `npm run bench`: figures for the server core (issue 2), knowledge at scale (issue 6) and the rest.
 * Checks each section's prerequisites first (nginx, PostgreSQL, Redis for the scale-out section:
 * skipped with a line saying how to get them), prints each section's table rows as it finishes,
 * and writes bench/results/latest.json and latest.md after every section, so a failure leaves
 * what was measured before it (runner.ts). Ratios compare against a baseline measured in the same
 * run, so noisy machines still give comparable numbers.
 *
 * Options: --quick (short), --only a,b (just these sections), --skip a,b. About 20 minutes in full.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../server/src/paths.js';
import { runHttpBench } from './http-bench.js';
import { runTtftBench } from './ttft-bench.js';
import { runWebhookBench, webhookRows } from './webhook-bench.js';
import { runTemplateStallBench, templateStallRows } from './template-stall-bench.js';
import { runWidgetBench } from './widget-bench.js';
import { runDashboardBench } from './dashboard-bench.js';
import { runPerDocumentIngest, runScaleBench, scaleRows } from './scale-bench.js';
import { qualityRows, runQualityBench } from './quality/harness.js';
import { analyticsRows, runAnalyticsBench } from './analytics-bench.js';
import { runScaleOutBench, scaleOutRows } from './scale-out-bench.js';
import { nginx, postgres, redis } from './prerequisites.js';
import { runBench, saveInto, selectSections, type Row, type Section } from './runner.js';
import { round } from './stats.js';

const quick = process.argv.includes('--quick');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));

const sections: Section[] = [
  {
    name: 'http',
    title: 'chat against bare Express, alternating pairs (about 1½ min)',
    async run() {
      const http = await runHttpBench({
        chunks: 10_000,
        file: path.join(dir, 'http-10k.db'),
        duration: quick ? 3 : 6,
        rounds: quick ? 1 : 5,
      });
      const { bare, chat } = http;
      const pct = (r: number) => `${round(r * 100, 1)} %`;
      return {
        results: { http },
        rows: [
          ['bare Express JSON POST (baseline)', `${bare.requestsPerSecond} req/s`, `p50 ${bare.p50Ms} ms, p99 ${bare.p99Ms} ms`],
          [
            `chat, ${http.chunks} chunks`,
            `${chat.requestsPerSecond} req/s`,
            `p50 ${chat.p50Ms} ms, p99 ${chat.p99Ms} ms, non-2xx ${chat.non2xx}`,
          ],
          [
            'chat / bare throughput',
            pct(http.ratio),
            `median of ${http.ratios.length} alternating pairs (${http.ratios.map(pct).join(', ')}); target ≥ 25 %`,
          ],
        ],
      };
    },
  },
  {
    // Issue 15: chat on PostgreSQL, one instance and two behind nginx, against SQLite in the same run.
    name: 'scaleOut',
    title: 'chat on SQLite and PostgreSQL, direct and behind nginx (about 3 min)',
    needs: [nginx, postgres, redis],
    async run() {
      const scaleOut = await runScaleOutBench({
        dir: path.join(dir, 'scale-out'),
        chunks: 10_000,
        duration: quick ? 3 : 6,
        rounds: quick ? 1 : 3,
      });
      return { results: { scaleOut }, rows: scaleOutRows(scaleOut) };
    },
  },
  {
    // Issue 6: ingestion, database size, both retrieval engines; then one document per transaction.
    name: 'scale',
    title: quick
      ? 'knowledge at 10k and 100k chunks: ingestion and questions (about 1 min)'
      : 'knowledge at 10k, 100k and 1M chunks: ingestion and questions (about 6 min)',
    async run() {
      const scale = await runScaleBench({ dir, sizes: quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000] });
      const perDocument = await runPerDocumentIngest(path.join(dir, 'one-by-one.db'), 10_000);
      const { chunks, megabytesPerSecond, runs } = perDocument;
      const rows: Row[] = [
        ...scaleRows(scale),
        [
          `ingest markdown, one document per transaction → ${chunks} chunks`,
          `${megabytesPerSecond} MB/s`,
          `what POST …/documents does per upload (median of ${runs.length} runs: ${runs.join(', ')} MB/s); ` + 'target ≥ 5 MB/s',
        ],
      ];
      return { results: { scale: { sizes: scale, perDocument } }, rows };
    },
  },
  {
    name: 'webhooks',
    title: 'webhook deliveries and their cost on the chat path (about 1 min)',
    async run() {
      const webhooks = await runWebhookBench({ dir, quick });
      return { results: { webhooks }, rows: webhookRows(webhooks) };
    },
  },
  {
    // Issue 24: matching saved templates must not hold the event loop (also `npm run bench:templates`).
    name: 'templates',
    title: 'a /healthz during widget messages with worst-case templates (about 20 s)',
    async run() {
      const templates = await runTemplateStallBench(quick ? 8 : 20);
      return { results: { templates }, rows: templateStallRows(templates) };
    },
  },
  {
    name: 'ttft',
    title: 'time to first token added by the server (about 1 min)',
    async run() {
      const results: Record<string, unknown> = {};
      const rows: Row[] = [];
      for (const chunks of quick ? [10_000] : [200, 10_000]) {
        const file = path.join(dir, `ttft-${chunks}.db`);
        const ttft = await runTtftBench({ chunks, file, requests: quick ? 150 : 400 });
        results[`ttft_${chunks}`] = ttft;
        const { addedMs, beforeProviderMs, relayMs } = ttft;
        rows.push([
          `time to first token added by the server, ${chunks} chunks`,
          `p50 ${addedMs.p50} ms`,
          `p99 ${addedMs.p99} ms (n=${addedMs.n}; before provider p50 ${beforeProviderMs.p50} ms, ` +
            `relay p50 ${relayMs.p50} ms); target p50 < 5 ms`,
        ]);
      }
      return { results, rows };
    },
  },
  {
    // Issue 13: time series over 90 days from the rollups, target < 200 ms at 1M messages.
    name: 'analytics',
    title: `analytics over 90 days of ${quick ? '100k' : '1M'} messages (${quick ? 'about 30 s' : 'about 3 min'})`,
    async run() {
      const analytics = await runAnalyticsBench({ dir, messages: quick ? 100_000 : 1_000_000 });
      return { results: { analytics }, rows: analyticsRows(analytics) };
    },
  },
  {
    name: 'widget',
    title: 'widget size and time to launcher in Chromium (about 20 s)',
    async run() {
      const widget = await runWidgetBench(quick ? 5 : 15);
      const { size, launcherVisibleMs: visible } = widget;
      const rows: Row[] = [['widget.js gzip', `${size.gzipBytes} B`, `budget ${size.budgetGzipBytes} B; raw ${size.bytes} B`]];
      if (visible) {
        rows.push([
          'widget: script load → launcher visible',
          `p50 ${visible.p50} ms`,
          `p99 ${visible.p99} ms (n=${visible.n}, Chromium, demo page)`,
        ]);
      }
      return { results: { widget }, rows };
    },
  },
  {
    name: 'dashboard',
    title: 'dashboard bundle sizes and first screen in Chromium (about 30 s)',
    async run() {
      const dashboard = await runDashboardBench(quick ? 5 : 15);
      const rows: Row[] = [];
      if (dashboard.sizes) {
        const { firstLoadGzipBytes, budgetFirstLoadBytes, largestChunk, budgetChunkBytes } = dashboard.sizes;
        rows.push(['dashboard first load (JS gzip)', `${firstLoadGzipBytes} B`, `budget ${budgetFirstLoadBytes} B`]);
        if (largestChunk) {
          rows.push([
            'dashboard largest lazy chunk (JS gzip)',
            `${largestChunk.gzipBytes} B`,
            `${largestChunk.file}; budget ${budgetChunkBytes} B each`,
          ]);
        }
      }
      const interactive = dashboard.interactiveMs;
      if (interactive) {
        rows.push([
          'dashboard: navigation → first screen interactive',
          `p50 ${interactive.p50} ms`,
          `p99 ${interactive.p99} ms (n=${interactive.n}, signed in, cold cache, Chromium); target < 300 ms`,
        ]);
      }
      return { results: { dashboard }, rows };
    },
  },
  {
    // Retrieval and answer quality on a labelled SQuAD v2 set, beside MiniSearch and Orama.
    name: 'quality',
    title: 'retrieval and answer quality, beside MiniSearch and Orama (about 2 min)',
    async run() {
      const quality = await runQualityBench({ repeats: quick ? 1 : 3 });
      return { results: { quality }, rows: qualityRows(quality) };
    },
  },
];

const listOption = (name: string): string[] | null => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? null : (process.argv[i + 1] ?? '').split(',').filter(Boolean);
};

const resultsDir = path.join(REPO_ROOT, 'bench', 'results');
try {
  const chosen = selectSections(sections, { only: listOption('only'), skip: listOption('skip') });
  const machine = { cpus: os.cpus().length, node: process.version };
  const base = { machine, startedAt: new Date().toISOString(), quick };
  const print = (text: string) => {
    process.stdout.write(text);
  };
  const report = await runBench(chosen, base, { print, save: saveInto(resultsDir) });
  process.stdout.write(`Written: ${path.join(resultsDir, 'latest.json')} and latest.md\n`);
  process.exitCode = report.exitCode;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
