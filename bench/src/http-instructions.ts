/**
 * Instructions per chat request, counted by Valgrind's callgrind: a figure that does not move
 * when other processes share the cores or the VM's clock drifts, unlike every timed one here
 * (http-pair.ts sees ±20 % from one window to the next). For each checkout, bench/src/serve.ts
 * (SQLite, a seeded corpus) runs under callgrind with counting off; `--warm` chats bring V8 to
 * its steady state (under Valgrind the optimising compiler is still busy after 1,500 chats and
 * its work swamps the request's own), then `--measure` chats are counted.
 *
 *   node --import tsx bench/src/http-instructions.ts base=/tmp/base cur=. [--warm 7000] [--measure 1000] [--chunks 1000]
 *
 * User-space instructions of every thread (JS, SQLite, GC, the compiler); kernel time (syscalls,
 * WAL writes) is not counted: pair it with http-pair.ts. Each checkout takes ~2 minutes at the
 * defaults. A baseline worktree: see http-pair.ts.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { readOption } from './cli-options.js';
import { chatLoad, type Served } from './http-bench.js';

const warm = readOption('warm', 7_000);
const measure = readOption('measure', 1_000);
const chunks = readOption('chunks', 1_000);
const checkouts = process.argv
  .slice(2)
  .filter((a) => /^\w+=/.test(a))
  .map((a) => ({ name: a.slice(0, a.indexOf('=')), root: path.resolve(a.slice(a.indexOf('=') + 1)) }));
if (!checkouts.length) throw new Error('name=checkout, once or more (the first is the reference)');

/** The largest `summary:` / `totals:` of callgrind's dumps (counting was on only while measuring). */
function instructionsIn(files: string[]): number {
  let total = 0;
  for (const f of files)
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/^(?:summary|totals):\s+(\d+)/gm)) total = Math.max(total, Number(m[1]));
  return total;
}

async function count(name: string, root: string, dir: string): Promise<{ name: string; chats: number; instructionsPerChat: number }> {
  const out = path.join(dir, `${name}.callgrind`);
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${out}`,
      '--smc-check=all-non-file',
      process.execPath,
      '--import',
      'tsx',
      'bench/src/serve.ts',
      path.join(dir, `${name}.db`),
      String(chunks),
      '8',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  try {
    const served = await new Promise<Served>((resolve, reject) => {
      readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (l) => resolve(JSON.parse(l) as Served));
      child.once('exit', (code) => reject(new Error(`${name}: serve.ts under valgrind exited (${code}); is valgrind installed?`)));
    });
    // Two connections: requests overlap as under load, and the order stays close from run to run.
    const chats = async (amount: number) =>
      (await autocannon({ ...chatLoad(served, served.parleyUrl), connections: 2, amount })).requests.total;
    await chats(warm);
    const pid = String(child.pid);
    execFileSync('callgrind_control', ['--instr=on', pid], { stdio: 'ignore' });
    const n = await chats(measure);
    execFileSync('callgrind_control', ['--instr=off', pid], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--dump', pid], { stdio: 'ignore' });
    const dumps = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith(`${name}.callgrind`))
      .map((f) => path.join(dir, f));
    return { name, chats: n, instructionsPerChat: Math.round(instructionsIn(dumps) / n) };
  } finally {
    child.kill('SIGTERM');
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-http-instructions-'));
try {
  const results = [];
  for (const c of checkouts) {
    const r = await count(c.name, c.root, dir);
    results.push(r);
    console.error(`${r.name}: ${(r.instructionsPerChat / 1e6).toFixed(3)} M instructions a chat (${r.chats} counted after ${warm})`);
  }
  const ref = results[0]?.instructionsPerChat ?? NaN;
  console.log(
    JSON.stringify(
      { warm, measure, chunks, results: results.map((r) => ({ ...r, ratio: Math.round((r.instructionsPerChat / ref) * 1000) / 1000 })) },
      null,
      2,
    ),
  );
  console.log(`\n| checkout | instructions a chat | vs ${results[0]?.name} |\n|---|---|---|`);
  for (const r of results)
    console.log(`| ${r.name} | ${(r.instructionsPerChat / 1e6).toFixed(3)} M | ×${(r.instructionsPerChat / ref).toFixed(3)} |`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
