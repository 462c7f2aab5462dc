import type { Logger } from './logger.js';

/**
 * Runs a connector process: `start` reads env and starts the connector; SIGINT/SIGTERM stop it
 * cleanly; a failure to start exits 1 with one readable line (no stack for config mistakes).
 */
export function runConnectorProcess(name: string, start: () => Promise<{ logger: Logger; stop: () => Promise<void> }>): void {
  start().then(
    ({ logger, stop }) => {
      const shutdown = (signal: string) => {
        logger.info('shutting down', { signal });
        stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    },
    (err: unknown) => {
      process.stderr.write(`${name} connector failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
