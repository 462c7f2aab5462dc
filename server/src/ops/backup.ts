/**
 * `npm run backup -- <file> [--force]`: a consistent copy of the configured SQLite database
 * while the server keeps serving (ops/sqlite-backup.ts). Restore: start the server with
 * DATABASE_URL=<file>. On PostgreSQL it prints the pg_dump/pg_restore procedure and exits 2:
 * pg_dump is the tool for that (docs/deploy-containers.md).
 */
import { CliError, configuredDatabase, describePostgres, runCli } from './cli.js';
import { backupSqlite, type BackupReport } from './sqlite-backup.js';

const USAGE = `Usage: npm run backup -- <file> [--force]

Writes a consistent copy of the SQLite database the server is configured with (DATABASE_URL;
default ./data/parley.db) to <file>, while the server keeps serving. An existing <file> is kept
unless --force. Restore: stop the server, start it with DATABASE_URL=<file>.
`;

function postgresProcedure(url: string): string {
  const where = describePostgres(url);
  return `backup: DATABASE_URL is PostgreSQL (${where}): back it up with PostgreSQL's own tools.

  Back up (online, a consistent snapshot; the servers keep serving):
    pg_dump --format=custom --file=parley.dump "$DATABASE_URL"

  Restore into a new, empty database, then start Parley on it:
    createdb --maintenance-db="$DATABASE_URL" parley_restored
    pg_restore --no-owner --exit-on-error --dbname="postgres://USER:PASSWORD@HOST:5432/parley_restored" parley.dump
    DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/parley_restored npm run start:prod

  Use pg_dump of the server's major version or newer. docs/deploy-containers.md has the tested procedure.
`;
}

const formatBytes = (n: number): string => (n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`);

function describe(r: BackupReport): string {
  const c = r.counts;
  return [
    `Backup written: ${r.file}`,
    `  size:     ${formatBytes(r.bytes)} (${r.bytes} bytes, ${r.pages} pages of ${r.pageSize} bytes)`,
    `  check:    ${r.check} (PRAGMA quick_check)`,
    `  contents: ${c.organizations} organizations, ${c.users} users, ${c.assistants} assistants, ${c.documents} documents,` +
      ` ${c.conversations} conversations, ${c.messages} messages`,
    `Restore: stop the server, then start it with DATABASE_URL=${r.file}`,
    '',
  ].join('\n');
}

async function backup(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) return void process.stdout.write(USAGE);
  const force = argv.includes('--force');
  const files = argv.filter((a) => a !== '--force');
  const unknown = files.find((a) => a.startsWith('-'));
  if (unknown) throw new CliError(`unknown option ${unknown} (npm run backup -- --help)`, 2);
  const database = configuredDatabase(env);
  if (database.kind === 'postgres') {
    process.stderr.write(postgresProcedure(database.url));
    process.exitCode = 2;
    return;
  }
  if (files.length !== 1) throw new CliError('usage: npm run backup -- <file> [--force] (npm run backup -- --help)', 2);
  process.stdout.write(describe(await backupSqlite(database.path, files[0]!, { force })));
}

runCli('backup', (argv) => backup(argv, process.env));
