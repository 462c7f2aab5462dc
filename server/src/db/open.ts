import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

/**
 * Opens the database the way every part of Parley expects it: WAL so that an acknowledged
 * write survives a crash, foreign keys on, and a busy timeout so a second process (a CLI,
 * a backup) never makes a request fail at once.
 */
export function openDb(file: string): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode keeps every committed transaction across a process crash or kill -9
  // (the WAL is written before the commit returns); only an OS crash or power loss can lose the
  // last few. FULL would fsync on every chat message for protection we do not need here.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Retrieval reads the FTS index and chunk rows on every question: a 64 MiB page cache and
  // memory-mapped reads keep them out of read() syscalls, which dominate on small VMs.
  db.pragma('cache_size = -65536');
  db.pragma('mmap_size = 1073741824');
  // Savepoint (sub-)journals in memory: the storage adapter's group commit runs each job of a
  // batch in a savepoint, and a chat turn's page images passed SQLite's 64 KiB spill size, so each
  // batch created, wrote (2 pwrite per page) and unlinked a temp file in /var/tmp: 47 pwrite per
  // chat request instead of 16 (strace), a fifth of the request's CPU where syscalls cost 5-15 µs.
  // Temp tables and sorts of big queries then live in memory too (none on the request path).
  db.pragma('temp_store = MEMORY');
  return db;
}
