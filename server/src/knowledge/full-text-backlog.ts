/**
 * The FTS5 entries owed by committed transactions (SQLite), written many uploads at a time.
 *
 * An FTS5 commit turns the entries it holds into a new segment: a transaction that wrote one
 * upload's entries paid a segment for a few chunks (flushed, indexed, merged again later) and
 * about half of the WAL pages of its commit, the largest cost of an upload (issue 28). So a
 * transaction only records its new chunks' ids in `chunks_fts_pending` (migration 032), and
 * their entries are written from the committed rows by a later transaction, for every upload
 * of the last few milliseconds at once.
 *
 * Nothing is lost and nothing is read stale: the ids commit with their chunks (a crash leaves
 * them, and they are written after the next start), and every read of the index waits until
 * what was owed when it started is written (`settled`). A chunk deleted before its entry was
 * written is skipped; one whose id was reused gets the entry of the chunk that holds it then.
 */
import type { SqliteEngine, Tx } from '../storage/port.js';

/** A committed chunk whose entry is owed. */
export interface OwedChunk {
  id: number;
  title: string;
  headings: string;
  body: string;
  language: string;
}

export interface FullTextBacklog {
  /** In the transaction writing these chunks: their entries are owed, written after the commit. */
  owe(tx: Tx, chunkIds: readonly number[]): Promise<void>;
  /** Resolves once every entry owed when it was called is written (the index's reads call it first). */
  settled(): Promise<void>;
}

/** How long owed entries wait for more to join them: uploads of this window share one segment. */
const WINDOW_MS = 40;
/** Entries written per transaction; also how many owed ones start a write at once. */
const BATCH = 2_000;

/** One backlog per database connection: the knowledge store and every retriever on it share it. */
const backlogs = new WeakMap<object, FullTextBacklog>();

/**
 * The backlog of `storage`, whose entries `write` puts in the index (inside the transaction
 * given). What an earlier run left owed is written by the next pass or before the first read.
 */
export function fullTextBacklog(storage: SqliteEngine, write: (tx: Tx, chunks: readonly OwedChunk[]) => Promise<void>): FullTextBacklog {
  let backlog = backlogs.get(storage.database);
  if (!backlog) backlogs.set(storage.database, (backlog = createBacklog(storage, write)));
  return backlog;
}

function createBacklog(storage: SqliteEngine, write: (tx: Tx, chunks: readonly OwedChunk[]) => Promise<void>): FullTextBacklog {
  // Generations: each commit that owes entries takes the next one; a pass that found the backlog
  // empty has written everything up to the generation it saw when it started.
  let owedGeneration = 0;
  let writtenGeneration = 0;
  /** Entries owed since the last pass started: a full batch starts one at once. */
  let owedSince = 0;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  /**
   * `PRAGMA data_version` when the backlog last looked at the table for ids it did not see owed:
   * left by an earlier run (null: not looked yet) or committed by another connection on the file.
   */
  let seenVersion: number | null = null;

  /** One transaction: up to BATCH owed entries written and their ids cleared. True when that was all. */
  async function pass(): Promise<boolean> {
    let seen = 0;
    const taken = await storage.tx(async (tx) => {
      // Every commit that owed entries before this point is visible to this transaction.
      seen = owedGeneration;
      owedSince = 0;
      const rows = await tx.all<{ chunk_id: number; id: number | null; title: string; headings: string; body: string; language: string }>(
        `SELECT p.chunk_id, c.id, c.title, c.headings, c.body, c.language
         FROM chunks_fts_pending p LEFT JOIN chunks c ON c.id = p.chunk_id ORDER BY p.chunk_id LIMIT ?`,
        [BATCH],
      );
      if (!rows.length) return 0;
      const live: OwedChunk[] = [];
      for (const r of rows)
        if (r.id !== null) live.push({ id: r.id, title: r.title, headings: r.headings, body: r.body, language: r.language });
      await write(tx, live);
      await tx.run('DELETE FROM chunks_fts_pending WHERE chunk_id <= ?', [(rows[rows.length - 1] as { chunk_id: number }).chunk_id]);
      return rows.length;
    });
    if (taken < BATCH) writtenGeneration = Math.max(writtenGeneration, seen);
    return taken < BATCH;
  }

  /** Passes until one empties the backlog; callers arriving meanwhile share the run. */
  function run(): Promise<void> {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    running ??= (async () => {
      try {
        while (!(await pass()));
      } finally {
        running = null;
        // Commits during the run wait for the next window (chasing each would write them one by one).
        if (writtenGeneration < owedGeneration && owedSince > 0) schedule();
      }
    })();
    return running;
  }

  /** In the background: an error (a database closed at shutdown) leaves the ids for the next run. */
  const runQuietly = (): void => {
    run().catch(() => {});
  };

  function schedule(): void {
    if (running) return;
    if (owedSince >= BATCH) {
      setImmediate(runQuietly);
    } else if (!timer) {
      timer = setTimeout(() => {
        timer = null;
        runQuietly();
      }, WINDOW_MS);
      timer.unref();
    }
  }

  return {
    async owe(tx, chunkIds) {
      if (!chunkIds.length) return;
      await tx.run('INSERT OR IGNORE INTO chunks_fts_pending (chunk_id) SELECT value FROM json_each(?)', [JSON.stringify(chunkIds)]);
      tx.afterCommit(() => {
        owedGeneration += 1;
        owedSince += chunkIds.length;
        schedule();
      });
    },
    async settled() {
      // What an earlier run left, or another connection (a second process on the file) committed.
      const version = storage.dataVersion();
      if (version !== seenVersion) {
        seenVersion = version;
        if (await storage.get('SELECT 1 AS owed FROM chunks_fts_pending LIMIT 1')) owedGeneration += 1;
      }
      const target = owedGeneration;
      while (writtenGeneration < target) await run();
    },
  };
}
