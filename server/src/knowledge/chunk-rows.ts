import type { Storage } from '../storage/port.js';
import { CHUNK_COLUMNS, type ChunkRow } from './full-text.js';

/** Chunk rows by id, served from a small cache while nothing changed (see createChunkRows). */
export interface ChunkRows {
  /** Rows by id: synchronous when every row is cached (the common case: no database work). */
  get(ids: number[]): Map<number, ChunkRow> | Promise<Map<number, ChunkRow>>;
  /** Something changed: rows read before now may be stale and are not cached; `removed` are evicted. */
  invalidate(removed: readonly number[]): void;
  /** Another connection changed the chunks in ways unknown: everything is dropped. */
  clear(): void;
}

/** Rows cached; about 4,000 × a chunk's text. */
const ROW_CACHE_MAX = 4_000;

/**
 * Recently returned chunk rows by id. A chunk's row never changes while its id lives (new
 * content gets new chunks); a deleted id is evicted at once, since SQLite may reuse it.
 */
export function createChunkRows(storage: Storage): ChunkRows {
  // One statement per hit count (IN with placeholders; the adapters cache statements by text,
  // so the same string is handed back each time).
  const hydrateSql = new Map<number, string>();
  const hydrate = (ids: number[]): Promise<ChunkRow[]> => {
    let sql = hydrateSql.get(ids.length);
    if (!sql)
      hydrateSql.set(
        ids.length,
        (sql = `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN (${ids.map(() => '?').join(', ')})`),
      );
    return storage.all<ChunkRow>(sql, ids);
  };
  const cache = new Map<number, ChunkRow>();
  /** Bumped by every change: rows read before it may be stale and are not cached. */
  let generation = 0;
  return {
    get(ids) {
      const out = new Map<number, ChunkRow>();
      const missing: number[] = [];
      for (const id of ids) {
        const row = cache.get(id);
        if (row) out.set(id, row);
        else missing.push(id);
      }
      if (!missing.length) return out;
      const seen = generation;
      return hydrate(missing).then((rows) => {
        for (const row of rows) {
          out.set(row.id, row);
          if (seen !== generation) continue;
          if (cache.size >= ROW_CACHE_MAX) cache.delete(cache.keys().next().value as number);
          cache.set(row.id, row);
        }
        return out;
      });
    },
    invalidate(removed) {
      generation++;
      for (const id of removed) cache.delete(id);
    },
    clear() {
      generation++;
      cache.clear();
    },
  };
}
