import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { bareLoad, chatLoad, load, serveCpuMicros, startServe, type LoadResult } from './http-bench.js';
import { childPids, cpuBetween, snapshot } from './scale-out-cpu.js';
import { connectTestRedis, REDIS_TEST_URL } from '../../server/src/limits/redis-testing.js';
import { analyzeAsAutovacuumWould, freePort, postgresCopyOf, startParley, type ParleyInstance } from './scale-out-instances.js';
import { startNginx, type NginxFront } from './scale-out-nginx.js';
import { round } from './stats.js';

/**
 * Chat throughput on PostgreSQL, one instance and two behind nginx, against SQLite in the same run
 * (issue 15). Same seeded corpus, assistant, keys and request mix as `npm run bench:http`.
 */

export const SCALE_OUT_TARGETS = ['sqlite', 'postgres', 'postgresNginx', 'postgresNginx2'] as const;
export type ScaleOutTarget = (typeof SCALE_OUT_TARGETS)[number];

const LABELS: Record<ScaleOutTarget, string> = {
  sqlite: 'SQLite, one instance, direct',
  postgres: 'PostgreSQL, one instance, direct',
  postgresNginx: 'PostgreSQL, one instance behind nginx',
  postgresNginx2: 'PostgreSQL, two instances behind nginx',
};

export const SCALE_OUT_NOTES = [
  'One machine with 2 cores: the Parley instances, nginx, PostgreSQL, Redis and the load generator share them.',
  'So "two instances behind nginx" shows the overhead (or scaling) of a second process on the same cores, not the gain of a second machine.',
  'CPU per chat is summed from /proc over the Parley process(es), the nginx worker and the PostgreSQL backends of the bench database (Redis and PostgreSQL background processes not counted); SQLite is the serve process alone.',
  'Each round measures bare Express, then every target in turn (alternating rounds); figures are medians over rounds.',
];

interface Round {
  bare: LoadResult;
  bareCpuUs: number;
  chat: Record<ScaleOutTarget, LoadResult>;
  cpuUs: Record<ScaleOutTarget, { parley: number; nginx: number; postgres: number; total: number }>;
}

