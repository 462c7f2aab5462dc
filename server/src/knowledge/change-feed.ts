import { backoffDelay } from '../net/backoff.js';
import type { PostgresEngine, SqliteEngine, Storage, Tx } from '../storage/port.js';
import { readHorizon } from '../storage/postgres/horizon.js';

/**
 * "Chunks changed": the one seam through which every retriever on a database hears about
 * writes, whichever knowledge store made them (the server's, the demo seeder's, a bench's) and
 * whichever connection or instance. The memory index is a replica of the chunks: a write it is
 * not told about would leave it serving a stale view.
 *
 * - `local`: a store on this process committed; `removedChunkIds` are the chunks it deleted
 *   (new chunks are found by the retriever's catch-up on `chunks.id`).
 * - `remote` (PostgreSQL): chunks other transactions committed (any instance, this one
 *   included), read from the database in commit-cursor order: exactly which ids came and went.
 * - `external`: someone else committed and what changed is not known (SQLite's other
 *   connections; a PostgreSQL feed that lost track): the replica is rebuilt.
 *
 * SQLite learns of other connections through `PRAGMA data_version`, asked by a question (`poll`)
 * at most once per DATA_VERSION_EVERY_MS: a commit by another connection or process is seen by
 * every question asked that long after it (this process's own writes are told at once). PostgreSQL has a change feed (postgresFeed below): LISTEN/NOTIFY wakes it, a poll
 * every two seconds is the backstop, and what it reads is a cursor that no late commit can pass.
 */
export type ChunkChange =
  | { kind: 'local'; removedChunkIds: readonly number[] }
  | { kind: 'remote'; addedChunkIds: readonly number[]; removedChunkIds: readonly number[] }
  | { kind: 'external' };
type Listener = (change: ChunkChange) => void;

export interface ChunkChangeFeed {
  /** Hears every change on this database; returns the unsubscribe. */
  subscribe(listener: Listener): () => void;
  /**
   * Inside the writing transaction, once its chunks are written (PostgreSQL: records the deleted
   * ids for the other instances and sends the NOTIFY, which PostgreSQL delivers at commit only).
   */
  record(tx: Tx, removedChunkIds: readonly number[]): Promise<void>;
  /** After a commit that added or removed chunks (call it after the commit, never inside). */
  publish(removedChunkIds: readonly number[]): void;
  /** Looks for commits made elsewhere (cheap: runs on every question, SQLite reads at most every DATA_VERSION_EVERY_MS); tells listeners `external`. */
  poll(): void;
}

/** One feed per database: keyed by Storage.database (the SQLite connection: two adapters on one file handle share it; the pool). */
const feeds = new WeakMap<object, ChunkChangeFeed>();

export function chunkChangeFeed(storage: Storage): ChunkChangeFeed {
  let feed = feeds.get(storage.database);
  if (!feed) {
    feed = storage.pick({ sqlite: (s) => createFeed(dataVersionProbe(s)), postgres: postgresFeed });
    feeds.set(storage.database, feed);
  }
  return feed;
}

/**
 * How stale SQLite's view of other connections' commits may be. Reading `PRAGMA data_version` is
 * a read transaction (lock and unlock system calls, an fstat), which profiling found on every
 * chat request; once per this many ms costs nothing at any request rate.
 */
export const DATA_VERSION_EVERY_MS = 100;

/**
 * True when another connection committed since the last read (SQLite's data_version is per
 * connection). Reads at most once per DATA_VERSION_EVERY_MS (a monotonic clock): a call sooner
 * answers false, and the next read after that finds the commit.
 */
function dataVersionProbe(storage: SqliteEngine): () => boolean {
  const read = (): number => storage.dataVersion();
  let seen = read();
  let readAt = performance.now();
  return () => {
    const now = performance.now();
    if (now - readAt < DATA_VERSION_EVERY_MS) return false;
    readAt = now;
    const v = read();
    if (v === seen) return false;
    seen = v;
    return true;
  };
}

function listenerSet() {
  const listeners = new Set<Listener>();
  return {
    listeners,
    tell(change: ChunkChange): void {
      for (const l of listeners) l(change);
    },
  };
}

