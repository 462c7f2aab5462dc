/**
 * `npm run seed:traffic [-- --conversations N --days D --seed S]`: writes demo traffic through
 * the real chat path into the configured database's demo assistant (start the server once with
 * the demo first). Reads the same environment as `npm start`.
 */
import { parseArgs } from 'node:util';
import { createAssistantStore } from '../assistants/service.js';
import { loadConfig } from '../config.js';
import { migrate } from '../db/migrate.js';
import { openDb } from '../db/open.js';
import { createLogger } from '../lib/logger.js';
import { createContext } from '../server.js';
import { seedTraffic } from './traffic.js';

const { values } = parseArgs({
  options: {
    conversations: { type: 'string', default: '3000' },
    days: { type: 'string', default: '90' },
    seed: { type: 'string', default: '42' },
  },
});
const config = loadConfig(process.env);
const db = openDb(config.databasePath);
migrate(db);
const ctx = createContext({ db, config, logger: createLogger(config.logLevel) });
const assistantId = (await ctx.storage.get<{ value: string }>("SELECT value FROM settings WHERE key = 'demo_assistant_id'"))?.value;
const org = assistantId
  ? await ctx.storage.get<{ id: string }>('SELECT organization_id AS id FROM assistants WHERE id = ?', [assistantId])
  : undefined;
if (!assistantId || !org) {
  process.stderr.write('No demo assistant in this database: run `npm start` once (SEED_DEMO=true) first.\n');
  process.exit(1);
}
const result = await seedTraffic(ctx, createAssistantStore(ctx.storage), {
  organizationId: org.id,
  assistantId,
  nowMs: Date.now(),
  conversations: Number(values.conversations),
  days: Number(values.days),
  seed: Number(values.seed),
});
process.stdout.write(`Wrote ${result.conversations} conversations (${result.messages} messages) in ${result.ms} ms.\n`);
await ctx.storage.close();
