import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '../src/db/migrate.js';
import { openDb, type Db } from '../src/db/open.js';
import { REPO_ROOT } from '../src/paths.js';
import { NODE_WITH_TSX } from './main-process.js';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command the way an operator does (`npm run admin -- …` runs the same module, built),
 * as a child process with exactly the given database in its environment. From the source
 * under tsx, so a test needs no build; production-build.test.ts runs the built ones.
 */
export function runOpsCommand(command: 'admin' | 'backup', args: string[], env: Record<string, string>): Promise<CommandResult> {
  // The suite's own database variables must not leak into the command's configuration.
  const { DATABASE_PATH: _p, DATABASE_URL: _u, ...inherited } = process.env;
  const child = spawn(NODE_WITH_TSX[0], [...NODE_WITH_TSX.slice(1), path.join(REPO_ROOT, `server/src/ops/${command}.ts`), ...args], {
    cwd: REPO_ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A migrated SQLite database in a new temporary directory (a file, so other processes open it). */
export function tempSqliteDatabase(prefix = 'parley-ops-'): { dir: string; file: string; db: Db } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, 'parley.db');
  const db = openDb(file);
  migrate(db);
  return { dir, file, db };
}
