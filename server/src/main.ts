import { loadConfig, ConfigError } from './config.js';
import { migrate } from './db/migrate.js';
import { openDb } from './db/open.js';
import { createAssistantStore } from './assistants/service.js';
import { DEMO_LOGIN, reissueDemoKey, seedDemo } from './demo/seed.js';
import { seedPendingDemoTraffic } from './demo/traffic.js';
import { createLogger } from './lib/logger.js';
import { DEMO_KNOWLEDGE_DIR } from './paths.js';
import { createContext, listen } from './server.js';

/** The only place that reads the environment: config → database → app → listen. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const db = openDb(config.databasePath);
  const { applied } = migrate(db);
  const isNewDatabase = applied.includes('001-init.sql');
  if (applied.length) logger.info('database migrated', { applied, path: config.databasePath });

  let demo: { apiKey: string; assistantId: string } | null = null;
  if (config.seedDemo ?? isNewDatabase) {
    const hasDemo = db.prepare("SELECT 1 FROM settings WHERE key = 'demo_assistant_id'").get();
    demo = hasDemo ? reissueDemoKey(db, Date.now()) : await seedDemo(db, { knowledgeDir: DEMO_KNOWLEDGE_DIR, publicUrl: config.publicUrl, nowMs: Date.now() });
  } else if (db.prepare("SELECT 1 FROM settings WHERE key = 'demo_assistant_id'").get()) {
    demo = reissueDemoKey(db, Date.now());
  }

  const ctx = createContext({ db, config, logger });
  const server = await listen(ctx, config.port, config.host);
  printBanner(config.publicUrl, demo);
  // First demo start: analytics traffic through the real chat path, in the background (demo/traffic.ts).
  const traffic = new AbortController();
  const trafficDone = seedPendingDemoTraffic(ctx, createAssistantStore(db), { nowMs: Date.now(), conversations: config.demoTrafficConversations, signal: traffic.signal })
    .then((r) => { if (r) logger.info('demo traffic written', { ...r }); })
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
    db.close();
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
