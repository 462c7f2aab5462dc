import { LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { Logger } from '../core/logger.js';

/** Bolt logs through our JSON logger, so an operator reads one format from the whole process. */
export function toBoltLogger(logger: Logger): BoltLogger {
  let level = LogLevel.INFO;
  const join = (msg: unknown[]) =>
    msg.map((m) => (m instanceof Error ? m.message : typeof m === 'string' ? m : JSON.stringify(m))).join(' ');
  return {
    debug: (...msg: unknown[]) => logger.debug(join(msg), { from: 'bolt' }),
    info: (...msg: unknown[]) => logger.info(join(msg), { from: 'bolt' }),
    warn: (...msg: unknown[]) => logger.warn(join(msg), { from: 'bolt' }),
    error: (...msg: unknown[]) => logger.error(join(msg), { from: 'bolt' }),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
