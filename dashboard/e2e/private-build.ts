import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, startTestServer, type Server } from './support.js';

// Several people build dashboard/dist while others' end-to-end tests run (vite empties the
// folder first), so a test server serving it can answer "not built" halfway through a test.
// These e2e files build the dashboard once into their own folder and serve that instead.

export function buildPrivateDashboard(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'parley-dashboard-'));
  execFileSync('npx', ['vite', 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: join(import.meta.dirname, '..'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The usual setup of a dashboard e2e file: its own build, a real server serving it and one
 * Chromium, ready before the first test and closed after the last. `ready` hands them over.
 */
export function useDashboardE2e(ready: (server: Server, browser: Browser) => void): void {
  let build: ReturnType<typeof buildPrivateDashboard> | undefined;
  let server: Server | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    build = buildPrivateDashboard();
    [server, browser] = await Promise.all([startTestServer({ dashboardDir: build.dir }), launchBrowser()]);
    ready(server, browser);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    build?.remove();
  });
}
