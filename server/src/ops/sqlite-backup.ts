import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CliError } from './cli.js';

export interface BackupReport {
  file: string;
  bytes: number;
  pages: number;
  pageSize: number;
  /** `PRAGMA quick_check` of the copy: 'ok' or SQLite's first complaint. */
  check: string;
  /** Rows of the tables an operator recognizes, as they are in the copy. */
  counts: { organizations: number; users: number; assistants: number; documents: number; conversations: number; messages: number };
}

const COUNTED = ['organizations', 'users', 'assistants', 'documents', 'conversations', 'messages'] as const;

/**
 * A consistent copy of a live SQLite database, through SQLite's online backup API
 * (better-sqlite3's `db.backup`). The copy is the database as of one moment: every transaction
 * committed before it (so every write the server acknowledged before the backup started), none
 * half.
 *
 * All pages move in one step, inside one read transaction. The library's default (100 pages a
 * step, the read lock let go between steps) restarts from the first page whenever another
 * connection writes between two steps, so under steady traffic a large database would never
 * finish. In WAL mode one long read blocks no writer; it only holds the checkpoint back to its
 * snapshot until the copy is written.
 *
 * The copy is written to a temporary file beside `target`, checked, then put in place: a
 * failed or interrupted backup never leaves a partial file under the requested name, and never
 * replaces an existing one unless `force`.
 */
export async function backupSqlite(sourceFile: string, target: string, opts: { force: boolean }): Promise<BackupReport> {
  if (!fs.existsSync(sourceFile)) throw new CliError(`no SQLite database at ${sourceFile}: set DATABASE_URL as the server has it`);
  const file = path.resolve(target);
  if (file === path.resolve(sourceFile)) throw new CliError('the backup file is the database itself: name another file');
  if (fs.existsSync(file) && !opts.force) throw new CliError(`${file} exists: name a new file, or add --force to replace it`);
  if (!fs.existsSync(path.dirname(file))) throw new CliError(`the directory ${path.dirname(file)} does not exist`);

  const partial = `${file}.partial-${process.pid}`;
  const source = new Database(sourceFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(partial, { progress: () => 0x7fffffff });
  } catch (err) {
    removeWithSidecars(partial);
    throw err;
  } finally {
    source.close();
  }

  try {
    const report = inspect(partial);
    if (report.check !== 'ok') throw new CliError(`the copy failed its check (${report.check}); nothing was written to ${file}`);
    if (opts.force) fs.renameSync(partial, file);
    else {
      // link() refuses an existing name: a file created there since the check above is kept.
      try {
        fs.linkSync(partial, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST')
          throw new CliError(`${file} exists: name a new file, or add --force to replace it`);
        throw err;
      }
      fs.unlinkSync(partial);
    }
    return { ...report, file };
  } finally {
    removeWithSidecars(partial);
  }
}

/** Size, pages, quick_check and row counts of a closed copy (leaves no -wal/-shm behind). */
function inspect(file: string): Omit<BackupReport, 'file'> {
  const db = new Database(file, { fileMustExist: true });
  try {
    const pages = db.pragma('page_count', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const check = String(db.pragma('quick_check', { simple: true }));
    const counts = Object.fromEntries(
      COUNTED.map((table) => [table, (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n]),
    );
    return { bytes: fs.statSync(file).size, pages, pageSize, check, counts: counts as BackupReport['counts'] };
  } finally {
    db.close();
  }
}

function removeWithSidecars(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
}
