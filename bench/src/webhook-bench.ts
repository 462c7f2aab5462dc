/**
 * Webhooks (issue: durable, signed, retried): how many deliveries per second the outbox pushes
 * to a local receiver, what queuing costs inside a chat's write transaction, and how much
 * latency the chat path gains when its organization has 3 subscribed endpoints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { insertApiKey } from '../../server/src/api-keys/service.js';
import { assistantConfigSchema } from '../../server/src/assistants/schemas.js';
import { createAssistantStore } from '../../server/src/assistants/service.js';
import { migrate } from '../../server/src/db/migrate.js';
import { openDb } from '../../server/src/db/open.js';
import { systemClock } from '../../server/src/lib/clock.js';
import { createLogger } from '../../server/src/lib/logger.js';
import { REPO_ROOT } from '../../server/src/paths.js';
import { createContext, listen } from '../../server/src/server.js';
import { createSqliteStorage } from '../../server/src/storage/sqlite.js';
import { createWebhookEvents } from '../../server/src/webhooks/events.js';
import { createWebhookStore } from '../../server/src/webhooks/store.js';
import { createDeliveryWorker } from '../../server/src/webhooks/worker.js';
import { testConfig } from '../../server/test/test-server.js';
import { seedCorpusDb } from './seed-corpus.js';
import { round, summarize } from './stats.js';

/** A receiver in its own process (so it does not share the worker's CPU time) that answers 200. */
async function startReceiverProcess(): Promise<{ url: string; stop(): void }> {
  const code = `const http = require('node:http');
const s = http.createServer((q, r) => { q.resume(); q.on('end', () => { r.writeHead(200); r.end(); }); });
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;
  const child: ChildProcess = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
    child.once('exit', (c) => reject(new Error(`receiver exited (${c})`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

const silent = createLogger('silent');

/** Events queued up front, then delivered by one worker: deliveries per second end to end. */
async function outboxThroughput(file: string, receiverUrl: string, events: number, endpoints: number) {
  const db = openDb(file);
  migrate(db);
  const at = new Date().toISOString();
  db.prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_wh', 'Bench', 'enterprise', ?)").run(at);
  const storage = createSqliteStorage(db);
  const store = createWebhookStore(storage);
  for (let i = 0; i < endpoints; i++)
    await store.create('org_wh', { url: `${receiverUrl}/e${i}`, events: ['*'], assistantId: null, description: null }, at);
  const webhooks = createWebhookEvents(storage, systemClock);
  const t0 = performance.now();
  const enqueue = (n: number) =>
    storage.tx(async (tx) => {
      for (let i = 0; i < n; i++) {
        await webhooks.outbox.enqueue(tx, 'org_wh', [
          {
            type: 'message.received',
            assistantIds: null,
            data: {
              integrationId: 'asst_bench',
              sessionId: `s-${i}`,
              message: 'How do I reset my password?',
              metadata: { userId: `u-${i}` },
            },
          },
        ]);
      }
    });
  for (let done = 0; done < events; done += 100) await enqueue(Math.min(100, events - done));
  const enqueueSeconds = (performance.now() - t0) / 1000;
  const worker = createDeliveryWorker({ outbox: webhooks.outbox, clock: systemClock, logger: silent, allowPrivate: true, concurrency: 32 });
  const t1 = performance.now();
  await worker.drain();
  const seconds = (performance.now() - t1) / 1000;
  await worker.stop();
  const delivered = (await storage.get<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'"))?.n ?? 0;
  await storage.close();
  if (delivered !== events * endpoints) throw new Error(`webhook bench: ${delivered} of ${events * endpoints} delivered`);
  return {
    endpoints,
    events,
    deliveries: delivered,
    seconds: round(seconds, 2),
    deliveriesPerSecond: round(delivered / seconds, 0),
    eventsPerSecond: round(events / seconds, 0),
    enqueueUsPerEvent: round((enqueueSeconds * 1e6) / events, 1),
  };
}

function postJson(agent: http.Agent, url: URL, token: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The server side of the chat measurement, in its own process (`--serve-chat`) so the load
 * generator does not share its event loop: Parley on a seeded corpus, with 3 endpoints (all
 * events) that the client switches on and off over stdin (`on`, `off`, `drain`, `turn`).
 */
async function serveChat(file: string, receiverUrl: string, chunks: number): Promise<void> {
  const seeded = await seedCorpusDb(file, chunks);
  const at = new Date().toISOString();
  const ctx = createContext({ db: seeded.db, config: testConfig({ logLevel: 'error', webhookAllowPrivate: true }), logger: silent });
  const assistant = await createAssistantStore(ctx.storage).create(
    seeded.organizationId,
    'api',
    assistantConfigSchema.parse({ name: 'Bench', knowledgeBases: [{ id: seeded.knowledgeBaseId, priority: 5 }] }),
    at,
  );
  const keys = Array.from(
    { length: 16 },
    () =>
      insertApiKey(
        seeded.db,
        seeded.organizationId,
        {
          name: 'bench',
          permissions: ['chat'],
          assistantId: null,
          allowedIps: [],
          rateLimit: { perMinute: null, perDay: null },
          expiresAt: null,
        },
        at,
      ).key,
  );
  const store = createWebhookStore(ctx.storage);
  for (let i = 0; i < 3; i++)
    await store.create(seeded.organizationId, { url: `${receiverUrl}/chat-${i}`, events: ['*'], assistantId: null, description: null }, at);
  const setEndpoints = (on: boolean) => seeded.db.prepare('UPDATE webhook_endpoints SET enabled = ?').run(on ? 1 : 0);
  const server = await listen(ctx, 0, '127.0.0.1');

  // What queuing costs inside a write transaction: one new conversation's first turn (6 events) for 3 endpoints.
  const conversation = {
    id: 'conv_x',
    organizationId: seeded.organizationId,
    assistantId: assistant.id,
    sessionId: 's',
    channel: 'api' as const,
    userId: 'u',
    source: null,
    metadata: { userId: 'u' },
    status: 'active' as const,
    startedAt: at,
    lastMessageAt: at,
    endedAt: null,
  };
  const message = (role: 'user' | 'assistant') => ({
    id: `msg_${role}`,
    role,
    content: 'How do I reset my password? Open Settings, choose Security.',
    timestamp: at,
  });
  const turnEvents = {
    conversation,
    isNewConversation: true,
    userMessage: message('user'),
    assistantMessage: message('assistant'),
    metadata: { userId: 'u' },
    confidence: 0.8,
    sources: [{ title: 'Account help', url: 'https://example.com/a' }],
  };
  // The time spent inside the transaction writing the events (not the commit or the queue before it).
  const queueCost = async () => {
    const samples: number[] = [];
    for (let i = 0; i < 500; i++) {
      await ctx.storage.tx(async (tx) => {
        const t0 = performance.now();
        await ctx.webhooks.chatTurn(tx, turnEvents);
        samples.push((performance.now() - t0) * 1000);
      });
    }
    seeded.db.prepare("UPDATE webhook_deliveries SET status = 'failed' WHERE status = 'pending'").run(); // not for delivery
    return summarize(samples);
  };

  const reply = (v: unknown) => process.stdout.write(`${JSON.stringify(v)}\n`);
  reply({ url: `http://127.0.0.1:${server.port}/v1/integrations/${assistant.id}/chat`, keys, questions: seeded.questions });
  for await (const line of readline.createInterface({ input: process.stdin })) {
    if (line === 'on' || line === 'off') reply(setEndpoints(line === 'on').changes);
    else if (line === 'drain') reply(await server.webhooks.drain());
    else if (line === 'turn') reply(await queueCost());
    else if (line === 'delivered')
      reply((seeded.db.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'").get() as { n: number }).n);
  }
  await server.close();
  seeded.db.close();
}

/**
 * Sequential chats in alternating blocks with the organization's 3 endpoints enabled and
 * disabled; the worker is drained between blocks so a baseline block never carries the
 * previous block's deliveries. Two loads: paced (one chat every `pacedMs`: what the request
 * path itself pays) and closed-loop (the next chat as soon as the last answered, so each chat
 * shares the event loop with the previous one's 18 deliveries: the worst case).
 */
async function chatLatency(file: string, receiverUrl: string, opts: { chunks: number; blocks: number; perBlock: number; pacedMs: number }) {
  const child = spawn(
    path.join(REPO_ROOT, 'node_modules/.bin/tsx'),
    [new URL(import.meta.url).pathname, '--serve-chat', file, receiverUrl, String(opts.chunks)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  const next = async <T>(): Promise<T> => {
    const r = await lines.next();
    if (r.done) throw new Error('bench server exited');
    return JSON.parse(r.value as string) as T;
  };
  const ask = <T>(command: string): Promise<T> => {
    (child.stdin as NodeJS.WritableStream).write(`${command}\n`);
    return next<T>();
  };
  const served = await next<{ url: string; keys: string[]; questions: string[] }>();
  const url = new URL(served.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let n = 0;
  const chatOnce = async (): Promise<number> => {
    const i = n++;
    const body = JSON.stringify({
      message: served.questions[i % served.questions.length],
      sessionId: `bench-${i % 50}`,
      metadata: { userId: `u-${i % 50}` },
    });
    const t0 = performance.now();
    const status = await postJson(agent, url, served.keys[i % served.keys.length] as string, body);
    if (status !== 200) throw new Error(`chat answered ${status}`);
    return performance.now() - t0;
  };
  const measure = async (pacedMs: number) => {
    const off: number[] = [];
    const on: number[] = [];
    for (let b = 0; b < opts.blocks; b++) {
      const enabled = b % 2 === 1;
      await ask(enabled ? 'on' : 'off');
      for (let i = 0; i < opts.perBlock; i++) {
        const started = performance.now();
        (enabled ? on : off).push(await chatOnce());
        const rest = pacedMs - (performance.now() - started);
        if (rest > 0) await new Promise((r) => setTimeout(r, rest));
      }
      await ask('drain');
    }
    const offStats = summarize(off);
    const onStats = summarize(on);
    return {
      withoutWebhooksMs: offStats,
      withWebhooksMs: onStats,
      addedP50Ms: round(onStats.p50 - offStats.p50),
      addedMeanMs: round(onStats.mean - offStats.mean),
    };
  };

  try {
    await ask('on');
    for (let i = 0; i < 100; i++) await chatOnce(); // warm both paths: JIT, page cache, sockets
    await ask('drain');
    const paced = { chatsPerSecond: round(1000 / opts.pacedMs, 1), ...(await measure(opts.pacedMs)) };
    const closedLoop = await measure(0);
    const delivered = await ask<number>('delivered');
    const queueInTransactionUs = await ask<ReturnType<typeof summarize>>('turn');
    return {
      chunks: opts.chunks,
      endpoints: 3,
      requestsPerLoad: opts.blocks * opts.perBlock,
      deliveriesDuringRun: delivered,
      paced,
      closedLoop,
      queueInTransactionUs,
    };
  } finally {
    agent.destroy();
    (child.stdin as NodeJS.WritableStream).end();
    child.kill('SIGTERM');
  }
}

export async function runWebhookBench(opts: { dir: string; quick: boolean }) {
  const receiver = await startReceiverProcess();
  try {
    const events = opts.quick ? 2_000 : 10_000;
    const single = await outboxThroughput(path.join(opts.dir, 'wh-1.db'), receiver.url, events, 1);
    const fanout = await outboxThroughput(path.join(opts.dir, 'wh-8.db'), receiver.url, Math.round(events / 2), 8);
    const chat = await chatLatency(path.join(opts.dir, 'wh-chat.db'), receiver.url, {
      chunks: 10_000,
      blocks: opts.quick ? 10 : 40,
      perBlock: opts.quick ? 30 : 50,
      pacedMs: 50,
    });
    return { single, fanout, chat };
  } finally {
    receiver.stop();
  }
}

/** The rows of `npm run bench`'s table. */
export function webhookRows(r: Awaited<ReturnType<typeof runWebhookBench>>): [string, string, string][] {
  const c = r.chat;
  return [
    [
      'webhooks: outbox → local receiver, 1 endpoint',
      `${r.single.deliveriesPerSecond} deliveries/s`,
      `in event order, one at a time; ${r.single.deliveries} events`,
    ],
    [
      'webhooks: outbox → local receiver, 8 endpoints',
      `${r.fanout.deliveriesPerSecond} deliveries/s`,
      `${r.fanout.eventsPerSecond} events/s, each to 8 endpoints`,
    ],
    [
      'webhooks: chat p50 added, 3 endpoints, paced',
      `${c.paced.addedP50Ms} ms`,
      `${c.paced.chatsPerSecond} chats/s: p50 ${c.paced.withoutWebhooksMs.p50} → ${c.paced.withWebhooksMs.p50} ms (target < 1 ms)`,
    ],
    [
      'webhooks: chat p50 added, 3 endpoints, closed loop',
      `${c.closedLoop.addedP50Ms} ms`,
      `p50 ${c.closedLoop.withoutWebhooksMs.p50} → ${c.closedLoop.withWebhooksMs.p50} ms, p99 ${c.closedLoop.withoutWebhooksMs.p99} → ${c.closedLoop.withWebhooksMs.p99} ms`,
    ],
    [
      'webhooks: events of a first chat turn, in its transaction',
      `p50 ${c.queueInTransactionUs.p50} µs`,
      `p99 ${c.queueInTransactionUs.p99} µs (6 events, 3 endpoints)`,
    ],
  ];
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain && process.argv[2] === '--serve-chat') {
  const [file = '', receiverUrl = '', chunks = '10000'] = process.argv.slice(3);
  await serveChat(file, receiverUrl, Number(chunks));
} else if (isMain) {
  // `npx tsx bench/src/webhook-bench.ts [--quick]`: this part of the bench alone.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-webhook-bench-'));
  const result = await runWebhookBench({ dir, quick: process.argv.includes('--quick') });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
}
