/**
 * The server side of the time-to-first-token benchmark, in its own process: Parley on a
 * seeded corpus with an assistant whose model is the OpenAI-protocol fake at argv[3].
 */
import { insertApiKey } from '../../server/src/api-keys/service.js';
import { assistantConfigSchema } from '../../server/src/assistants/schemas.js';
import { createAssistantStore } from '../../server/src/assistants/service.js';
import { createLogger } from '../../server/src/lib/logger.js';
import { createContext, listen } from '../../server/src/server.js';
import { testConfig } from '../../server/test/test-server.js';
import { seedCorpusDb } from './seed-corpus.js';

const [file = '/tmp/parley-ttft.db', chunksArg = '10000', openaiBaseUrl = 'http://127.0.0.1:1/v1'] = process.argv.slice(2);
const seeded = await seedCorpusDb(file, Number(chunksArg));
const at = new Date().toISOString();
// Threshold 0: every answer takes the live-streaming path (holding weak answers until their
// first citation is a policy, not server overhead).
const assistant = await createAssistantStore(seeded.storage).create(
  seeded.organizationId,
  'api',
  assistantConfigSchema.parse({
    name: 'TTFT bench',
    knowledgeBases: [{ id: seeded.knowledgeBaseId, priority: 5 }],
    model: { provider: 'openai', name: 'bench-model' },
    confidenceThreshold: 0,
  }),
  at,
);
const key = insertApiKey(
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
).key;

const config = testConfig({ logLevel: 'error', openaiApiKey: 'sk-bench', openaiBaseUrl });
const parley = await listen(createContext({ storage: seeded.storage, config, logger: createLogger('error') }), 0, '127.0.0.1');
process.stdout.write(
  JSON.stringify({ url: `http://127.0.0.1:${parley.port}`, assistantId: assistant.id, key, questions: seeded.questions }) + '\n',
);
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
