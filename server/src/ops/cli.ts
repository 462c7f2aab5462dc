import { ConfigError, loadConfig, type DatabaseConfig } from '../config.js';

/** A failure the operator can act on: printed as one line, exit status `exitCode` (2 = usage). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/**
 * The database the server would open, read with the server's own config loader (the same
 * environment, the same validation and messages). The commands count no rate limits, so they
 * need no Redis: without RATE_LIMIT_STORE they take `memory`, where the server on PostgreSQL
 * would ask for REDIS_URL.
 */
export function configuredDatabase(env: NodeJS.ProcessEnv): DatabaseConfig {
  try {
    const config = loadConfig({ ...env, RATE_LIMIT_STORE: env.RATE_LIMIT_STORE || 'memory' });
    return config.database ?? { kind: 'sqlite', path: config.databasePath };
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message);
    throw err;
  }
}

/** host:port/database of a PostgreSQL URL: what may be printed (never the password). */
export function describePostgres(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
}

/**
 * Runs a command's main: a CliError becomes one line on stderr (`<command>: <message>`) and its
 * exit status; anything else is a bug and keeps its stack.
 */
export function runCli(command: string, main: (args: string[]) => Promise<void>): void {
  main(process.argv.slice(2)).then(
    () => {
      process.exitCode ??= 0;
    },
    (err: unknown) => {
      if (err instanceof CliError) {
        process.stderr.write(`${command}: ${err.message}\n`);
        process.exitCode = err.exitCode;
      } else {
        process.stderr.write(`${command}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        process.exitCode = 1;
      }
    },
  );
}
