/**
 * The server side of the HTTP benchmark, in its own process so that the load generator does
 * not share its CPU time: Parley on a seeded corpus, and a bare Express route beside it.
 */
import express from 'express';
import { insertApiKey } from '../../server/src/api-keys/service.js';
import { assistantConfigSchema } from '../../server/src/assistants/schemas.js';
import { createAssistantStore } from '../../server/src/assistants/service.js';
import { testConfig } from '../../server/test/test-server.js';
import { createLogger } from '../../server/src/lib/logger.js';
import { createContext, listen } from '../../server/src/server.js';
import { seedCorpusDb } from './seed-corpus.js';

const [file = '/tmp/parley-bench.db', chunksArg = '10000', keysArg = '64'] = process.argv.slice(2);
const seeded = await seedCorpusDb(file, Number(chunksArg));
const at = new Date().toISOString();
const assistant = await createAssistantStore(seeded.storage).create(
  seeded.organizationId,
  'api',
  assistantConfigSchema.parse({
    name: 'Bench',
    knowledgeBases: [{ id: seeded.knowledgeBaseId, priority: 5 }],
  }),
  at,
);
// Many keys: each is held to the enterprise 1,000/min, so load spreads over them.
const keys = Array.from(
  { length: Number(keysArg) },
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
const chunkCount = (seeded.db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;

const config = testConfig({ logLevel: 'error' });
const parley = await listen(createContext({ storage: seeded.storage, config, logger: createLogger('error') }), 0, '127.0.0.1');
const bare = express();
// The baseline is the same kind of route as chat: a JSON POST parsed and answered with JSON.
bare.post('/bare', express.json(), (req, res) => {
  res.json({ response: String(req.body?.message ?? ''), sessionId: 'bare' });
});
// This process's CPU time (user + system, µs), read by the load generator around each window.
bare.get('/cpu', (_req, res) => {
  const u = process.cpuUsage();
  res.json({ micros: u.user + u.system });
});
const bareServer = bare.listen(0, '127.0.0.1');
await new Promise((r) => bareServer.once('listening', r));
const barePort = (bareServer.address() as { port: number }).port;

process.stdout.write(
  JSON.stringify({
    parleyUrl: `http://127.0.0.1:${parley.port}`,
    bareUrl: `http://127.0.0.1:${barePort}`,
    assistantId: assistant.id,
    keys,
    questions: seeded.questions,
    chunkCount,
    ingestSeconds: seeded.seconds,
    ingestBytes: seeded.bytes,
  }) + '\n',
);
process.on('SIGTERM', () => process.exit(0));
