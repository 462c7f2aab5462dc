import { describe, expect, it } from 'vitest';
import { reanalyzePending } from './reanalyze.js';
import { createRetriever } from './retrieval.js';
import { createKnowledgeStore } from './store.js';
import { openTestStorage } from '../../test/knowledge-storage.js';

const AT = '2026-01-01T00:00:00.000Z';

describe('re-analysis of knowledge indexed before per-language analysis (migration 030 + reanalyze.ts)', () => {
  it('detects each document, writes its index entries once, and is idempotent', async () => {
    const storage = await openTestStorage();
    const store = createKnowledgeStore(storage);
    const kb = await store.createKb('org_t', { name: 'Old', description: null }, AT);
    await store.addDocument(
      kb.id,
      {
        title: 'Uni',
        content: 'Die Universitäten der Stadt wurden im Mittelalter gegründet und sind sehr alt.',
        format: 'text',
        url: null,
      },
      AT,
    );
    await store.addDocument(
      kb.id,
      { title: 'Guide', content: 'Reset your password from the settings page of your account.', format: 'text', url: null },
      AT,
    );
    // The state the migration leaves: languages unknown, chunks in English by default, the
    // full-text index empty (and no entry owed), the base listed for re-analysis.
    await store.fullTextSettled();
    await storage.run('UPDATE documents SET language = NULL');
    await storage.run("UPDATE chunks SET language = 'en'");
    await storage.run('DELETE FROM chunks_fts');
    await storage.run('INSERT INTO text_reanalysis (knowledge_base_id) VALUES (?)', [kb.id]);
    const fts = createRetriever(storage, { memoryIndexMaxChunks: 0 });
    expect(await fts.retrieve('Universität', [{ id: kb.id, priority: 5 }], 3)).toEqual([]);

    expect(await reanalyzePending(storage)).toEqual({ knowledgeBases: 1, chunks: 2 });
    const docs = await storage.all<{ title: string; language: string }>('SELECT title, language FROM documents ORDER BY title');
    expect(docs).toEqual([
      { title: 'Guide', language: 'en' },
      { title: 'Uni', language: 'de' },
    ]);
    expect(await storage.all<{ language: string }>("SELECT language FROM chunks WHERE language = 'de'")).toHaveLength(1);
    const after = createRetriever(storage, { memoryIndexMaxChunks: 0 });
    // German Snowball on both sides: "Universität" finds "Universitäten".
    expect((await after.retrieve('Universität', [{ id: kb.id, priority: 5 }], 3)).map((h) => h.title)).toEqual(['Uni']);
    expect((await after.retrieve('passwords', [{ id: kb.id, priority: 5 }], 3)).map((h) => h.title)).toEqual(['Guide']);
    // Done and recorded: a second start does nothing.
    expect(await reanalyzePending(storage)).toEqual({ knowledgeBases: 0, chunks: 0 });
    expect((await storage.get<{ n: number }>('SELECT count(*) AS n FROM text_reanalysis'))?.n).toBe(0);
  });
});
