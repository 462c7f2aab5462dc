/**
 * Analytics time series at scale (issue 13): N messages over 90 days written straight through
 * SQL into a file database, so migration 018's triggers keep the per-hour rollups exactly as
 * the chat path does; then each metric's series is timed, per day and per hour, over the whole
 * 90 days (the dashboard's widest view). Target: < 200 ms per series at 1,000,000 messages.
 */
import path from 'node:path';
import { computeTimeseries, METRICS, type Interval } from '../../server/src/analytics/timeseries.js';
import { computeMetricsWithPrevious } from '../../server/src/analytics/service.js';
import { DEFAULT_CHANNELS } from '../../server/src/analytics/channel.js';
import { rebuildRollups } from '../../server/src/analytics/rollup-rebuild.js';
import { createSqliteStorage } from '../../server/src/storage/sqlite.js';
import { insertApiKey } from '../../server/src/api-keys/service.js';
import { migrate } from '../../server/src/db/migrate.js';
import { startServer } from '../../server/test/test-server.js';
import { openDb } from '../../server/src/db/open.js';
import { seededRandom } from '../../server/src/lib/seeded-random.js';
import { round } from './stats.js';

const DAY_MS = 86_400_000;

export interface AnalyticsBenchResult {
  messages: number;
  conversations: number;
  seedSeconds: number;
  rollupRows: number;
  latencyEntries: number;
  /** Median ms per metric and interval over the 90 days, in process. */
  medianMs: Record<string, { day: number; hour: number }>;
  /**
   * The same calls' CPU time (process.cpuUsage), median ms: the query is synchronous SQLite in
   * this process, so this is its cost even when other processes share the cores and the wall
   * time above includes waiting for one.
   */
  cpuMedianMs: Record<string, { day: number; hour: number }>;
  worstMedianMs: number;
  /** The same over real HTTP (GET /v1/analytics/timeseries with an API key), median ms. */
  httpMedianMs: Record<string, { day: number; hour: number }>;
  /** GET /v1/analytics/metrics for the last 30 days (with its previous period), median ms in process and over HTTP. */
  metricsMs: { inProcess: number; http: number; modelAnswers: number };
}

/** Which parts to time: the time series, the metrics call, or both (the default). */
export type AnalyticsSection = 'timeseries' | 'metrics';

