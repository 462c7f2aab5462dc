import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { REPO_ROOT } from '../../server/src/paths.js';
import { round } from './stats.js';

export interface Served {
  parleyUrl: string;
  bareUrl: string;
  assistantId: string;
  keys: string[];
  questions: string[];
  chunkCount: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  total: number;
}

/** One autocannon window (10 connections unless told); the shape every HTTP bench reports. */
export async function load(opts: autocannon.Options): Promise<LoadResult> {
  const r = await autocannon({ connections: 10, duration: 8, ...opts });
  return {
    requestsPerSecond: round(r.requests.average, 1),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    total: r.requests.total,
  };
}

/** bench/src/serve.ts in its own process (seeds `file`, then serves Parley on SQLite and bare Express). */
export async function startServe(opts: { chunks: number; file: string }): Promise<{ child: ChildProcess; served: Served }> {
  const child = spawn(
    path.join(REPO_ROOT, 'node_modules/.bin/tsx'),
    [path.join(REPO_ROOT, 'bench/src/serve.ts'), opts.file, String(opts.chunks)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const served = await new Promise<Served>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', (l) => resolve(JSON.parse(l) as Served));
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  return { child, served };
}

/** The chat request mix at `url`: the seeded questions in turn, spread over the seeded keys. */
export function chatLoad(served: Pick<Served, 'assistantId' | 'keys' | 'questions'>, url: string): autocannon.Options {
  let n = 0;
  const chatRequest = (): autocannon.Request => {
    const i = n++;
    return {
      method: 'POST',
      path: `/v1/integrations/${served.assistantId}/chat`,
      headers: { authorization: `Bearer ${served.keys[i % served.keys.length]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: served.questions[i % served.questions.length] }),
    };
  };
  return { url, requests: [{ setupRequest: () => chatRequest() }] };
}

/** The bare Express baseline: a JSON POST parsed and answered with JSON. */
export function bareLoad(served: Pick<Served, 'bareUrl' | 'questions'>): autocannon.Options {
  return {
    url: `${served.bareUrl}/bare`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: served.questions[0] }),
  };
}

/** The serve process's own CPU time (user + system, µs). */
export async function serveCpuMicros(served: Pick<Served, 'bareUrl'>): Promise<number> {
  return ((await (await fetch(`${served.bareUrl}/cpu`)).json()) as { micros: number }).micros;
}

/** Chat throughput and latency against a bare Express route, both in one server process. */
export async function runHttpBench(opts: { chunks: number; file: string; duration: number; rounds: number }) {
  const { child, served } = await startServe(opts);
  try {
    // Warm both paths (JIT, SQLite page cache) before measuring.
    const bareOpts = bareLoad(served);
    await load({ ...bareOpts, duration: 2 });
    const chatOpts = () => chatLoad(served, served.parleyUrl);
    await load({ ...chatOpts(), duration: 2 });
    // Bare and chat alternate, and the ratio of each pair is kept: this VM's speed drifts by
    // ±15 % from one ten-second window to the next, so one pair alone says little.
    // The server's own CPU time per request (both routes live in the serve process) is a second
    // figure: unlike throughput it barely moves when other processes take the cores.
    const cpuMicros = () => serveCpuMicros(served);
    const rounds: { bare: LoadResult; chat: LoadResult; ratio: number; bareCpuUs: number; chatCpuUs: number }[] = [];
    for (let i = 0; i < opts.rounds; i++) {
      const c0 = await cpuMicros();
      const bare = await load({ ...bareOpts, duration: opts.duration });
      const c1 = await cpuMicros();
      const chat = await load({ ...chatOpts(), duration: opts.duration });
      const c2 = await cpuMicros();
      rounds.push({
        bare,
        chat,
        ratio: round(chat.requestsPerSecond / bare.requestsPerSecond, 3),
        bareCpuUs: Math.round((c1 - c0) / Math.max(1, bare.total)),
        chatCpuUs: Math.round((c2 - c1) / Math.max(1, chat.total)),
      });
    }
    const byRatio = [...rounds].sort((a, b) => a.ratio - b.ratio);
    const median = byRatio[Math.floor((byRatio.length - 1) / 2)] as (typeof rounds)[number];
    const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
    return {
      chunks: served.chunkCount,
      bare: median.bare,
      chat: median.chat,
      ratio: median.ratio,
      ratios: rounds.map((r) => r.ratio),
      chatCpuUs: { median: medianOf(rounds.map((r) => r.chatCpuUs)), perRound: rounds.map((r) => r.chatCpuUs) },
      bareCpuUs: { median: medianOf(rounds.map((r) => r.bareCpuUs)), perRound: rounds.map((r) => r.bareCpuUs) },
    };
  } finally {
    child.kill('SIGTERM');
  }
}
