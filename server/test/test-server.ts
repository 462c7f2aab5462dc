import type { Config } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { migrate } from '../src/db/migrate.js';
import { openDb, type Db } from '../src/db/open.js';
import { seedDemo } from '../src/demo/seed.js';
import type { Clock } from '../src/lib/clock.js';
import { createLogger } from '../src/lib/logger.js';
import type { AnswerProviders } from '../src/answer/providers/types.js';
import { DEMO_KNOWLEDGE_DIR } from '../src/paths.js';
import { createContext, listen, type WebhookWorkerTuning } from '../src/server.js';
import type { Storage } from '../src/storage/port.js';
import { createSqliteStorage } from '../src/storage/sqlite.js';
import { freshPostgresStorage, testDatabase } from './postgres.js';
import type { DeliveryWorker } from '../src/webhooks/worker.js';
import type { UrlSourceTuning } from '../src/knowledge/web/url-sources.js';

/** Tests are silent unless PARLEY_TEST_LOG_LEVEL asks for more (to read what a flaky test's server did). */
function testLogLevel(): Config['logLevel'] {
  const level = process.env.PARLEY_TEST_LOG_LEVEL;
  return level === 'debug' || level === 'info' || level === 'warn' || level === 'error' ? level : 'silent';
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    databasePath: ':memory:',
    publicUrl: 'http://127.0.0.1:0',
    seedDemo: false,
    trustProxy: 0,
    registration: 'open',
    webhookAllowPrivate: false,
    logLevel: testLogLevel(),
    openaiApiKey: undefined,
    openaiBaseUrl: undefined,
    anthropicApiKey: undefined,
    anthropicBaseUrl: undefined,
    providerTimeoutMs: 30_000,
    ...overrides,
  };
}

export interface TestServer {
  /** Base URL, e.g. http://127.0.0.1:41234 (also the server's PUBLIC_URL). */
  url: string;
  ctx: AppContext;
  /** The webhook delivery worker (running); `drain()` delivers what is due now. */
  webhooks: DeliveryWorker;
  close(): Promise<void>;
}

/**
 * A real Parley on a random loopback port with a fresh database: in-memory SQLite, or, with
 * PARLEY_TEST_DATABASE=postgres, a fresh migrated PostgreSQL database of its own (server/test/
 * postgres.ts). A test that passes its own SQLite `db` stays on SQLite; one that passes a
 * `storage` (either dialect, migrated) gets a server on it. Limits stay in memory
 * unless the config asks for Redis: tests move a fake clock, and Redis keeps its own time.
 */
export async function startServer(
  opts: {
    config?: Partial<Config>;
    clock?: Clock;
    providers?: AnswerProviders;
    db?: Db;
    storage?: Storage;
    widgetFile?: string;
    dashboardDir?: string;
    webhooks?: WebhookWorkerTuning;
    urlSources?: UrlSourceTuning;
  } = {},
): Promise<TestServer> {
  const config = testConfig(opts.config);
  const logger = createLogger(config.logLevel);
  let storage: Storage;
  let release: () => Promise<void>;
  if (opts.storage) {
    // The caller's storage, prepared beforehand (migrated, seeded): the caller closes it.
    storage = opts.storage;
    release = async () => undefined;
  } else if (!opts.db && testDatabase === 'postgres') {
    const pg = await freshPostgresStorage();
    storage = pg.storage;
    release = () => pg.drop();
  } else {
    const db = opts.db ?? openDb(':memory:');
    migrate(db);
    storage = createSqliteStorage(db);
    release = async () => {
      if (!opts.db) db.close();
    };
  }
  const ctx = createContext({
    storage,
    config,
    logger,
    clock: opts.clock,
    providers: opts.providers,
    widgetFile: opts.widgetFile,
    dashboardDir: opts.dashboardDir,
  });
  const server = await listen(ctx, 0, '127.0.0.1', { webhooks: opts.webhooks, urlSources: opts.urlSources });
  const url = `http://127.0.0.1:${server.port}`;
  // The public URL is only known once listening; the app reads it per request.
  if (!opts.config?.publicUrl) config.publicUrl = url;
  return {
    url,
    ctx,
    webhooks: server.webhooks,
    close: async () => {
      await server.close();
      await release();
    },
  };
}

export interface DemoTestServer extends TestServer {
  apiKey: string;
  assistantId: string;
  knowledgeBaseId: string;
  organizationId: string;
}

/**
 * A real Parley seeded with the demo organization (knowledge from demo/knowledge, an assistant
 * whose widget allows the server's own origin, an all-permission API key). For connector and
 * widget end-to-end tests.
 */
export async function startTestServer(
  opts: { config?: Partial<Config>; clock?: Clock; providers?: AnswerProviders; dashboardDir?: string } = {},
): Promise<DemoTestServer> {
  const server = await startServer(opts);
  const demo = await seedDemo(server.ctx, { knowledgeDir: DEMO_KNOWLEDGE_DIR, publicUrl: server.url, nowMs: server.ctx.clock.now() });
  return {
    ...server,
    apiKey: demo.apiKey,
    assistantId: demo.assistantId,
    knowledgeBaseId: demo.knowledgeBaseId,
    organizationId: demo.organizationId,
  };
}