export interface ScaleOutResult {
  chunks: number;
  rounds: number;
  durationSeconds: number;
  bare: { requestsPerSecond: number; cpuUs: number };
  targets: Array<{
    target: ScaleOutTarget;
    label: string;
    requestsPerSecond: number;
    p50Ms: number;
    p99Ms: number;
    non2xx: number;
    errors: number;
    /** Median over rounds of chat req/s ÷ the same round's bare req/s. */
    ratioToBare: number;
    /** Median over rounds of this target's req/s ÷ the same round's SQLite req/s. */
    ratioToSqlite: number;
    perRound: number[];
    cpuUsPerChat: { parley: number; nginx: number; postgres: number; total: number };
  }>;
  notes: string[];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;

/** Redis: REDIS_TEST_URL, else loopback; PostgreSQL: PARLEY_TEST_POSTGRES_URL, else loopback (as the tests). */
export async function runScaleOutBench(opts: { dir: string; chunks: number; duration: number; rounds: number }): Promise<ScaleOutResult> {
  fs.mkdirSync(opts.dir, { recursive: true });
  const file = path.join(opts.dir, 'scale-out.db');
  const stops: Array<() => Promise<void>> = [];
  try {
    const { child, served } = await startServe({ chunks: opts.chunks, file });
    stops.push(async () => {
      child.kill('SIGTERM');
    });
    const database = await postgresCopyOf(file);
    stops.push(() => database.drop());
    // A key prefix of this run's own, its keys deleted at the end (the daily counters live a day).
    const redis = await connectTestRedis();
    stops.push(() => redis.cleanup());
    const redisPrefix = redis.prefix;
    const redisUrl = REDIS_TEST_URL;
    const instances: ParleyInstance[] = [];
    for (let i = 0; i < 2; i++) {
      const instance = await startParley({ databaseUrl: database.url, redisUrl, redisPrefix });
      instances.push(instance);
      stops.push(() => instance.stop());
    }
    const [first, second] = instances as [ParleyInstance, ParleyInstance];
    const [onePort, twoPort] = [await freePort(), await freePort()];
    const nginx: NginxFront = await startNginx(path.join(opts.dir, 'nginx'), [
      { port: onePort, upstream: [first.port] },
      { port: twoPort, upstream: [first.port, second.port] },
    ]);
    stops.push(() => nginx.stop());

    // The PostgreSQL backends serving the bench database, read afresh around each window.
    const admin = new pg.Pool({ connectionString: database.url, max: 1, application_name: 'parley-bench-cpu' });
    stops.push(() => admin.end());
    const backendPids = async () =>
      (
        await admin.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name <> 'parley-bench-cpu'",
        )
      ).rows.map((r) => r.pid);

    const targets: Record<ScaleOutTarget, { url: string; parley: number[]; nginx: boolean }> = {
      sqlite: { url: served.parleyUrl, parley: [], nginx: false },
      postgres: { url: first.url, parley: [first.pid], nginx: false },
      postgresNginx: { url: `http://127.0.0.1:${onePort}`, parley: [first.pid], nginx: true },
      postgresNginx2: { url: `http://127.0.0.1:${twoPort}`, parley: [first.pid, second.pid], nginx: true },
    };
    const nginxPids = () => [nginx.pid, ...childPids(nginx.pid)];

    // Warm every path (JIT, page caches, pools, keepalive connections) before measuring.
    await load({ ...bareLoad(served), duration: 2 });
    for (const t of SCALE_OUT_TARGETS) await load({ ...chatLoad(served, targets[t].url), duration: 2 });
    await analyzeAsAutovacuumWould(admin);

    const rounds: Round[] = [];
    for (let i = 0; i < opts.rounds; i++) {
      const b0 = await serveCpuMicros(served);
      const bare = await load({ ...bareLoad(served), duration: opts.duration });
      const b1 = await serveCpuMicros(served);
      const chat = {} as Round['chat'];
      const cpuUs = {} as Round['cpuUs'];
      for (const t of SCALE_OUT_TARGETS) {
        const target = targets[t];
        const s0 = await serveCpuMicros(served);
        const parley0 = snapshot(target.parley);
        const nginx0 = snapshot(target.nginx ? nginxPids() : []);
        const pg0 = snapshot(t === 'sqlite' ? [] : await backendPids());
        const result = await load({ ...chatLoad(served, target.url), duration: opts.duration });
        const s1 = await serveCpuMicros(served);
        const per = (micros: number) => Math.round(micros / Math.max(1, result.total));
        const parley = per(t === 'sqlite' ? s1 - s0 : cpuBetween(parley0, snapshot(target.parley)));
        const nginxUs = per(cpuBetween(nginx0, snapshot(target.nginx ? nginxPids() : [])));
        const postgres = per(t === 'sqlite' ? 0 : cpuBetween(pg0, snapshot(await backendPids())));
        chat[t] = result;
        cpuUs[t] = { parley, nginx: nginxUs, postgres, total: parley + nginxUs + postgres };
      }
      rounds.push({ bare, bareCpuUs: Math.round((b1 - b0) / Math.max(1, bare.total)), chat, cpuUs });
    }

    return {
      chunks: served.chunkCount,
      rounds: opts.rounds,
      durationSeconds: opts.duration,
      bare: { requestsPerSecond: median(rounds.map((r) => r.bare.requestsPerSecond)), cpuUs: median(rounds.map((r) => r.bareCpuUs)) },
      targets: SCALE_OUT_TARGETS.map((t) => {
        const rps = rounds.map((r) => r.chat[t].requestsPerSecond);
        // The latency figures are those of the median-throughput round.
        const mid = [...rounds].sort((a, b) => a.chat[t].requestsPerSecond - b.chat[t].requestsPerSecond)[
          Math.floor((rounds.length - 1) / 2)
        ] as Round;
        const cpu = (k: 'parley' | 'nginx' | 'postgres' | 'total') => median(rounds.map((r) => r.cpuUs[t][k]));
        return {
          target: t,
          label: LABELS[t],
          requestsPerSecond: median(rps),
          p50Ms: mid.chat[t].p50Ms,
          p99Ms: mid.chat[t].p99Ms,
          non2xx: rounds.reduce((n, r) => n + r.chat[t].non2xx, 0),
          errors: rounds.reduce((n, r) => n + r.chat[t].errors, 0),
          ratioToBare: round(median(rounds.map((r) => r.chat[t].requestsPerSecond / r.bare.requestsPerSecond)), 3),
          ratioToSqlite: round(median(rounds.map((r) => r.chat[t].requestsPerSecond / r.chat.sqlite.requestsPerSecond)), 3),
          perRound: rps,
          cpuUsPerChat: { parley: cpu('parley'), nginx: cpu('nginx'), postgres: cpu('postgres'), total: cpu('total') },
        };
      }),
      notes: SCALE_OUT_NOTES,
    };
  } finally {
    // Reverse order: nginx before the instances it proxies, the instances before their database.
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => process.stderr.write(`scale-out cleanup: ${String(err)}\n`));
  }
}

/** Rows for the markdown table of `npm run bench` and `npm run bench:scale-out`. */
export function scaleOutRows(r: ScaleOutResult): [string, string, string][] {
  const pct = (x: number) => `${round(x * 100, 1)} %`;
  return [
    [`bare Express JSON POST (scale-out baseline)`, `${r.bare.requestsPerSecond} req/s`, `server CPU ${r.bare.cpuUs} µs per request`],
    ...r.targets.map((t): [string, string, string] => [
      `chat, ${r.chunks} chunks: ${t.label}`,
      `${t.requestsPerSecond} req/s`,
      `${pct(t.ratioToBare)} of bare, ${pct(t.ratioToSqlite)} of SQLite; p50 ${t.p50Ms} ms, p99 ${t.p99Ms} ms, non-2xx ${t.non2xx}; ` +
        `CPU per chat ${t.cpuUsPerChat.total} µs (Parley ${t.cpuUsPerChat.parley}, nginx ${t.cpuUsPerChat.nginx}, PostgreSQL ${t.cpuUsPerChat.postgres}); per round ${t.perRound.join(', ')} req/s`,
    ]),
  ];
}
