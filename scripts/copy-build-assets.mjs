// Copies what a workspace's compiled code reads at run time beside it: every file under
// <src> that tsc does not compile (SQL migrations, the PDF worker's .mjs, .env examples), into
// the same place under <dist>. Migrations and the worker are found relative to their module
// (import.meta.url), so server/dist/db/migrate.js reads server/dist/db/migrations/.
// Usage (from a workspace's build script): node ../scripts/copy-build-assets.mjs src dist
import fs from 'node:fs';
import path from 'node:path';

const [src, dist] = process.argv.slice(2);
if (!src || !dist) {
  console.error('usage: node scripts/copy-build-assets.mjs <src dir> <dist dir>');
  process.exit(2);
}
const isAsset = (name) => !/\.[cm]?tsx?$/.test(name) && name !== 'README.md';
let copied = 0;
for (const entry of fs.readdirSync(src, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !isAsset(entry.name)) continue;
  const from = path.join(entry.parentPath, entry.name);
  const to = path.join(dist, path.relative(src, from));
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  copied += 1;
}
console.log(`${src} -> ${dist}: ${copied} asset files copied`);
