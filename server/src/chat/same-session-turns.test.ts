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

const N = 8;

// Turns of one session sent at once (a double-clicked send, a retrying client). On PostgreSQL
// their transactions run side by side: each must still land whole, the session's messages in
// gapless seq order with every question directly followed by its own answer.
// Run with PARLEY_TEST_DATABASE=postgres for the case that matters.
it('answers parallel turns of one session, each question followed by its answer', async () => {
  const shop = await setupShop(server.url);
  const first = await shop.keyApi.post(shop.chatPath, { message: 'How do I reset my password?', sessionId: 'one-session' });
  expect(first.status).toBe(200);
  const turns = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      shop.keyApi.post(shop.chatPath, { message: `How do I reset my password? (${i})`, sessionId: 'one-session' }),
    ),
  );
  expect(turns.map((t) => t.status)).toEqual(turns.map(() => 200));
  const rows = await server.ctx.storage.all<{ seq: number; role: string; content: string }>(
    "SELECT m.seq, m.role, m.content FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.session_id = 'one-session' ORDER BY m.seq",
  );
  expect(rows).toHaveLength(2 * (N + 1));
  const seqs = rows.map((r) => r.seq);
  expect(seqs).toEqual(seqs.map((_s, i) => (seqs[0] as number) + i));
  expect(rows.map((r) => r.role)).toEqual(rows.map((_r, i) => (i % 2 ? 'assistant' : 'user')));
});

it('answers parallel first turns of a new session in one conversation', async () => {
  const shop = await setupShop(server.url);
  const turns = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      shop.keyApi.post(shop.chatPath, { message: `How do I reset my password? (${i})`, sessionId: 'new-session' }),
    ),
  );
  expect(turns.map((t) => t.status)).toEqual(turns.map(() => 200));
  const conversations = await server.ctx.storage.all("SELECT id FROM conversations WHERE session_id = 'new-session'");
  expect(conversations).toHaveLength(1);
  const rows = await server.ctx.storage.all<{ role: string }>(
    "SELECT m.role FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.session_id = 'new-session' ORDER BY m.seq",
  );
  expect(rows.map((r) => r.role)).toEqual(Array.from({ length: 2 * N }, (_v, i) => (i % 2 ? 'assistant' : 'user')));
});
