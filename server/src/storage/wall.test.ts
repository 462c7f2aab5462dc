import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The storage wall (issue 27): outside storage/, the server's code neither tests the dialect nor
 * casts to, or names, a concrete adapter. What differs between SQLite and PostgreSQL is offered by
 * the port (port.ts: Tx.lock, Storage.pick and the engines' capabilities; dialect-sql.ts;
 * leases.ts). Tests and their support (server/test, outside this scan) may use the adapters;
 * scripts open a storage through the factories (createSqliteStorage, createPostgresStorage,
 * openStorage) without naming its type.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const RULES: Array<{ name: string; pattern: RegExp }> = [
  { name: 'reads the dialect', pattern: /\.dialect\b/ },
  { name: 'casts to an adapter', pattern: /\bas\s+(?:SqliteStorage|PostgresStorage)\b/ },
  { name: 'names an adapter type', pattern: /\b(?:SqliteStorage|PostgresStorage)\b/ },
  { name: 'reaches the raw SQLite connection or PostgreSQL pool of a storage', pattern: /\bstorage\.(?:db|pool)\b/ },
];

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== path.join(SRC, 'storage')) sources(full, out);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
      out.push(full);
    }
  }
  return out;
}

/** Every offence of `text` (a file's source, comments stripped) against the rules. */
function offences(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found: string[] = [];
  code.split('\n').forEach((line, i) => {
    for (const rule of RULES) if (rule.pattern.test(line)) found.push(`line ${i + 1} ${rule.name}: ${line.trim()}`);
  });
  return found;
}

describe('the storage wall', () => {
  it('finds the offences it is for (so a pass means something)', () => {
    expect(offences("const x = storage.dialect === 'postgres' ? a : b;")).toHaveLength(1);
    expect(offences('const s = storage as SqliteStorage;')).toHaveLength(2);
    expect(offences('loadSqliteVec(storage.db);')).toHaveLength(1);
    expect(offences('// storage.dialect === "sqlite" in a comment\nconst ok = 1;')).toEqual([]);
    expect(offences('const x = tx.lock(key);')).toEqual([]);
  });

  it('holds: no module outside storage/ tests the dialect or reaches for an adapter', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      for (const o of offences(fs.readFileSync(file, 'utf8'))) found.push(`${rel} ${o}`);
    }
    expect(found).toEqual([]);
  });
});
