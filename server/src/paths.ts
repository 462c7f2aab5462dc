import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file so the server runs from any working directory. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WIDGET_FILE = path.join(REPO_ROOT, 'widget', 'dist', 'widget.js');
export const DEMO_DIR = path.join(REPO_ROOT, 'demo');
export const DEMO_KNOWLEDGE_DIR = path.join(DEMO_DIR, 'knowledge');
