import { afterEach, beforeEach, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { startServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

// messages.seq was MAX(seq) + 1 on both databases: PostgreSQL transactions running side by side
// read the same max and all but one chat turn failed on messages_seq_key (found by
// `npm run bench:scale-out`). Run with PARLEY_TEST_DATABASE=postgres for the case that matters.
it('answers chat turns sent at the same time, each message with its own seq', async () => {
  const shop = await setupShop(server.url);
  const turns = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      shop.keyApi.post(shop.chatPath, { message: 'How do I reset my password?', sessionId: `parallel-${i}` }),
    ),
  );
  expect(turns.map((t) => t.status)).toEqual(turns.map(() => 200));
  const rows = await server.ctx.storage.all<{ seq: number }>(
    "SELECT seq FROM messages WHERE conversation_id IN (SELECT id FROM conversations WHERE session_id LIKE 'parallel-%')",
  );
  expect(rows).toHaveLength(24);
  expect(new Set(rows.map((r) => r.seq)).size).toBe(24);
});
