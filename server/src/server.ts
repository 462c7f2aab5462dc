import net from 'node:net';
import type { Server } from 'node:http';
import { createApp } from './app.js';
import type { UrlSourceTuning } from './knowledge/web/url-sources.js';
import { createProviders } from './answer/providers/index.js';
import type { AnswerProviders } from './answer/providers/types.js';
import { createCredentialResolver } from './auth/credentials.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import type { Db } from './db/open.js';
import type { Storage } from './storage/port.js';
import { createSqliteStorage } from './storage/sqlite.js';
import { BAD_TOKEN_LIMIT } from './auth/middleware.js';
import { createEmbeddings } from './knowledge/embeddings/index.js';
import { createLimitStore } from './limits/index.js';
import { systemClock, type Clock } from './lib/clock.js';
import type { Logger } from './lib/logger.js';
import { DASHBOARD_DIR, DEMO_DIR, WIDGET_FILE } from './paths.js';
import { createWebhookEvents } from './webhooks/events.js';
import { countingRefusals } from './metrics/limits.js';
import { createMetrics } from './metrics/metrics.js';
import { createDeliveryWorker, type DeliveryWorker, type WorkerOptions } from './webhooks/worker.js';

/** Wires a context from its parts; tests pass their own clock, providers and files. */
/** `db`: a SQLite connection to wrap in a storage (scripts and benches that open one themselves). */
export function createContext(parts: {
  db?: Db;
  storage?: Storage;
  config: Config;
  logger: Logger;
  clock?: Clock;
  providers?: AnswerProviders;
  widgetFile?: string;
  demoDir?: string;
  dashboardDir?: string;
}): AppContext {
  const clock = parts.clock ?? systemClock;
  if (!parts.storage && !parts.db) throw new Error('createContext needs a storage (or a SQLite connection)');
  const storage = parts.storage ?? createSqliteStorage(parts.db as Db);
  const metrics = createMetrics({ storage, logger: parts.logger });
  const limiter = countingRefusals(createLimitStore(parts.config.limits, { clock, logger: parts.logger }), metrics);
  return {
    storage,
    config: parts.config,
    logger: parts.logger,
    clock,
    limiter,
    metrics,
    credentials: createCredentialResolver(storage),
    authFailures: limiter.failureTracker('auth', BAD_TOKEN_LIMIT.perIp, BAD_TOKEN_LIMIT.windowMs),
    providers: parts.providers ?? createProviders(parts.config),
    webhooks: createWebhookEvents(storage, clock),
    embeddings: parts.config.embeddings
      ? createEmbeddings({ storage, config: parts.config.embeddings, logger: parts.logger, clock })
      : null,
    widgetFile: parts.widgetFile ?? WIDGET_FILE,
    dashboardDir: parts.dashboardDir ?? DASHBOARD_DIR,
    demoDir: parts.demoDir ?? DEMO_DIR,
  };
}

export type WebhookWorkerTuning = Partial<Pick<WorkerOptions, 'resolve' | 'pollMs' | 'timeoutMs' | 'stopGraceMs'>>;

/**
 * Listens and starts the webhook delivery worker; returns a close that finishes in-flight
 * requests (and gives webhook attempts in flight a short grace) before resolving.
 */
export async function listen(
  ctx: AppContext,
  port: number,
  host: string,
  opts: { webhooks?: WebhookWorkerTuning; urlSources?: UrlSourceTuning } = {},
): Promise<{ server: Server; port: number; webhooks: DeliveryWorker; close(): Promise<void> }> {
  const { app, maintain, webJobs } = createApp(ctx, { urlSources: opts.urlSources });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeout
  // Upkeep (idle ends, outbox pruning; one instance a round on PostgreSQL): UPKEEP_INTERVAL_MS.
  const timer = setInterval(() => {
    maintain().catch((err: unknown) => ctx.logger.error('maintenance failed', { error: String(err) }));
  }, ctx.config.upkeepIntervalMs ?? 60_000);
  timer.unref();
  const webhooks = createDeliveryWorker({
    outbox: ctx.webhooks.outbox,
    clock: ctx.clock,
    logger: ctx.logger,
    metrics: ctx.metrics,
    allowPrivate: ctx.config.webhookAllowPrivate,
    ...opts.webhooks,
  });
  webhooks.start();
  webJobs.start();
  ctx.embeddings?.worker.start();
  // Sockets with a request in progress: shutdown waits for those and closes every other one.
  // closeIdleConnections() alone misses a socket that connected but never sent a request,
  // and close() would wait for that client for ever.
  const sockets = new Set<import('node:net').Socket>();
  const busy = new Map<import('node:net').Socket, number>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      busy.delete(socket);
    });
  });
  /** Sockets that have sent at least one request: idle ones among them are keep-alive leftovers. */
  const served = new WeakSet<import('node:net').Socket>();
  server.on('request', (req, res) => {
    const socket = req.socket;
    served.add(socket);
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const n = (busy.get(socket) ?? 1) - 1;
      if (n > 0) busy.set(socket, n);
      else busy.delete(socket);
    });
  });
  /** A connection that sent no request within this long after shutdown began is dropped. */
  const SILENT_GRACE_MS = 1_000;
  let closingSince = 0;
  const closeUnused = (): void => {
    // Not server.closeIdleConnections(): it also closes a new connection whose request is
    // already on the wire but not yet parsed (the event loop was busy, e.g. writing the demo
    // traffic), and that client would see a reset. Idle keep-alive sockets go at once; a
    // socket that has not sent a request yet gets SILENT_GRACE_MS to start one.
    // Ended, not destroyed: the last response may still be in the socket's buffer, and a
    // destroy would turn it into a reset for the client.
    const graceOver = Date.now() - closingSince >= SILENT_GRACE_MS;
    for (const socket of sockets) {
      if (busy.has(socket)) continue;
      if (graceOver) socket.destroy();
      else if (served.has(socket) && !socket.writableEnded) socket.end();
    }
  };
  const address = server.address();
  const closeHttp = () =>
    new Promise<void>((resolve) => {
      clearInterval(timer);
      closingSince = Date.now();
      // In-flight requests finish; a keep-alive socket is closed as soon as it goes idle
      // (its request done), otherwise close() would wait for the client to hang up.
      const reaper = setInterval(closeUnused, 25);
      server.on('request', (_req, res) => res.setHeader('Connection', 'close'));
      // net.Server's close, not http.Server's: since Node 19 the latter also closes "idle"
      // connections, and a connection whose request has arrived but is not parsed yet (the event
      // loop was busy) counts as idle, so its client would get no answer. closeUnused decides.
      net.Server.prototype.close.call(server, () => {
        clearInterval(reaper);
        resolve();
      });
      closeUnused();
    });
  return {
    server,
    port: typeof address === 'object' && address ? address.port : port,
    webhooks,
    close: async () => {
      // One full turn of the event loop first: its poll phase accepts connections the kernel
      // has already completed, which closing the listener would otherwise reset.
      await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
      // Web fetch jobs stop too: a POST waiting on one answers at once, running ones go back to the queue.
      await Promise.all([closeHttp(), webhooks.stop(), webJobs.stop(), ctx.embeddings?.worker.stop()]);
      await ctx.limiter.close(); // after the last request: its Redis connection, if any
    },
  };
}
