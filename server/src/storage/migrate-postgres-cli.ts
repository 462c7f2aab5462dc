/**
 * `npm run migrate:postgres -- --from ./data/parley.db [--to postgres://…]`
 *
 * Copies a SQLite installation into a fresh PostgreSQL database (migrated here first) and checks
 * every table's row count. The target defaults to DATABASE_URL. Stop the SQLite server first, or
 * copy from a backup: the copy reads one consistent snapshot of the file.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { copySqliteToPostgres } from './copy-to-postgres.js';
import { createPostgresStorage } from './postgres.js';
import { migratePostgres } from './postgres/migrate.js';
import { migrate } from '../db/migrate.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

const from = arg('--from');
const to = arg('--to') ?? process.env.DATABASE_URL;
if (!from || !to || !/^postgres(ql)?:\/\//.test(to)) {
  console.error('usage: npm run migrate:postgres -- --from ./data/parley.db [--to postgres://user@host/db] (or DATABASE_URL)');
  process.exit(2);
}
if (!fs.existsSync(from)) {
  console.error(`no SQLite database at ${from}`);
  process.exit(2);
}

// Bring the SQLite file to this version's schema first, so both sides have the same tables.
const writable = new Database(from);
migrate(writable);
writable.close();
const source = new Database(from, { readonly: true });
const target = createPostgresStorage(to, { applicationName: 'parley-migrate' });
try {
  const { applied } = await migratePostgres(target);
  if (applied.length) console.log(`PostgreSQL migrations applied: ${applied.join(', ')}`);
  // One read transaction on the source: every table is copied from the same snapshot.
  source.exec('BEGIN');
  const report = await copySqliteToPostgres(source, target, { onTable: (t, n) => console.log(`copied ${t}: ${n}`) });
  source.exec('COMMIT');
  console.table(report.tables);
  if (!report.ok) {
    console.error('row counts differ: see the table above');
    process.exitCode = 1;
  } else {
    console.log(
      `done: ${report.tables.length} tables, ${report.tables.reduce((n, t) => n + t.postgres, 0)} rows; start Parley with DATABASE_URL=${to.replace(/\/\/[^@/]*@/, '//…@')}`,
    );
  }
} finally {
  source.close();
  await target.close();
}
