/**
 * Paired A/B of the chat request on SQLite (issue 14): `npm run bench`'s HTTP setup (serve.ts: a
 * seeded 10k-chunk corpus, Parley and a bare Express route in one process) started once per
 * checkout, the checkouts loaded in alternating windows (the order flips every round). Per window
 * and checkout: chat and bare requests/s, their ratio (issue 14's target) and the serve process's
 * CPU per request read from /proc (so a baseline checkout needs no /cpu route). This machine's
 * speed drifts from window to window, so only medians over alternating rounds mean anything;
 * the per-round ratios against the first checkout are printed too.
 *
 *   node --import tsx bench/src/http-pair.ts --rounds 8 --duration 3 base=/tmp/base cur=. [--prof-dir /tmp/prof]
 *
 * A baseline worktree: git worktree add /tmp/base fb868c5, then cp -al node_modules (and
 * server/node_modules) into it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { readOption } from './cli-options.js';
import { bareLoad, chatLoad, load, type LoadResult, type Served } from './http-bench.js';

const rounds = readOption('rounds', 8);
const duration = readOption('duration', 3);
const chunks = readOption('chunks', 10_000);
const checkouts = process.argv
  .slice(2)
  .filter((a) => /^\w+=/.test(a))
  .map((a) => ({ name: a.slice(0, a.indexOf('=')), root: path.resolve(a.slice(a.indexOf('=') + 1)) }));
if (checkouts.length < 2) throw new Error('name=checkout twice or more (the first is the reference)');

const TICK_US = 1_000_000 / 100; // USER_HZ: /proc times are in 1/100 s
/** User + system CPU of a process, µs. */
function cpuMicros(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}
/** `--prof-dir DIR`: every serve process writes a V8 CPU profile into DIR/<name>/ at its exit (the profiler costs CPU too: figures of such a run are not comparable). */
const profIndex = process.argv.indexOf('--prof-dir');
const profDir = profIndex > 0 ? path.resolve(process.argv[profIndex + 1] as string) : null;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;

interface Side {
  name: string;
  child: ChildProcess;
  served: Served;
}

/** serve.ts of `root` run by node itself (not the tsx binary, whose child would hold the CPU). */
async function start(name: string, root: string, dir: string): Promise<Side> {
  const prof = profDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profDir, name)}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', 'bench/src/serve.ts', path.join(dir, `${name}.db`), String(chunks)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const served = await new Promise<Served>((resolve, reject) => {
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (l) => resolve(JSON.parse(l) as Served));
    child.once('exit', (code) => reject(new Error(`${name}: serve.ts exited (${code})`)));
  });
  return { name, child, served };
}

async function window(side: Side, opts: Parameters<typeof load>[0]): Promise<LoadResult & { cpuUs: number }> {
  const pid = side.child.pid as number;
  const c0 = cpuMicros(pid);
  const r = await load({ ...opts, duration });
  return { ...r, cpuUs: Math.round((cpuMicros(pid) - c0) / Math.max(1, r.total)) };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-http-pair-'));
const sides: Side[] = [];
try {
  for (const c of checkouts) sides.push(await start(c.name, c.root, dir));
  for (const s of sides) {
    await load({ ...bareLoad(s.served), duration: 2 });
    await load({ ...chatLoad(s.served, s.served.parleyUrl), duration: 2 });
  }
  const results = new Map<string, { chatCpuUs: number; bareCpuUs: number; ratio: number }[]>(sides.map((s) => [s.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const s of r % 2 ? [...sides].reverse() : sides) {
      const bare = await window(s, bareLoad(s.served));
      const chat = await window(s, chatLoad(s.served, s.served.parleyUrl));
      const ratio = chat.requestsPerSecond / bare.requestsPerSecond;
      results.get(s.name)?.push({ chatCpuUs: chat.cpuUs, bareCpuUs: bare.cpuUs, ratio });
      console.log(
        `round ${r} ${s.name}: chat ${chat.cpuUs} µs/req (${chat.requestsPerSecond} req/s, non-2xx ${chat.non2xx}), bare ${bare.cpuUs} µs/req (${bare.requestsPerSecond} req/s), chat/bare ${ratio.toFixed(3)}`,
      );
    }
  }
  const ref = results.get(sides[0]?.name ?? '') ?? [];
  for (const [name, rs] of results) {
    const line = `${name}: median chat CPU ${median(rs.map((x) => x.chatCpuUs))} µs/req, bare ${median(rs.map((x) => x.bareCpuUs))} µs/req, chat/bare throughput ${median(rs.map((x) => x.ratio)).toFixed(3)}`;
    if (rs === ref) {
      console.log(line);
      continue;
    }
    const cpu = rs.map((x, i) => x.chatCpuUs / (ref[i]?.chatCpuUs ?? NaN));
    const thr = rs.map((x, i) => x.ratio / (ref[i]?.ratio ?? NaN));
    console.log(
      `${line}; per round vs ${sides[0]?.name}: chat CPU ×${cpu.map((x) => x.toFixed(2)).join(' ')} (median ×${median(cpu).toFixed(2)}), chat/bare ×${thr.map((x) => x.toFixed(2)).join(' ')} (median ×${median(thr).toFixed(2)})`,
    );
  }
} finally {
  for (const s of sides) s.child.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
}
