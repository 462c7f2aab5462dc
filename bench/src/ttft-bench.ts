/**
 * Time to first token added by Parley on top of the model provider.
 *
 * An OpenAI-protocol fake (server/test/fake-openai.ts) runs in this process with a fixed
 * "model" time to first token; Parley runs in a child process with the fake as its
 * OPENAI_BASE_URL; the client (this process) streams chats over loopback, one at a time.
 * The fake and the client share one clock, so for each request:
 *
 *   client TTFT  = first `delta` event at the client − request sent
 *   provider TTFT = first text written by the fake − request received by the fake
 *   added        = client TTFT − provider TTFT
 *               = before the provider (HTTP, auth, rate limit, history, retrieval, prompt,
 *                 connecting) + relay of the first text (SSE parse, gates, SSE write),
 *                 loopback hops included.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { REPO_ROOT } from '../../server/src/paths.js';
import { startFakeOpenAi } from '../../server/test/fake-openai.js';
import { summarize } from './stats.js';

interface Served {
  url: string;
  assistantId: string;
  key: string;
  questions: string[];
}

/** The fake model's own time to first token; subtracted, so its value does not matter much. */
const PROVIDER_TTFT_MS = 20;

/**
 * One streamed chat; resolves with when the first `delta` event arrived (null if none). The
 * client is node:http on a keep-alive agent: the lightest client, so that what is measured is
 * the server, not the client's HTTP stack (fetch adds ~0.5 ms per request on loopback).
 */
function chatFirstDelta(
  url: string,
  key: string,
  message: string,
  agent: http.Agent,
): Promise<{ sentAt: number; firstDeltaAt: number | null }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ message });
    const sentAt = performance.now();
    let first: number | null = null;
    let seen = '';
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (first !== null) return;
          seen += chunk;
          if (seen.includes('event: delta')) first = performance.now();
        });
        res.on('end', () => resolve({ sentAt, firstDeltaAt: first }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function runTtftBench(opts: { chunks: number; file: string; requests: number }) {
  const fake = await startFakeOpenAi({
    apiKey: 'sk-bench',
    reply: { chunks: ['The', ' answer', ' is', ' in', ' the', ' passage', ' [1]', '.'], firstDelayMs: PROVIDER_TTFT_MS, delayMs: 1 },
  });
  const child = spawn(
    path.join(REPO_ROOT, 'node_modules/.bin/tsx'),
    [path.join(REPO_ROOT, 'bench/src/ttft-serve.ts'), opts.file, String(opts.chunks), `${fake.url}/v1`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const served = await new Promise<Served>((resolve, reject) => {
      readline.createInterface({ input: child.stdout }).once('line', (l) => resolve(JSON.parse(l) as Served));
      child.once('exit', (code) => reject(new Error(`ttft bench server exited (${code})`)));
    });
    const added: number[] = [];
    const before: number[] = [];
    const relay: number[] = [];
    const clientTtft: number[] = [];
    let skipped = 0;
    const warmup = 40;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < warmup + opts.requests; i++) {
      const question = served.questions[i % served.questions.length] as string;
      const seen = fake.requests.length;
      const { sentAt: t0, firstDeltaAt: t1 } = await chatFirstDelta(
        `${served.url}/v1/integrations/${served.assistantId}/chat`,
        served.key,
        question,
        agent,
      );
      const r = fake.requests[seen];
      // No passage retrieved → no model call; nothing to time.
      if (t1 === null || !r || r.firstTextAt === null) {
        skipped++;
        continue;
      }
      if (i < warmup) continue;
      const providerTtft = r.firstTextAt - r.receivedAt;
      clientTtft.push(t1 - t0);
      added.push(t1 - t0 - providerTtft);
      before.push(r.receivedAt - t0);
      relay.push(t1 - r.firstTextAt);
    }
    return {
      chunks: opts.chunks,
      providerTtftMs: PROVIDER_TTFT_MS,
      skipped,
      addedMs: summarize(added),
      beforeProviderMs: summarize(before),
      relayMs: summarize(relay),
      clientTtftMs: summarize(clientTtft),
    };
  } finally {
    child.kill('SIGTERM');
    await fake.close();
  }
}
