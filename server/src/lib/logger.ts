/**
 * The one logger of Parley: one JSON object per line on stderr (greppable, machine-readable, no
 * dependency), the same shape from the server and from the connectors, so one log pipeline reads
 * both.
 *
 * This file imports nothing: the connectors (a workspace whose build may not reach into
 * server/src) keep a byte-identical copy at connectors/src/core/logger.ts, and a connectors test
 * fails when the two differ.
 */

/** LOG_LEVEL: entries below the level are dropped; `silent` drops all. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line + '\n')): Logger {
  const at = (lvl: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }));
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** For tests: keeps quiet but remembers, so a test can assert that a failure was logged. */
export function createMemoryLogger(): Logger & { entries: { level: string; msg: string; fields?: Record<string, unknown> }[] } {
  const entries: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    entries.push(fields === undefined ? { level, msg } : { level, msg, fields });
  };
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Errors are not JSON-serialisable as is; keep what helps an operator and nothing else. */
export function describeError(err: unknown): Record<string, unknown> {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { error: err.message, name: err.name, ...(code === undefined ? {} : { code }) };
  }
  return { error: String(err) };
}
