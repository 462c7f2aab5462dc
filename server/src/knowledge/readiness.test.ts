import { describe, expect, it } from 'vitest';
import { createCorpus } from '../../../bench/src/corpus.js';
import { freshPostgresStorage, testDatabase } from '../../test/postgres.js';
import { startServer } from '../../test/test-server.js';
import type { Storage } from '../storage/port.js';
import { createRetriever } from './retrieval.js';
import { createKnowledgeStore } from './store.js';
import { openTestStorage } from '../../test/knowledge-storage.js';

// GET /readyz (docs/api-spec.md §11): 200 only once the database answers and the retrieval index is built.

const AT = '2026-01-01T00:00:00.000Z';
const turn = () => new Promise((r) => setImmediate(r));

async function corpusDb(documents: number) {
  return seedCorpus(await openTestStorage(), documents);
}

/** `documents` generated documents in a knowledge base of `org_t` (which must exist). */
async function seedCorpus<S extends Storage>(storage: S, documents: number): Promise<S> {
  const store = createKnowledgeStore(storage);
  const kb = await store.createKb('org_t', { name: 'kb', description: null }, AT);
  await store.write(async (w) => {
    for (const doc of createCorpus({ documents, sectionsPerDocument: 4, sentencesPerSection: 3, vocabulary: 400, seed: 7 }).documents()) {
      await w.addDocument(kb.id, { ...doc, format: 'markdown' }, AT);
    }
  });
  return storage;
}

describe('retrieval readiness', () => {
  it('is not ready while the memory index builds in the background, then ready on the memory engine', async () => {
    const storage = await corpusDb(600); // over one background slice of 2,000 chunks
    const retriever = createRetriever(storage);
    retriever.warmUp();
    expect(retriever.ready()).toBe(false);
    for (let i = 0; i < 200 && !retriever.ready(); i++) await turn();
    expect(retriever.ready()).toBe(true);
    expect(retriever.engine()).toBe('memory');
    await storage.close();
  });

  it('is ready at once when FTS5 answers by design (memory index off)', async () => {
    const storage = await corpusDb(5);
    const retriever = createRetriever(storage, { memoryIndexMaxChunks: 0 });
    retriever.warmUp();
    expect(retriever.ready()).toBe(true);
    await storage.close();
  });

  it('GET /readyz answers 503 {"status":"starting"} before, 200 {"status":"ready"} after; /healthz is liveness throughout', async () => {
    // The project's database (SQLite or PostgreSQL), filled before the server starts.
    const pg = testDatabase === 'postgres' ? await freshPostgresStorage() : null;
    const storage = pg ? pg.storage : await openTestStorage();
    if (pg) await storage.run("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_t', 'T', 'free', ?)", [AT]);
    await seedCorpus(storage, 600);
    const server = await startServer({ storage });
    try {
      const first = await fetch(`${server.url}/readyz`);
      expect([200, 503]).toContain(first.status);
      expect(await first.json()).toEqual({ status: first.status === 200 ? 'ready' : 'starting' });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      let status = first.status;
      for (let i = 0; i < 100 && status !== 200; i++) status = (await fetch(`${server.url}/readyz`)).status;
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
    } finally {
      await server.close();
      if (pg) await pg.drop();
      else await storage.close();
    }
  });
});
