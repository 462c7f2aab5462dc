import { Counter, Gauge, Registry } from 'prom-client';
import type { Logger } from '../lib/logger.js';
import type { Queryable } from '../storage/port.js';
import { CounterFamily, HistogramFamily, type CounterSeries, type HistogramSeries } from './families.js';
import { processRegistry } from './process.js';

/** How a chat turn ended (docs/api-spec.md §12). */
export type ChatOutcome = 'answered' | 'fallback' | 'template' | 'handoff' | 'error';
/** The timed parts of a chat turn (docs/api-spec.md §12). */
export type ChatStage = 'retrieval' | 'answer' | 'model';

/**
 * Request latency bounds in seconds: finer than prom-client's defaults (5 ms … 10 s) at the low
 * end, where a chat turn lives (about 1-5 ms on SQLite), and up to 30 s, the model timeout's default.
 */
export const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Stage bounds: retrieval and extractive answers take well under a millisecond to tens of ms; a model seconds. */
export const STAGE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The ingest job kinds (`ingest_jobs.kind`): each always has a backlog series, 0 when empty. */
const JOB_KINDS = ['fetch', 'crawl'] as const;

const SQL = {
  // Served by the partial index webhook_deliveries_pending: it holds only pending rows.
  webhookBacklog: "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'",
  // Served by ingest_jobs_due (status, run_after).
  jobsBacklog: "SELECT kind, COUNT(*) AS n FROM ingest_jobs WHERE status = 'queued' GROUP BY kind",
};

/**
 * The server's Prometheus instruments (docs/api-spec.md §12), one set per app (context.ts): tests build
 * many apps in one process, so nothing here is global except Node's own process metrics
 * (process.ts). Counters are per instance; Prometheus sums instances. The two backlog gauges
 * are counted in the database at scrape time: on PostgreSQL every instance reports the
 * cluster's whole backlog (take `max`, not `sum`, across instances).
 */
export interface Metrics {
  /** Express route pattern → series; `route` is a pattern such as `/v1/assistants/:id`. */
  http: {
    requests: CounterFamily;
    duration: HistogramFamily;
  };
  chatTurn(channel: string, outcome: ChatOutcome): void;
  chatStage(stage: ChatStage, seconds: number): void;
  /** One request to a model provider (retries inside it included): `outcome` is `answered`, `declined` or the error code. */
  modelRequest(provider: string, outcome: string): void;
  /** One recorded webhook delivery attempt: `delivered`, `retry`, `failed`, `gone` or `lost` (webhooks/attempts.ts). */
  webhookDelivery(outcome: string): void;
  /** A request refused by a limit; `scope` names the limit (`credential`, `widget`, `auth`, `login-ip`…). */
  rateLimited(scope: string): void;
  /** The exposition text and its content type: the process's metrics, then the app's. */
  render(): Promise<{ contentType: string; text: string }>;
}

export function createMetrics(deps: { storage: Queryable; logger: Logger }): Metrics {
  const registry = new Registry();
  const requests = new CounterFamily('parley_http_requests_total', 'HTTP requests answered, by method, route pattern and status.', [
    'method',
    'route',
    'status',
  ]);
  const duration = new HistogramFamily(
    'parley_http_request_duration_seconds',
    'Time from the request to its last response byte, by method, route pattern and status.',
    ['method', 'route', 'status'],
    HTTP_BUCKETS,
  );
  const turns = new CounterFamily(
    'parley_chat_turns_total',
    'Chat turns by channel (api, app, widget, playground) and outcome (answered, fallback, template, handoff, error).',
    ['channel', 'outcome'],
  );
  const stages = new HistogramFamily(
    'parley_chat_stage_duration_seconds',
    'Time spent in each stage of a chat turn: retrieval, answer (the answering step after retrieval), model (the provider request).',
    ['stage'],
    STAGE_BUCKETS,
  );
  for (const family of [requests, duration, turns, stages]) family.registerIn(registry);

  const modelRequests = new Counter({
    name: 'parley_model_requests_total',
    help: 'Requests to model providers by provider and outcome (answered, declined, or the error: timeout, rate_limited, upstream, auth, bad_request, network, protocol, aborted).',
    labelNames: ['provider', 'outcome'],
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'parley_webhook_deliveries_total',
    help: 'Webhook delivery attempts recorded, by outcome (delivered, retry, failed, gone, lost).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'parley_rate_limited_total',
    help: 'Requests refused by a rate or abuse limit, by the limit (scope).',
    labelNames: ['scope'],
    registers: [registry],
  });

  const backlogFailed = (what: string) => (err: unknown) => {
    deps.logger.warn('metrics: backlog count failed', { what, error: String(err) });
    return null;
  };
  new Gauge({
    name: 'parley_webhook_backlog',
    help: 'Webhook deliveries pending (not yet delivered or given up), counted in the database at scrape time.',
    registers: [registry],
    async collect() {
      const row = await deps.storage.get<{ n: number | string }>(SQL.webhookBacklog).catch(backlogFailed('webhooks'));
      if (row) this.set(Number(row.n));
      else this.reset();
    },
  });
  new Gauge({
    name: 'parley_jobs_backlog',
    help: 'Background jobs queued (web document fetches and crawls), by kind, counted in the database at scrape time.',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const rows = await deps.storage.all<{ kind: string; n: number | string }>(SQL.jobsBacklog).catch(backlogFailed('jobs'));
      this.reset();
      if (!rows) return;
      for (const kind of JOB_KINDS) this.set({ kind }, 0);
      for (const r of rows) this.set({ kind: r.kind }, Number(r.n));
    },
  });

  // Hot-path series kept by channel, then outcome: a turn builds no key string.
  const turnSeries = new Map<string, Partial<Record<ChatOutcome, CounterSeries>>>();
  const stageSeries: Record<ChatStage, HistogramSeries> = {
    retrieval: stages.labels('retrieval'),
    answer: stages.labels('answer'),
    model: stages.labels('model'),
  };
  let merged: Registry | null = null;

  return {
    http: { requests, duration },
    chatTurn(channel, outcome) {
      let byOutcome = turnSeries.get(channel);
      if (!byOutcome) turnSeries.set(channel, (byOutcome = {}));
      (byOutcome[outcome] ??= turns.labels(channel, outcome)).inc();
    },
    chatStage(stage, seconds) {
      stageSeries[stage].observe(seconds);
    },
    modelRequest(provider, outcome) {
      modelRequests.inc({ provider, outcome });
    },
    webhookDelivery(outcome) {
      webhookDeliveries.inc({ outcome });
    },
    rateLimited(scope) {
      rateLimited.inc({ scope });
    },
    async render() {
      // Node's process metrics start at the first scrape, once per process (process.ts).
      merged ??= Registry.merge([processRegistry(), registry]);
      return { contentType: registry.contentType, text: await merged.metrics() };
    },
  };
}
