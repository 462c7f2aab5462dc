import { describe, expect, it } from 'vitest';
import { stem } from '../answer/text.js';
import { questionBigrams, rerank } from './rerank.js';
import { createRetriever } from './retrieval.js';
import { createKnowledgeStore } from './store.js';
import { openTestStorage } from './test-support.js';

const chunk = (text: string, score: number) => ({ text, title: 'Rivers', headingPath: [], score });
const terms = (words: string[]) => words.map((w) => ({ stem: stem(w), idf: 2 }));

describe('rerank', () => {
  it('lifts the passage holding the question\'s words in one sentence, in order, over one that scatters them', () => {
    const scattered = chunk('The delta is wide. Many ships sail there. The Rhine has tributaries. Rivers flow.', 1);
    const together = chunk('Boats are common. The Rhine delta lies in the Netherlands.', 0.8);
    const q = 'Where is the Rhine delta?';
    const out = rerank(terms(['rhine', 'delta']), questionBigrams(q), [scattered, together]);
    expect(out.map((c) => c.text)).toEqual([together.text, scattered.text]);
    // Scores stay on the BM25 scale: the new first keeps the best BM25 score.
    expect(out[0]!.score).toBeCloseTo(1, 9);
    // Without weights the BM25 order stands.
    expect(rerank(terms(['rhine', 'delta']), [], [scattered, together], { sentence: 0, bigram: 0 })[0]!.text).toBe(scattered.text);
  });

  it('reorders within both engines the same way', async () => {
    const storage = await openTestStorage();
    const store = createKnowledgeStore(storage);
    const kb = await store.createKb('org_t', { name: 'kb', description: null }, '2026-01-01T00:00:00.000Z');
    const add = async (title: string, content: string) => (await store.addDocument(kb.id, { title, content, format: 'text', url: null }, '2026-01-01T00:00:00.000Z')).id;
    await add('Delta', 'The delta of the river is wide and the delta is flat. Delta delta. Ships visit the Rhine.');
    const answer = await add('Netherlands', 'The Rhine delta lies in the Netherlands, where the river splits into branches before the sea.');
    for (let i = 0; i < 6; i++) await add(`Filler ${i}`, `A paragraph about boats number ${i} and the weather on the coast.`);
    const sel = [{ id: kb.id, priority: 5 }];
    const plain = await createRetriever(storage, { rerank: false }).retrieve('Where is the Rhine delta?', sel, 2);
    expect(plain[0]!.documentId).not.toBe(answer);
    for (const engine of [createRetriever(storage), createRetriever(storage, { memoryIndexMaxChunks: 0 })]) {
      expect((await engine.retrieve('Where is the Rhine delta?', sel, 2))[0]!.documentId).toBe(answer);
    }
    await storage.close();
  });
});
