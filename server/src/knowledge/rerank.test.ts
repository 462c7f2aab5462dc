import { describe, expect, it } from 'vitest';
import { STOPWORDS } from '../text/english.js';
import { stem, tokenize } from '../text/tokens.js';
import { questionBigrams, RERANK_WEIGHTS, rerank, type Rerankable, type RerankWeights, type WeightedTerm } from './rerank.js';
import { createRetriever } from './retrieval.js';
import { createKnowledgeStore } from './store.js';
import { openTestStorage } from '../../test/knowledge-storage.js';

const chunk = (text: string, score: number) => ({ text, title: 'Rivers', headingPath: [], score });
const terms = (words: string[]) => words.map((w) => ({ stem: stem(w), idf: 2 }));

describe('rerank', () => {
  it("lifts the passage holding the question's words in one sentence, in order, over one that scatters them", () => {
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
    const add = async (title: string, content: string) =>
      (await store.addDocument(kb.id, { title, content, format: 'text', url: null }, '2026-01-01T00:00:00.000Z')).id;
    await add('Delta', 'The delta of the river is wide and the delta is flat. Delta delta. Ships visit the Rhine.');
    const answer = await add(
      'Netherlands',
      'The Rhine delta lies in the Netherlands, where the river splits into branches before the sea.',
    );
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

/**
 * rerank.ts's scoring by its definition, testing every sentence: the best sentence's IDF mass is
 * the largest in-order sum over the terms in that sentence or in the title/headings.
 */
function rerankByDefinition<T extends Rerankable>(
  terms: readonly WeightedTerm[],
  bigrams: readonly string[],
  candidates: readonly T[],
  weights: RerankWeights,
): T[] {
  const stems = (text: string) =>
    tokenize(text)
      .filter((t) => !STOPWORDS.has(t))
      .map(stem);
  if (candidates.length < 2 || !terms.length) return [...candidates];
  const best = Math.max(...candidates.map((c) => c.score));
  if (!(best > 0)) return [...candidates];
  const totalIdf = terms.reduce((s, t) => s + t.idf, 0) || 1;
  const scored = candidates.map((c, order) => {
    const context = new Set(stems(`${c.title}\n${c.headingPath.join('\n')}`));
    const sentences = c.text
      .split(/(?<=[.!?])\s+|\n+/)
      .map(stems)
      .filter((x) => x.length)
      .map((x) => new Set(x));
    let bestSentence = 0;
    for (const sentence of sentences) {
      let mass = 0;
      for (const t of terms) if (sentence.has(t.stem) || context.has(t.stem)) mass += t.idf;
      bestSentence = Math.max(bestSentence, mass);
    }
    const chunkBigrams = new Set<string>();
    for (const sentence of c.text.split(/(?<=[.!?])\s+|\n+/).map(stems))
      for (let i = 1; i < sentence.length; i++) chunkBigrams.add(`${sentence[i - 1]} ${sentence[i]}`);
    const pairs = bigrams.length ? bigrams.filter((b) => chunkBigrams.has(b)).length / bigrams.length : 0;
    return { c, order, combined: c.score / best + weights.sentence * (bestSentence / totalIdf) + weights.bigram * pairs };
  });
  scored.sort((x, y) => y.combined - x.combined || x.order - y.order);
  const top = scored[0]?.combined ?? 1;
  return scored.map(({ c, combined }) => ({ ...c, score: (best * combined) / top }));
}

describe('rerank computes its definition exactly', () => {
  it('same order and bit-identical scores as testing every sentence, on random chunks, titles and questions', () => {
    let seed = 0x2545f491;
    const random = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 0x100000000;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    // A small vocabulary, so terms recur across sentences, titles and questions (the hard cases).
    const words = [
      'rhine',
      'delta',
      'river',
      'boats',
      'sea',
      'netherlands',
      'flows',
      'branches',
      'album',
      'first',
      'band',
      'record',
      'the',
      'of',
      'in',
      'is',
    ];
    const sentence = () =>
      `${Array.from({ length: 1 + Math.floor(random() * 9) }, () => pick(words)).join(' ')}${pick(['.', '!', '?', '.\n'])}`;
    for (let round = 0; round < 400; round++) {
      const candidates = Array.from({ length: 2 + Math.floor(random() * 10) }, () => ({
        // Up to 60 sentences: long chunks are where touched sentences pile up.
        text: Array.from({ length: 1 + Math.floor(random() * 60) }, sentence).join(' '),
        title: Array.from({ length: Math.floor(random() * 3) }, () => pick(words)).join(' '),
        headingPath: Array.from({ length: Math.floor(random() * 3) }, () => pick(words)),
        score: random() * 20,
      }));
      const question = Array.from({ length: 1 + Math.floor(random() * 7) }, () => pick(words)).join(' ');
      const terms = [
        ...new Set(
          question
            .split(' ')
            .filter((w) => !STOPWORDS.has(w))
            .map(stem),
        ),
      ].map((s) => ({ stem: s, idf: 0.1 + random() * 5 }));
      const weights = round % 3 ? RERANK_WEIGHTS : { sentence: random() * 3, bigram: random() };
      const expected = rerankByDefinition(terms, questionBigrams(question), candidates, weights);
      const got = rerank(terms, questionBigrams(question), candidates, weights);
      expect(got.map((c) => [c.text, c.title, c.score])).toEqual(expected.map((c) => [c.text, c.title, c.score]));
    }
  });
});
