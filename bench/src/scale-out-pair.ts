/**
 * Paired A/B measurement of Parley's chat on PostgreSQL (issue 15): two instances on one bench
 * database, differing only by environment variables (a change behind a toggle) or by checkout (a
 * baseline worktree), loaded in alternating windows. Per window: requests/s, the instance's own
 * CPU (µs per chat, from /proc) and the PostgreSQL backends' CPU (µs per chat). This machine's
 * speed drifts from window to window, so only medians over alternating rounds mean anything.
 *
 *   node --import tsx bench/src/scale-out-pair.ts --rounds 5 --duration 5 \
 *     --a PARLEY_X=0 --b PARLEY_X=1 [--b-root /tmp/base] [--prof a|b --prof-dir DIR] [--chunks N]
 *     [--a-args --flag,--flag2] (extra node flags of one side)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { chatLoad, load, startServe } from './http-bench.js';
import { readOption } from './cli-options.js';
import { cpuBetween, snapshot } from './scale-out-cpu.js';
import { connectTestRedis, REDIS_TEST_URL } from '../../server/src/limits/redis-testing.js';
import { analyzeAsAutovacuumWould, postgresCopyOf, startParley } from './scale-out-instances.js';

const text = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const envOf = (spec: string | undefined): Record<string, string> =>
  Object.fromEntries(
    (spec ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;

const rounds = readOption('rounds', 5);
const duration = readOption('duration', 5);
const prof = text('prof');
const profDir = text('prof-dir') ?? path.join(os.tmpdir(), 'parley-prof');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-pair-'));
const stops: Array<() => Promise<void>> = [];
try {
  const { child, served } = await startServe({ chunks: readOption('chunks', 10_000), file: path.join(dir, 'pair.db') });
  stops.push(async () => {
    child.kill('SIGTERM');
  });
  const database = await postgresCopyOf(path.join(dir, 'pair.db'));
  stops.push(() => database.drop());
  const redis = await connectTestRedis();
  stops.push(() => redis.cleanup());
  const sides = { a: { env: envOf(text('a')), root: text('a-root') }, b: { env: envOf(text('b')), root: text('b-root') } };
  const instances = {} as Record<'a' | 'b', Awaited<ReturnType<typeof startParley>>>;
  for (const side of ['a', 'b'] as const) {
    const nodeArgs = [
      ...(prof === side ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
      ...(text(`${side}-args`) ?? '').split(',').filter(Boolean),
    ];
    const { env, root } = sides[side];
    instances[side] = await startParley({
      databaseUrl: database.url,
      redisUrl: REDIS_TEST_URL,
      redisPrefix: redis.prefix,
      env,
      nodeArgs,
      ...(root ? { root } : {}),
    });
    stops.push(() => instances[side].stop());
  }
  const admin = new pg.Pool({ connectionString: database.url, max: 1, application_name: 'parley-bench-cpu' });
  stops.push(() => admin.end());
  const backendPids = async () =>
    (
      await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name <> 'parley-bench-cpu'",
      )
    ).rows.map((r) => r.pid);

  for (const side of ['a', 'b'] as const) await load({ ...chatLoad(served, instances[side].url), duration: 2 });
  // Without it, side a (started first) caches plans made on empty tables: scale-out-instances.ts.
  await analyzeAsAutovacuumWould(admin);
  const rows: Record<'a' | 'b', Array<{ total: number; rps: number; node: number; pg: number; non2xx: number }>> = { a: [], b: [] };
  for (let i = 0; i < rounds; i++) {
    // Strictly a, b, a, b: each side idles for one window only. Reversing the order every other
    // round would leave a side idle for two windows (> pg-pool's idle timeout of the baseline,
    // 10 s), and that side's next window would pay for new connections (PostgreSQL backend start,
    // catalog caches, every statement prepared again): about twice the backend CPU per chat.
    for (const side of (process.env.PAIR_ORDER === 'abba' && i % 2 ? ['b', 'a'] : ['a', 'b']) as Array<'a' | 'b'>) {
      const inst = instances[side];
      const n0 = snapshot([inst.pid]);
      const p0 = snapshot(await backendPids());
      const r = await load({ ...chatLoad(served, inst.url), duration });
      const n1 = snapshot([inst.pid]);
      const p1 = snapshot(await backendPids());
      if (process.env.PAIR_DEBUG) {
        const who = new Map(
          (
            await admin.query<{ pid: number; app: string; kind: string }>(
              'SELECT pid, application_name AS app, backend_type AS kind FROM pg_stat_activity',
            )
          ).rows.map((x) => [x.pid, `${x.kind}/${x.app}`]),
        );
        for (const [pid, us] of p1)
          if (us - (p0.get(pid) ?? 0) > 20_000)
            process.stderr.write(`  ${pid} ${who.get(pid) ?? '?'} ${Math.round((us - (p0.get(pid) ?? 0)) / 1000)} ms\n`);
      }
      const per = (us: number) => Math.round(us / Math.max(1, r.total));
      rows[side].push({
        total: r.total,
        rps: r.requestsPerSecond,
        node: per(cpuBetween(n0, n1)),
        pg: per(cpuBetween(p0, p1)),
        non2xx: r.non2xx + r.errors,
      });
      process.stderr.write(`round ${i + 1} ${side}: ${JSON.stringify(rows[side].at(-1))}\n`);
    }
  }
  // The paired figure: b ÷ a within each round (both windows share that round's machine load).
  const ratio = (k: 'node' | 'pg' | 'rps') => median(rows.b.map((x, i) => x[k] / (rows.a[i]?.[k] ?? NaN))).toFixed(3);
  process.stdout.write(`b/a per round, median: Node CPU ${ratio('node')}, PG CPU ${ratio('pg')}, req/s ${ratio('rps')}\n`);
  for (const side of ['a', 'b'] as const) {
    const r = rows[side];
    process.stdout.write(
      `${side} ${JSON.stringify(sides[side])}: median ${median(r.map((x) => x.rps))} req/s, Node ${median(r.map((x) => x.node))} µs/chat, PG backends ${median(r.map((x) => x.pg))} µs/chat, total ${median(r.map((x) => x.node + x.pg))}; non-2xx ${r.reduce((n, x) => n + x.non2xx, 0)}, chats ${r.reduce((n, x) => n + x.total, 0)}\n`,
    );
  }
} finally {
  for (const stop of stops.reverse()) await stop().catch((err: unknown) => process.stderr.write(`pair cleanup: ${String(err)}\n`));
  fs.rmSync(dir, { recursive: true, force: true });
}