function createFeed(otherWriters: (() => boolean) | null): ChunkChangeFeed {
  const { listeners, tell } = listenerSet();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    record: async () => {},
    publish(removedChunkIds) {
      tell({ kind: 'local', removedChunkIds });
    },
    poll() {
      if (otherWriters?.()) tell({ kind: 'external' });
    },
  };
}

// --- PostgreSQL ----------------------------------------------------------------------------

export const CHUNKS_CHANNEL = 'parley_chunks';
/** The backstop: a lost notification (a dropped LISTEN connection) delays a change this long at most. */
export const FEED_POLL_MS = 2_000;
/** Ids read per cursor query; a bigger backlog is read on at once. */
const FEED_BATCH = 5_000;
/** Deleted ids are kept this long (migration 005); a feed that read nothing for half of it rebuilds instead. */
const DELETIONS_KEPT_MS = 60 * 60_000;
const PRUNE_EVERY_MS = 60_000;

interface Cursor {
  xact: string;
  id: number;
}
interface FeedRow {
  id: number;
  xact: string;
  ready: number;
}

/** The ready rows (those before the first one held back) and whether any was held back. */
function readyPart(rows: FeedRow[]): { rows: FeedRow[]; blocked: boolean } {
  const stop = rows.findIndex((r) => !r.ready);
  return stop < 0 ? { rows, blocked: false } : { rows: rows.slice(0, stop), blocked: true };
}

/**
 * Rows after the cursor, in cursor order; `ready` while the row's transaction is below the
 * commit horizon (storage/postgres/horizon.ts: every transaction of this database below it has
 * ended, so nothing can appear behind the cursor later; webhooks/queue.ts follows its events the
 * same way). The cursor stops at the first row not ready: committed, but an older transaction of
 * this database is still running and may yet commit rows before it.
 */
const AFTER_CURSOR = (table: string, id: string): string => `SELECT ${id} AS id, CAST(xact_id AS TEXT) AS xact,
  CASE WHEN xact_id < CAST(? AS xid8) THEN 1 ELSE 0 END AS ready FROM ${table}
  WHERE (xact_id, ${id}) > (CAST(? AS xid8), ?) ORDER BY xact_id, ${id} LIMIT ${FEED_BATCH}`;
/**
 * Held back by a running transaction: read again soon, then less often (net/backoff.ts, full
 * jitter: instances held back by one transaction do not read in step), the wait's ceiling
 * doubling from the first to the max (an indexed read of a few rows; a write transaction lasts
 * milliseconds, a migration seconds).
 */
const BLOCKED_RETRY_MS = 25;
const BLOCKED_RETRY_MAX_MS = 250;
const NEW_CHUNKS = AFTER_CURSOR('chunks', 'id');
const DELETED_CHUNKS = AFTER_CURSOR('chunk_deletions', 'chunk_id');

/**
 * The PostgreSQL feed. It starts with its first subscriber (a store alone needs no reader): a
 * cursor at the current horizon, then
 * - a LISTEN connection of its own (PostgresEngine.listen: outside the pool, reconnected with
 *   backoff when it drops; the feed reads at once after each connect, as a NOTIFY may be lost);
 * - a NOTIFY from every writing transaction (`record`, delivered at commit only), which makes the
 *   feed read both cursors at once, and the same reads every FEED_POLL_MS as the backstop;
 * - the ids read are told as `remote`: the retrievers add and remove exactly those chunks.
 * Nothing of it runs on the question path: `poll()` does nothing here.
 */
