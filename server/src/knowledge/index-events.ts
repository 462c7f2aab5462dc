import type { Db } from '../db/open.js';

/**
 * "Chunks changed" for every retriever on a database handle, whichever store instance wrote
 * (the server's, the demo seeder's, a bench's). The memory index is a replica of the chunks:
 * a write it is not told about would leave it serving a stale view.
 */
type Listener = (removedChunkIds: readonly number[]) => void;
const listeners = new WeakMap<Db, Set<Listener>>();

export function onChunksChanged(db: Db, listener: Listener): () => void {
  let set = listeners.get(db);
  if (!set) {
    set = new Set();
    listeners.set(db, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

export function chunksChanged(db: Db, removedChunkIds: readonly number[]): void {
  for (const listener of listeners.get(db) ?? []) listener(removedChunkIds);
}
