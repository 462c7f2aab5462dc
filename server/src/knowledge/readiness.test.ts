import { describe, expect, it } from 'vitest';
import { createCorpus } from '../../../bench/src/corpus.js';
import { migrate } from '../db/migrate.js';
import { openDb } from '../db/open.js';
import { startServer } from '../../test/test-server.js';
import { createRetriever } from './retrieval.js';
import { createKnowledgeStore } from './store.js';

// GET /readyz (API.md §11): 200 only once the database answers and the retrieval index is built.

const AT = '2026-01-01T00:00:00.000Z';
const turn = () => new Promise((r) => setImmediate(r));

function corpusDb(documents: number) {
  const db = openDb(':memory:');
  migrate(db);
  db.prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_t', 'T', 'free', ?)").run(AT);
  const store = createKnowledgeStore(db);
  const kb = store.createKb('org_t', { name: 'kb', description: null }, AT);
  for (const doc of createCorpus({ documents, sectionsPerDocument: 4, sentencesPerSection: 3, vocabulary: 400, seed: 7 }).documents()) {
    store.addDocument(kb.id, { ...doc, format: 'markdown' }, AT);
  }
  return db;
}

describe('retrieval readiness', () => {
  it('is not ready while the memory index builds in the background, then ready on the memory engine', async () => {
    const db = corpusDb(600); // over one background slice of 2,000 chunks
    const retriever = createRetriever(db);
    retriever.warmUp();
    expect(retriever.ready()).toBe(false);
    for (let i = 0; i < 200 && !retriever.ready(); i++) await turn();
    expect(retriever.ready()).toBe(true);
    expect(retriever.engine()).toBe('memory');
    db.close();
  });

  it('is ready at once when FTS5 answers by design (memory index off)', () => {
    const db = corpusDb(5);
    const retriever = createRetriever(db, { memoryIndexMaxChunks: 0 });
    retriever.warmUp();
    expect(retriever.ready()).toBe(true);
    db.close();
  });

  it('GET /readyz answers 503 {"status":"starting"} before, 200 {"status":"ready"} after; /healthz is liveness throughout', async () => {
    const server = await startServer({ db: corpusDb(600) });
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
      server.db.close();
    }
  });
});