function postgresFeed(storage: PostgresEngine): ChunkChangeFeed {
  const { listeners, tell } = listenerSet();
  let started = false;
  let stopped = false;
  let chunksAt: Cursor | null = null;
  let deletionsAt: Cursor | null = null;
  /** When the cursors were last read in full: a feed that missed the deletions' retention rebuilds. */
  let readAt = 0;
  let prunedAt = 0;
  let reading: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let unlisten: (() => void) | null = null;

  const horizon = async (): Promise<Cursor> => ({ xact: await readHorizon(storage), id: 0 });

  /** True when the last read stopped at a row held back by a running transaction. */
  async function readOnce(): Promise<boolean> {
    if (!chunksAt || !deletionsAt) {
      // Everything below the horizon is committed now, so a replica read from here on holds
      // it; the cursors take what commits from here. Replicas read before are rebuilt.
      const h = await horizon();
      chunksAt = h;
      deletionsAt = h;
      readAt = Date.now();
      tell({ kind: 'external' });
      return false;
    }
    if (Date.now() - readAt > DELETIONS_KEPT_MS / 2) {
      // Stalled past the deletions' retention: some may be pruned unread.
      chunksAt = null;
      deletionsAt = null;
      return readOnce();
    }
    let blocked = false;
    for (;;) {
      const c: Cursor | null = chunksAt;
      const d: Cursor | null = deletionsAt;
      if (!c || !d) return false; // reset meanwhile
      const h = await readHorizon(storage);
      const [a, r]: Array<{ rows: FeedRow[]; blocked: boolean }> = await Promise.all([
        storage.all<FeedRow>(NEW_CHUNKS, [h, c.xact, c.id]).then(readyPart),
        storage.all<FeedRow>(DELETED_CHUNKS, [h, d.xact, d.id]).then(readyPart),
      ]);
      if (chunksAt !== c || deletionsAt !== d) return false; // reset meanwhile
      if (!a || !r) return false;
      const added: FeedRow[] = a.rows;
      const removed: FeedRow[] = r.rows;
      blocked = a.blocked || r.blocked;
      const lastAdded: FeedRow | undefined = added.at(-1);
      const lastRemoved: FeedRow | undefined = removed.at(-1);
      if (lastAdded) chunksAt = { xact: lastAdded.xact, id: lastAdded.id };
      if (lastRemoved) deletionsAt = { xact: lastRemoved.xact, id: lastRemoved.id };
      if (added.length || removed.length)
        tell({ kind: 'remote', addedChunkIds: added.map((r) => r.id), removedChunkIds: removed.map((r) => r.id) });
      if (added.length < FEED_BATCH && removed.length < FEED_BATCH) break;
    }
    readAt = Date.now();
    if (readAt - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = readAt;
      await storage.run(`DELETE FROM chunk_deletions WHERE deleted_at < now() - interval '${DELETIONS_KEPT_MS / 1000} seconds'`);
    }
    return blocked;
  }
  /** Reads held back in a row: the backoff's exponent. */
  let blockedReads = 0;
  let retry: NodeJS.Timeout | null = null;

  /** One read at a time; a wake-up during a read runs one more after it (the NOTIFY may be for rows it missed). */
  function read(): void {
    if (stopped || !listeners.size) return;
    if (reading) {
      again = true;
      return;
    }
    again = false;
    reading = readOnce()
      .then((blocked) => {
        if (!blocked) {
          blockedReads = 0;
          return;
        }
        if (retry || stopped) return;
        retry = setTimeout(
          () => {
            retry = null;
            read();
          },
          backoffDelay(blockedReads++, { baseMs: BLOCKED_RETRY_MS, maxMs: BLOCKED_RETRY_MAX_MS }),
        );
        retry.unref();
      })
      .catch(() => {
        /* the database is away or closing: the next poll tries again */
      })
      .finally(() => {
        reading = null;
        if (again) read();
      });
  }

  function start(): void {
    if (started) return;
    started = true;
    // Read now, and again after a reconnect: notifications sent while the connection was away are lost.
    unlisten = storage.listen(CHUNKS_CHANNEL, { notify: read, connected: read });
    timer = setInterval(read, FEED_POLL_MS);
    timer.unref();
    // The feed lives as long as the storage: stopped when it closes.
    storage.onClose(stop);
    read();
  }

  function stop(): void {
    stopped = true;
    if (timer) clearInterval(timer);
    if (retry) clearTimeout(retry);
    timer = null;
    retry = null;
    unlisten?.();
    unlisten = null;
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      start();
      return () => {
        listeners.delete(listener);
      };
    },
    async record(tx, removedChunkIds) {
      for (let i = 0; i < removedChunkIds.length; i += FEED_BATCH) {
        await tx.run("INSERT INTO chunk_deletions (chunk_id) SELECT unnest(CAST(string_to_array(?, ',') AS bigint[]))", [
          removedChunkIds.slice(i, i + FEED_BATCH).join(','),
        ]);
      }
      await tx.run(`SELECT pg_notify('${CHUNKS_CHANNEL}', '')`);
    },
    publish(removedChunkIds) {
      tell({ kind: 'local', removedChunkIds });
    },
    poll() {},
  };
}
