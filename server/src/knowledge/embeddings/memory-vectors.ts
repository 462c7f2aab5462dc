import type { VectorHit } from './vector-index.js';

/**
 * An exact vector index in memory: every vector normalised once, scored by dot product (=
 * cosine), brute force over the selected knowledge bases only. No approximation, so no recall
 * to tune and no build step: adding or removing a vector is O(dimension).
 *
 * Each knowledge base is a partition of its own (one contiguous Float32Array, grown by
 * half again), so a question reads only the vectors of the bases it searches, and another
 * organization's vectors are never touched. Removal swaps the last vector into the hole.
 *
 * Distances are cosine distances (1 - cosine), as sqlite-vec returns them, so the hybrid
 * fusion (hybrid.ts) reads both backends alike.
 */

const MIN_SLOTS = 16;

interface Partition {
  ids: Float64Array;
  vectors: Float32Array;
  count: number;
}

export interface MemoryVectors {
  readonly dimension: number;
  readonly size: number;
  /** Bytes held by the vectors and ids (capacity, not just the used part). */
  readonly bytes: number;
  has(chunkId: number): boolean;
  /** Adds or replaces the chunk's vector (normalised here; a zero vector is ignored). */
  upsert(chunkId: number, knowledgeBaseId: string, vector: Float32Array): void;
  remove(chunkId: number): boolean;
  search(query: Float32Array, knowledgeBaseIds: readonly string[], k: number): VectorHit[];
}

function normalised(v: Float32Array): Float32Array | null {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += (v[i] as number) * (v[i] as number);
  if (!(sum > 0) || !Number.isFinite(sum)) return null;
  const inv = 1 / Math.sqrt(sum);
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) * inv;
  return out;
}

/**
 * q · vectors[off .. off + q.length), four lanes at a time (independent sums let the CPU overlap
 * the multiplies: about twice as fast as one running sum here).
 */
function dotAt(q: Float32Array, vectors: Float32Array, off: number): number {
  const d = q.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < d; i += 4) {
    s0 += (q[i] as number) * (vectors[off + i] as number);
    s1 += (q[i + 1] as number) * (vectors[off + i + 1] as number);
    s2 += (q[i + 2] as number) * (vectors[off + i + 2] as number);
    s3 += (q[i + 3] as number) * (vectors[off + i + 3] as number);
  }
  for (; i < d; i++) s0 += (q[i] as number) * (vectors[off + i] as number);
  return s0 + s1 + s2 + s3;
}

export function createMemoryVectors(dimension: number): MemoryVectors {
  if (!Number.isInteger(dimension) || dimension < 1) throw new Error(`Unusable vector dimension ${dimension}`);
  const d = dimension;
  const parts = new Map<string, Partition>();
  /** chunk id → its base (the partition) and slot. */
  const where = new Map<number, { kb: string; slot: number }>();
  let bytes = 0;

  function partition(kb: string): Partition {
    let p = parts.get(kb);
    if (!p) {
      p = { ids: new Float64Array(MIN_SLOTS), vectors: new Float32Array(MIN_SLOTS * d), count: 0 };
      bytes += MIN_SLOTS * (8 + 4 * d);
      parts.set(kb, p);
    }
    return p;
  }

  /** By half again (not doubling): at most a third of a partition's capacity lies unused. */
  function grow(p: Partition): void {
    const slots = Math.ceil(p.ids.length * 1.5);
    const ids = new Float64Array(slots);
    ids.set(p.ids);
    const vectors = new Float32Array(slots * d);
    vectors.set(p.vectors);
    bytes += (slots - p.ids.length) * (8 + 4 * d);
    p.ids = ids;
    p.vectors = vectors;
  }

  function remove(chunkId: number): boolean {
    const at = where.get(chunkId);
    if (!at) return false;
    where.delete(chunkId);
    const p = parts.get(at.kb) as Partition;
    const last = p.count - 1;
    if (at.slot !== last) {
      const moved = p.ids[last] as number;
      p.ids[at.slot] = moved;
      p.vectors.copyWithin(at.slot * d, last * d, (last + 1) * d);
      where.set(moved, { kb: at.kb, slot: at.slot });
    }
    p.count = last;
    if (!p.count) {
      bytes -= p.ids.length * (8 + 4 * d);
      parts.delete(at.kb);
    }
    return true;
  }

  return {
    dimension,
    get size() {
      return where.size;
    },
    get bytes() {
      return bytes;
    },
    has: (chunkId) => where.has(chunkId),
    upsert(chunkId, kb, vector) {
      if (vector.length !== d) throw new Error(`Vector of dimension ${vector.length} for an index of ${d}`);
      const unit = normalised(vector);
      const at = where.get(chunkId);
      if (at && at.kb === kb && unit) {
        (parts.get(kb) as Partition).vectors.set(unit, at.slot * d);
        return;
      }
      if (at) remove(chunkId);
      if (!unit) return;
      const p = partition(kb);
      if (p.count === p.ids.length) grow(p);
      p.ids[p.count] = chunkId;
      p.vectors.set(unit, p.count * d);
      where.set(chunkId, { kb, slot: p.count });
      p.count++;
    },
    remove,
    search(query, knowledgeBaseIds, k) {
      if (query.length !== d || k < 1) return [];
      const q = normalised(query);
      if (!q) return [];
      // The k best so far, kept sorted by score (descending): k is small (≤ 100).
      const scores: number[] = [];
      const hits: VectorHit[] = [];
      for (const kb of new Set(knowledgeBaseIds)) {
        const p = parts.get(kb);
        if (!p) continue;
        const { vectors, ids, count } = p;
        for (let s = 0, off = 0; s < count; s++, off += d) {
          const dot = dotAt(q, vectors, off);
          if (scores.length === k && dot <= (scores[k - 1] as number)) continue;
          let at = scores.length;
          while (at > 0 && (scores[at - 1] as number) < dot) at--;
          scores.splice(at, 0, dot);
          hits.splice(at, 0, { chunkId: ids[s] as number, knowledgeBaseId: kb, distance: 1 - dot });
          if (scores.length > k) {
            scores.pop();
            hits.pop();
          }
        }
      }
      return hits.sort((a, b) => a.distance - b.distance || a.chunkId - b.chunkId);
    },
  };
}
