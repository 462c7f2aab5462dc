import { describe, expect, it } from 'vitest';
import { createMemoryVectors } from './memory-vectors.js';

/** A seeded generator, so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

const vector = (rnd: () => number, d: number): Float32Array => Float32Array.from({ length: d }, rnd);

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return dot / Math.sqrt(na * nb);
}

describe('the exact in-memory vector index (PostgreSQL backend)', () => {
  it('returns the k nearest of the selected bases by cosine, as a full sort would, through growth, removals and moves', () => {
    const rnd = random(7);
    const d = 24;
    const index = createMemoryVectors(d);
    const truth = new Map<number, { kb: string; v: Float32Array }>();
    const kbs = ['kb_a', 'kb_b', 'kb_c'];
    for (let id = 1; id <= 600; id++) {
      const kb = kbs[id % 3] as string;
      const v = vector(rnd, d);
      index.upsert(id, kb, v);
      truth.set(id, { kb, v });
    }
    // Removals (swap-with-last inside a partition), a move to another base, a replaced vector.
    for (let id = 5; id <= 600; id += 7) {
      expect(index.remove(id)).toBe(true);
      truth.delete(id);
    }
    expect(index.remove(5)).toBe(false);
    const moved = vector(rnd, d);
    index.upsert(12, 'kb_c', moved);
    truth.set(12, { kb: 'kb_c', v: moved });
    const replaced = vector(rnd, d);
    index.upsert(13, 'kb_b', replaced);
    truth.set(13, { kb: 'kb_b', v: replaced });
    expect(index.size).toBe(truth.size);

    for (let q = 0; q < 20; q++) {
      const query = vector(rnd, d);
      const selected = q % 2 ? ['kb_a', 'kb_c'] : ['kb_b'];
      const expected = [...truth]
        .filter(([, t]) => selected.includes(t.kb))
        .map(([id, t]) => ({ id, kb: t.kb, sim: cosine(query, t.v) }))
        .sort((x, y) => y.sim - x.sim)
        .slice(0, 10);
      const hits = index.search(query, selected, 10);
      expect(hits.map((h) => h.chunkId)).toEqual(expected.map((e) => e.id));
      hits.forEach((h, i) => {
        expect(h.knowledgeBaseId).toBe(expected[i]?.kb);
        expect(h.distance).toBeCloseTo(1 - (expected[i]?.sim as number), 5);
      });
    }
  });

  it('never reads another base, ignores zero vectors and empties a base fully', () => {
    const index = createMemoryVectors(3);
    index.upsert(1, 'mine', Float32Array.from([1, 0, 0]));
    index.upsert(2, 'theirs', Float32Array.from([1, 0, 0]));
    index.upsert(3, 'mine', Float32Array.from([0, 0, 0]));
    expect(index.has(3)).toBe(false);
    expect(index.search(Float32Array.from([2, 0, 0]), ['mine'], 5)).toEqual([{ chunkId: 1, knowledgeBaseId: 'mine', distance: 0 }]);
    expect(index.search(Float32Array.from([1, 0]), ['mine'], 5)).toEqual([]); // wrong dimension
    expect(() => index.upsert(4, 'mine', Float32Array.from([1, 0]))).toThrow(/dimension/);
    const bytes = index.bytes;
    index.remove(2);
    expect(index.bytes).toBeLessThan(bytes);
    expect(index.search(Float32Array.from([1, 0, 0]), ['theirs'], 5)).toEqual([]);
  });
});
