import { loadConfig, ConfigError } from './config.js';
import { openStorage } from './storage/open.js';
import { createAssistantStore } from './assistants/service.js';
import { DEMO_LOGIN, reissueDemoKey, seedDemo } from './demo/seed.js';
import { seedPendingDemoTraffic } from './demo/traffic.js';
import { reanalyzeAtStart } from './knowledge/reanalyze.js';
import { createLogger } from './lib/logger.js';
import { DEMO_KNOWLEDGE_DIR } from './paths.js';
import { createContext, listen } from './server.js';

/** The only place that reads the environment: config → database → app → listen. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  for (const warning of config.warnings ?? []) logger.warn(warning);
  // SQLite (file, WAL) or PostgreSQL (pool), migrated; PostgreSQL instances migrate one at a time.
  // Knowledge indexed before per-language analysis is analysed again, once (knowledge/reanalyze.ts).
  const { storage, isNew } = await openStorage(config.database ?? { kind: 'sqlite', path: config.databasePath }, logger, {
    afterMigrate: (s) => reanalyzeAtStart(s, logger),
  });

  const hasDemo = async () => !!(await storage.get("SELECT 1 AS one FROM settings WHERE key = 'demo_assistant_id'"));
  let demo: { apiKey: string; assistantId: string } | null = null;
  if (config.seedDemo ?? isNew) {
    demo = (await hasDemo())
      ? await reissueDemoKey({ storage }, Date.now())
      : await seedDemo({ storage }, { knowledgeDir: DEMO_KNOWLEDGE_DIR, publicUrl: config.publicUrl, nowMs: Date.now() });
  } else if (await hasDemo()) {
    demo = await reissueDemoKey({ storage }, Date.now());
  }

  const ctx = createContext({ storage, config, logger });
  const server = await listen(ctx, config.port, config.host);
  printBanner(config.publicUrl, demo);
  // First demo start: analytics traffic through the real chat path, in the background (demo/traffic.ts).
  const traffic = new AbortController();
  const trafficDone = seedPendingDemoTraffic(ctx, createAssistantStore(ctx.storage), {
    nowMs: Date.now(),
    conversations: config.demoTrafficConversations,
    signal: traffic.signal,
  })
    .then((r) => {
      if (r) logger.info('demo traffic written', { ...r });
    })
    .catch((err: unknown) => logger.error('demo traffic failed', { error: err instanceof Error ? err.stack : String(err) }));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down: finishing in-flight requests', { signal });
    traffic.abort();
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // The traffic writer stops after the conversation it is writing; its last commit must land
    // before the database closes.
    await trafficDone;
    await server.close();
    await storage.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

function printBanner(publicUrl: string, demo: { apiKey: string; assistantId: string } | null): void {
  const lines = [
    '',
    `  Parley is running at ${publicUrl}`,
    `  Dashboard:  ${publicUrl}/dashboard/`,
    `  API:        ${publicUrl}/v1   (health: ${publicUrl}/healthz)`,
  ];
  if (demo) {
    lines.push(
      `  Demo page:  ${publicUrl}/demo/`,
      `  Login:      ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}   (sign in at ${publicUrl}/dashboard/)`,
      `  Demo API key (shown once; a new one is issued at each start): ${demo.apiKey}`,
      '',
      '  Try it:',
      `  curl -s ${publicUrl}/v1/integrations/${demo.assistantId}/chat \\`,
      `    -H 'Authorization: Bearer ${demo.apiKey}' -H 'Content-Type: application/json' \\`,
      `    -d '{"message":"How do I add the chat widget to my website?"}'`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
