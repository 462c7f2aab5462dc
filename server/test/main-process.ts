import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from '../src/paths.js';

export const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
/**
 * How `npm start` runs the server: node itself with tsx as a loader. Not the `tsx` binary: it
 * relays SIGTERM through a parent process that SIGKILLs the server when its event loop does not
 * answer within 60 ms (seen under load), which would cut in-flight requests.
 */
export const NODE_WITH_TSX = [process.execPath, '--import', 'tsx'] as const;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net
      .createServer()
      .listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      })
      .on('error', reject);
  });
}

export interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `server/src/main.ts` like `npm start` does and waits for its banner. */
export async function startMain(env: Record<string, string>): Promise<Running> {
  // Its own process group: tsx runs the server in a child process, and SIGKILL must reach both.
  const child = spawn(NODE_WITH_TSX[0], [...NODE_WITH_TSX.slice(1), path.join(REPO_ROOT, 'server/src/main.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (!out.includes('Try it:') && !out.includes('is running at')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 50));
  return { child, output: () => out, exited };
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}
