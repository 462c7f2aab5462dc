import type { Storage } from '../storage/port.js';
import type { SqliteStorage } from '../storage/sqlite.js';

/**
 * "Chunks changed": the one seam through which every retriever on a database hears about
 * writes, whichever knowledge store made them (the server's, the demo seeder's, a bench's) and
 * whichever connection. The memory index is a replica of the chunks: a write it is not told
 * about would leave it serving a stale view.
 *
 * - `local`: a store on this process committed; `removedChunkIds` are the chunks it deleted
 *   (new chunks are found by the retriever's catch-up on `chunks.id`).
 * - `external`: someone else committed (another connection or instance); what changed is not
 *   known, so the replica is rebuilt.
 *
 * SQLite learns of other connections through `PRAGMA data_version`, asked on each question
 * (`poll`). On PostgreSQL, `poll` is where the change feed of issue 15 plugs in (LISTEN/NOTIFY
 * to wake, a poll on the chunks' commit cursor as backstop); until then a single instance is
 * exact and several instances see each other's chunks only after a restart.
 */
export type ChunkChange = { kind: 'local'; removedChunkIds: readonly number[] } | { kind: 'external' };
type Listener = (change: ChunkChange) => void;

export interface ChunkChangeFeed {
  /** Hears every change on this database; returns the unsubscribe. */
  subscribe(listener: Listener): () => void;
  /** After a commit that added or removed chunks (call it after the commit, never inside). */
  publish(removedChunkIds: readonly number[]): void;
  /** Looks for commits made elsewhere (cheap: runs on every question); tells listeners `external`. */
  poll(): void;
}

/** One feed per database: keyed by the SQLite connection (two adapters on one file handle share it), else the storage. */
const feeds = new WeakMap<object, ChunkChangeFeed>();

export function chunkChangeFeed(storage: Storage): ChunkChangeFeed {
  const key: object = storage.dialect === 'sqlite' ? (storage as SqliteStorage).db : storage;
  let feed = feeds.get(key);
  if (!feed) {
    feed = storage.dialect === 'sqlite' ? createFeed(dataVersionProbe(storage as SqliteStorage)) : createFeed(null);
    feeds.set(key, feed);
  }
  return feed;
}

/** True when another connection committed since the last call (SQLite's data_version is per connection). */
function dataVersionProbe(storage: SqliteStorage): () => boolean {
  const stmt = storage.db.prepare('PRAGMA data_version').pluck();
  const read = (): number => (storage.db.open ? stmt.get() as number : 0);
  let seen = read();
  return () => {
    const v = read();
    if (v === seen) return false;
    seen = v;
    return true;
  };
}

function createFeed(otherWriters: (() => boolean) | null): ChunkChangeFeed {
  const listeners = new Set<Listener>();
  const tell = (change: ChunkChange): void => { for (const l of listeners) l(change); };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
    publish(removedChunkIds) {
      tell({ kind: 'local', removedChunkIds });
    },
    poll() {
      if (otherWriters?.()) tell({ kind: 'external' });
    },
  };
}
