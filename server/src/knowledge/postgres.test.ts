import { afterEach, describe, expect, it } from 'vitest';
import { freshPostgresStorage, type FreshPostgres } from '../../test/postgres.js';
import { createRetriever } from './retrieval.js';
import { createKnowledgeStore } from './store.js';
import { listDocumentChunks } from './chunks.js';
import type { IngestJob } from './web/job-types.js';
import { createJobRunner } from './web/jobs.js';
import { systemClock } from '../lib/clock.js';
import { createLogger } from '../lib/logger.js';

// The knowledge store and both retrieval engines on PostgreSQL: the same SQL as on SQLite, and
// the tsvector full-text index (full-text.ts) over the schema's generated `tsv` column.

const AT = '2026-01-01T00:00:00.000Z';
let pg: FreshPostgres | null = null;
afterEach(async () => {
  await pg?.drop();
  pg = null;
});

async function setup() {
  pg = await freshPostgresStorage();
  const { storage } = pg;
  await storage.run("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_t', 'T', 'free', ?)", [AT]);
  const store = createKnowledgeStore(storage);
  const kb = await store.createKb('org_t', { name: 'Help', description: null }, AT);
  const add = async (title: string, content: string, url: string | null = null) =>
    store.addDocument(kb.id, { title, content, format: 'markdown', url }, AT);
  return { storage, store, kb, add };
}

describe('knowledge on PostgreSQL', () => {
  it('stores, lists, replaces by url and deletes documents with their chunks', async () => {
    const { storage, store, kb, add } = await setup();
    const first = await add(
      'Shipping',
      '# Shipping\n\nParcels leave the warehouse within two days.\n\n## Abroad\n\nCustoms fees are paid by the buyer.',
      'https://shop.example/shipping',
    );
    expect(first.chunkCount).toBeGreaterThan(0);
    expect((await store.listKbs('org_t', null, { limit: 10, offset: 0 })).items[0]).toMatchObject({
      id: kb.id,
      documentCount: 1,
      chunkCount: first.chunkCount,
    });
    expect((await store.listKbs('org_t', [], { limit: 10, offset: 0 })).total).toBe(0);
    const chunks = await listDocumentChunks(storage, first.id, { limit: 10, offset: 0 });
    expect(chunks.items.map((c) => c.ordinal)).toEqual(chunks.items.map((_c, i) => i));
    expect(chunks.items.at(-1)).toMatchObject({ heading: 'Shipping › Abroad', url: 'https://shop.example/shipping' });
    // The same url again replaces the document (and its chunks) in one transaction.
    const second = await add('Shipping', 'Parcels leave within one day now.', 'https://shop.example/shipping');
    expect(await store.getDocument(kb.id, first.id)).toBeNull();
    expect((await store.listDocuments(kb.id, { limit: 10, offset: 0 })).items.map((d) => d.id)).toEqual([second.id]);
    expect(await store.deleteDocument(kb.id, second.id, AT)).toBe(true);
    expect((await storage.get<{ n: number }>('SELECT count(*) AS n FROM chunks'))?.n).toBe(0);
    expect(await store.deleteKb('org_t', kb.id)).toBe(true);
  });

  it('answers from the memory index (BM25) and from tsvector, and follows writes on this instance', async () => {
    const { storage, store, kb, add } = await setup();
    const refunds = await add('Refunds', 'Refunds go back to the original card within five working days.');
    await add('Opening hours', 'The shop opens at nine and closes at six.');
    await add('Delivery', 'Delivery takes three days; express delivery takes one.');
    const sel = [{ id: kb.id, priority: 5 }];
    const memory = createRetriever(storage);
    const tsvector = createRetriever(storage, { memoryIndexMaxChunks: 0 });
    for (const engine of [memory, tsvector]) {
      const hits = await engine.retrieve('How long do refunds take?', sel, 3);
      expect(hits[0]).toMatchObject({ documentId: refunds.id, title: 'Refunds' });
      expect(hits[0]!.score).toBeGreaterThan(0);
      expect(await engine.retrieve('zebra crossings', sel, 3)).toEqual([]);
    }
    expect(await memory.settledEngine()).toBe('memory');
    expect(tsvector.engine()).toBe('fts');
    const zebra = await add('Zebra', 'Zebra crossings give walkers the right of way.');
    expect((await memory.retrieve('zebra crossings', sel, 3)).map((h) => h.documentId)).toEqual([zebra.id]);
    expect((await tsvector.retrieve('zebra crossings', sel, 3)).map((h) => h.documentId)).toEqual([zebra.id]);
    await store.deleteDocument(kb.id, zebra.id, AT);
    expect(await memory.retrieve('zebra crossings', sel, 3)).toEqual([]);
    expect(await tsvector.retrieve('zebra crossings', sel, 3)).toEqual([]);
    // Another organization's base is never searched.
    expect(await memory.retrieve('refunds', [{ id: 'kb_other', priority: 5 }], 3)).toEqual([]);
  });

  it('runs web document jobs: queued with their document, claimed, content swapped in, orphans of a crash resumed', async () => {
    const { storage, store, kb } = await setup();
    const performed: string[] = [];
    const runner = () =>
      createJobRunner({
        storage,
        clock: systemClock,
        logger: createLogger('silent'),
        pollMs: 50,
        hooks: {
          async perform(job: IngestJob) {
            performed.push(job.documentId);
            await store.replaceDocumentContent(
              job.documentId,
              { title: 'Fetched', parts: [{ content: 'Fetched page about otters.', format: 'text' }], bytes: 26 },
              AT,
            );
            return 'done';
          },
          classify: (err) => ({ message: String(err), transient: false }),
          requeued: async () => undefined,
          failed: async () => undefined,
        },
      });
    // A crash left one job `processing`: the next start queues it again before claiming.
    const { doc: orphan } = await store.write(async (w) => {
      const doc = await w.createPendingDocument(kb.id, { title: 'Old', url: 'https://a.example/old', format: 'html', source: 'url' }, AT);
      const { job } = await runner().enqueue(w.tx, doc.id, 'fetch');
      await w.tx.run("UPDATE ingest_jobs SET status = 'processing', attempts = 1 WHERE id = ?", [job.id]);
      return { doc };
    });
    const r = runner();
    r.start();
    const { doc, job } = await store.write(async (w) => {
      const created = await w.createPendingDocument(
        kb.id,
        { title: 'New', url: 'https://a.example/new', format: 'html', source: 'url' },
        AT,
      );
      return { doc: created, job: (await r.enqueue(w.tx, created.id, 'fetch')).job };
    });
    expect((await store.write((w) => r.enqueue(w.tx, doc.id, 'fetch'))).created).toBe(false); // one live job per document
    r.wake();
    await r.waitFor(job.id, 5_000);
    for (
      let i = 0;
      i < 100 && (await storage.get<{ n: number }>("SELECT count(*) AS n FROM ingest_jobs WHERE status = 'done'"))?.n !== 2;
      i++
    )
      await new Promise((res) => setTimeout(res, 20));
    await r.stop();
    expect(performed.sort()).toEqual([orphan.id, doc.id].sort());
    for (const id of [orphan.id, doc.id])
      expect(await store.getDocument(kb.id, id)).toMatchObject({ status: 'ready', title: 'Fetched', chunkCount: 1 });
    const sel = [{ id: kb.id, priority: 5 }];
    expect((await createRetriever(storage).retrieve('otters', sel, 5)).length).toBe(2);
  });
});