export async function runAnalyticsBench(opts: {
  dir: string;
  messages: number;
  runs?: number;
  sections?: AnalyticsSection[];
}): Promise<AnalyticsBenchResult> {
  const sections = new Set(opts.sections ?? ['timeseries', 'metrics']);
  const db = openDb(path.join(opts.dir, `analytics-${opts.messages}.db`));
  migrate(db);
  const rand = seededRandom(13);
  const now = Date.parse('2026-06-01T00:00:00Z');
  const start = now - 90 * DAY_MS;
  const at = new Date(start).toISOString();
  db.prepare("INSERT INTO organizations (id, name, created_at) VALUES ('org_bench', 'Bench', ?)").run(at);
  const assistants = ['asst_bench1', 'asst_bench2', 'asst_bench3'];
  for (const id of assistants)
    db.prepare(
      "INSERT INTO assistants (id, organization_id, type, name, config, created_at, updated_at) VALUES (?, 'org_bench', 'api', ?, '{}', ?, ?)",
    ).run(id, id, at, at);
  const channels: [string, string | null][] = [
    ['widget', null],
    ['api', null],
    ['api', 'slack'],
    ['api', 'discord'],
    ['api', 'teams'],
    ['api', 'playground'],
  ];
  const insertConv =
    db.prepare(`INSERT INTO conversations (id, organization_id, assistant_id, session_id, channel, source, started_at, last_message_at)
    VALUES (?, 'org_bench', ?, ?, ?, ?, ?, ?)`);
  const insertMsg =
    db.prepare(`INSERT INTO messages (id, seq, conversation_id, role, content, confidence, answered, response_ms, rating, created_at,
      provider, model, prompt_tokens, completion_tokens, provider_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // Who wrote each answer: most by a model (two providers, three models), some extractive or templates.
  const models: [string | null, string | null][] = [
    ['openai', 'gpt-4o-mini'],
    ['openai', 'gpt-4o'],
    ['anthropic', 'claude-3-5-haiku'],
    ['extractive', null],
    [null, null],
  ];
  const handoff = db.prepare('UPDATE conversations SET handoff_requested_at = ? WHERE id = ?');
  const t0 = performance.now();
  let seq = 0;
  let conv = 0;
  const BATCH = 2_000;
  while (seq < opts.messages) {
    db.transaction(() => {
      for (let b = 0; b < BATCH && seq < opts.messages; b++) {
        conv++;
        // Traffic grows over the period and follows the day: more in working hours.
        const day = Math.floor(Math.sqrt(rand()) * 90);
        const hour = Math.floor(rand() < 0.7 ? 8 + rand() * 10 : rand() * 24);
        const startMs = start + day * DAY_MS + hour * 3_600_000 + Math.floor(rand() * 3_600_000);
        const [channel, source] = channels[Math.floor(rand() * channels.length)] as [string, string | null];
        const id = `conv_${conv}`;
        const startIso = new Date(startMs).toISOString();
        insertConv.run(id, assistants[conv % assistants.length], `s_${conv}`, channel, source, startIso, startIso);
        const turns = 1 + Math.floor(rand() * 3);
        for (let t = 0; t < turns && seq < opts.messages; t++) {
          const ts = new Date(startMs + t * 40_000).toISOString();
          insertMsg.run(`m_${++seq}`, seq, id, 'user', 'a question', null, null, null, null, ts, null, null, null, null, null);
          if (seq >= opts.messages) break;
          const answered = rand() < 0.8 ? 1 : 0;
          // Log-normal response times around 8 ms with a long tail.
          const ms = round(Math.exp(Math.log(8) + 0.8 * Math.sqrt(-2 * Math.log(rand() || 1e-9)) * Math.cos(2 * Math.PI * rand())), 1);
          const r = rand();
          const [provider, model] = models[Math.floor(rand() * models.length)] as [string | null, string | null];
          const byModel = provider !== null && provider !== 'extractive';
          insertMsg.run(
            `m_${++seq}`,
            seq,
            id,
            'assistant',
            'an answer',
            answered ? 0.7 : 0.2,
            answered,
            ms,
            r < 0.05 ? 'up' : r < 0.07 ? 'down' : null,
            ts,
            provider,
            model,
            byModel ? 300 + Math.floor(rand() * 1500) : null,
            byModel ? 20 + Math.floor(rand() * 300) : null,
            provider === null ? null : round(provider === 'extractive' ? ms : 300 + 900 * rand() * rand(), 1),
          );
        }
        if (rand() < 0.03) handoff.run(new Date(startMs + 60_000).toISOString(), id);
      }
    })();
  }
  // Rows inserted directly bypass the code that keeps the rollups: computed once from them.
  const storage = createSqliteStorage(db);
  await rebuildRollups(storage);
  const seedSeconds = round((performance.now() - t0) / 1000, 1);
  db.pragma('optimize');
  const rollupRows = (db.prepare('SELECT count(*) AS n FROM analytics_hourly').get() as { n: number }).n;
  const latencyEntries = (db.prepare("SELECT count(*) AS n FROM analytics_latency_hourly WHERE metric = 'response'").get() as { n: number })
    .n;

  const runs = opts.runs ?? 7;
  const medianMs: AnalyticsBenchResult['medianMs'] = {};
  const cpuMedianMs: AnalyticsBenchResult['cpuMedianMs'] = {};
  const medianOf = (xs: number[]) => round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number, 1);
  for (const metric of sections.has('timeseries') ? METRICS : []) {
    const per = {} as { day: number; hour: number };
    const cpuPer = {} as { day: number; hour: number };
    for (const interval of ['day', 'hour'] as Interval[]) {
      const times: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < runs; i++) {
        const c = process.cpuUsage();
        const s = performance.now();
        const points = await computeTimeseries(storage, {
          org: 'org_bench',
          assistantId: null,
          channels: JSON.stringify(DEFAULT_CHANNELS),
          from: now - 90 * DAY_MS,
          to: now - 1,
          interval,
          metric,
        });
        times.push(performance.now() - s);
        const used = process.cpuUsage(c);
        cpu.push((used.user + used.system) / 1000);
        if (points.length !== (interval === 'day' ? 90 : 2160)) throw new Error(`unexpected bucket count ${points.length}`);
      }
      per[interval] = medianOf(times);
      cpuPer[interval] = medianOf(cpu);
    }
    medianMs[metric] = per;
    cpuMedianMs[metric] = cpuPer;
  }
  // Over HTTP: routing, validation, auth and the JSON of up to 2,160 points included.
  db.prepare("UPDATE organizations SET plan = 'enterprise' WHERE id = 'org_bench'").run();
  const { key } = insertApiKey(
    db,
    'org_bench',
    {
      name: 'bench',
      permissions: ['analytics:read'],
      assistantId: null,
      allowedIps: [],
      rateLimit: { perMinute: null, perDay: null },
      expiresAt: null,
    },
    new Date(now).toISOString(),
  );
  const server = await startServer({ db });
  const httpMedianMs: AnalyticsBenchResult['httpMedianMs'] = {};
  const from = new Date(now - 90 * DAY_MS).toISOString();
  const to = new Date(now - 1).toISOString();
  for (const metric of sections.has('timeseries') ? METRICS : []) {
    const per = {} as { day: number; hour: number };
    for (const interval of ['day', 'hour'] as Interval[]) {
      const times: number[] = [];
      for (let i = 0; i < Math.min(runs, 3); i++) {
        const s = performance.now();
        const res = await fetch(`${server.url}/v1/analytics/timeseries?metric=${metric}&interval=${interval}&from=${from}&to=${to}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        await res.json();
        times.push(performance.now() - s);
        if (res.status !== 200) throw new Error(`timeseries answered ${res.status}`);
      }
      times.sort((a, b) => a - b);
      per[interval] = round(times[Math.floor(times.length / 2)] as number, 1);
    }
    httpMedianMs[metric] = per;
  }
  // The analytics page's metrics call: the last 30 days and the 30 before (`previous`), default channels.
  const metricsMs = { inProcess: 0, http: 0, modelAnswers: 0 };
  if (sections.has('metrics')) {
    const from30 = new Date(now - 30 * DAY_MS).toISOString();
    const filter = {
      org: 'org_bench',
      from: from30,
      to,
      assistantId: null,
      userId: null,
      source: null,
      q: null,
      channels: JSON.stringify(DEFAULT_CHANNELS),
      rating: null,
      fellBack: null,
      handoff: null,
      sort: 'startedAt',
      order: 'desc',
    } as const;
    const inProcess: number[] = [];
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      metricsMs.modelAnswers = (await computeMetricsWithPrevious(storage, filter, now)).usage.modelAnswers;
      inProcess.push(performance.now() - s);
    }
    const http: number[] = [];
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      const res = await fetch(`${server.url}/v1/analytics/metrics?from=${from30}&to=${to}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      await res.json();
      http.push(performance.now() - s);
      if (res.status !== 200) throw new Error(`metrics answered ${res.status}`);
    }
    const median = (xs: number[]) => round(xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number, 1);
    metricsMs.inProcess = median(inProcess);
    metricsMs.http = median(http);
  }
  await server.close();
  db.close();
  const worstMedianMs = Math.max(0, ...Object.values(medianMs).flatMap((m) => [m.day, m.hour]));
  return {
    messages: opts.messages,
    conversations: conv,
    seedSeconds,
    rollupRows,
    latencyEntries,
    medianMs,
    cpuMedianMs,
    worstMedianMs,
    httpMedianMs,
    metricsMs,
  };
}

export function analyticsRows(r: AnalyticsBenchResult): [string, string, string][] {
  const metrics: [string, string, string][] = r.metricsMs.inProcess
    ? [
        [
          `metrics, 30 days + previous 30 of ${r.messages.toLocaleString('en')} messages`,
          `${r.metricsMs.inProcess} ms`,
          `median in process; over HTTP ${r.metricsMs.http} ms; target < 200 ms (usage of ${r.metricsMs.modelAnswers.toLocaleString('en')} model answers from the usage rollups: whole days per day, the ends per hour)`,
        ],
      ]
    : [];
  return [
    ...metrics,
    ...Object.entries(r.medianMs).map(
      ([metric, m]) =>
        [
          `timeseries ${metric}, 90 days of ${r.messages.toLocaleString('en')} messages`,
          `day ${m.day} ms, hour ${m.hour} ms`,
          `median in process (CPU day ${r.cpuMedianMs[metric]?.day} ms, hour ${r.cpuMedianMs[metric]?.hour} ms); ` +
            `over HTTP day ${r.httpMedianMs[metric]?.day} ms, hour ${r.httpMedianMs[metric]?.hour} ms; target < 200 ms ` +
            `(${r.rollupRows} rollup rows, ${r.latencyEntries} hourly histogram rows; ` +
            `seeded and rolled up in ${r.seedSeconds} s)`,
        ] as [string, string, string],
    ),
  ];
}

// `tsx bench/src/analytics-bench.ts [messages] [--metrics | --timeseries]`: this section alone (or one part of it).
if (import.meta.url === `file://${process.argv[1]}`) {
  const os = await import('node:os');
  const fs = await import('node:fs');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-analytics-'));
  const args = process.argv.slice(2);
  const count = args.find((a) => !a.startsWith('--'));
  const only = args.filter((a) => a === '--metrics' || a === '--timeseries').map((a) => a.slice(2) as AnalyticsSection);
  const r = await runAnalyticsBench({ dir, messages: Number(count ?? 1_000_000), sections: only.length ? only : undefined });
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
}
