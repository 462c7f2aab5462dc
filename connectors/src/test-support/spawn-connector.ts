import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * Node itself with tsx as a loader, as `npm start` runs the server. Not the `tsx` binary: it runs
 * the script in a child process and relays signals, SIGKILLing a child whose event loop does not
 * answer within 60 ms (seen under load), so a test's SIGTERM could end in a kill instead of the
 * connector's own shutdown.
 */
const NODE_WITH_TSX = [process.execPath, '--import', 'tsx'] as const;

export interface SpawnedConnector {
  child: ChildProcess;
  /** JSON log lines written so far. */
  logs: Record<string, unknown>[];
  stderr(): string;
  /** Resolves with the first log entry that matches. */
  waitForLog(predicate: (entry: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * Runs `connectors/src/<platform>/main.ts` under tsx (NODE_WITH_TSX), with exactly the given env
 * (plus PATH): proves main.ts reads the documented variable names.
 */
export function spawnConnector(platform: 'discord' | 'slack' | 'teams', env: Record<string, string>): SpawnedConnector {
  const child = spawn(NODE_WITH_TSX[0], [...NODE_WITH_TSX.slice(1), `connectors/src/${platform}/main.ts`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let raw = '';
  const logs: Record<string, unknown>[] = [];
  const waiters: { predicate: (e: Record<string, unknown>) => boolean; resolve: (e: Record<string, unknown>) => void }[] = [];
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    raw += chunk;
    for (const line of chunk.split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        for (const w of [...waiters])
          if (w.predicate(entry)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(entry);
          }
      } catch {
        // A partial line; the logger writes whole lines, so this only happens on odd chunking.
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    logs,
    stderr: () => raw,
    waitForLog(predicate, timeoutMs = 15_000) {
      const found = logs.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`log not seen within ${timeoutMs} ms; stderr:\n${raw}`)), timeoutMs);
        waiters.push({
          predicate,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
    exited,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The port from a "... listening" log line's url. */
export function portFromLog(entry: Record<string, unknown>): number {
  return Number(new URL(String(entry.url)).port);
}
