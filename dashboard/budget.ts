import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

// The dashboard's weight budgets (issues 12/13), read off the real build in dashboard/dist:
// checked by src/bundle-size.test.ts and reported by `npm run bench`.

export const DIST = join(import.meta.dirname, 'dist');
export const FIRST_LOAD_BUDGET_BYTES = 60 * 1024;
export const CHUNK_BUDGET_BYTES = 40 * 1024;

export const gzippedSize = (file: string): number => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;

/** The scripts index.html loads before anything is clicked: the entry and its module preloads. */
export function firstLoadScripts(html: string): string[] {
  const refs = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/dashboard\/([^"]+\.js)"/g)].map(
    (m) => m[1]!,
  );
  return [...new Set(refs)];
}

export interface DashboardSizes {
  firstLoad: string[];
  firstLoadGzipBytes: number;
  /** Lazy chunks (routes, charts), largest first. */
  chunks: Array<{ file: string; gzipBytes: number }>;
}

export function measureDashboard(): DashboardSizes {
  const firstLoad = firstLoadScripts(readFileSync(join(DIST, 'index.html'), 'utf8'));
  const chunks = readdirSync(join(DIST, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `assets/${f}`)
    .filter((f) => !firstLoad.includes(f))
    .map((file) => ({ file, gzipBytes: gzippedSize(file) }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { firstLoad, firstLoadGzipBytes: firstLoad.reduce((sum, f) => sum + gzippedSize(f), 0), chunks };
}
