import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Several people build dashboard/dist while others' end-to-end tests run (vite empties the
// folder first), so a test server serving it can answer "not built" halfway through a test.
// These e2e files build the dashboard once into their own folder and serve that instead.

export function buildPrivateDashboard(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'parley-dashboard-'));
  execFileSync('npx', ['vite', 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: join(import.meta.dirname, '..'), stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
