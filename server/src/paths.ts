import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root, found from this file so the server runs from any working directory. The
 * production build (server/tsconfig.build.json) puts this module at server/dist/paths.js, at
 * the same depth, so the built server finds demo/, widget/dist and dashboard/dist here too.
 */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WIDGET_FILE = path.join(REPO_ROOT, 'widget', 'dist', 'widget.js');
/** The built dashboard (Vite output of the dashboard workspace), served at /dashboard/. */
export const DASHBOARD_DIR = path.join(REPO_ROOT, 'dashboard', 'dist');
export const DEMO_DIR = path.join(REPO_ROOT, 'demo');
export const DEMO_KNOWLEDGE_DIR = path.join(DEMO_DIR, 'knowledge');
