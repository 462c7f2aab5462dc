import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './open.js';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

interface Migration {
  version: number;
  name: string;
  sql: string;
}

function readMigrations(): Migration[] {
  return fs
    .readdirSync(migrationsDir)
    .filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f, sql: fs.readFileSync(path.join(migrationsDir, f), 'utf8') }));
}

/** Applies every numbered migration above `PRAGMA user_version`, each in its own transaction. */
export function migrate(db: Db): { applied: string[] } {
  const current = db.pragma('user_version', { simple: true }) as number;
  const applied: string[] = [];
  for (const m of readMigrations()) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
    applied.push(m.name);
  }
  return { applied };
}
