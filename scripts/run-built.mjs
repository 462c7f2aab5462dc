// `npm run start:prod | backup | admin`: runs a module of the production build (server/dist,
// made by `npm run build`) with plain node, in this process: no TypeScript loader, no build at
// start. Says what to do when the build is missing instead of node's "Cannot find module".
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [module, ...args] = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(root, 'server', 'dist', module ?? '');
if (!module || !fs.existsSync(file)) {
  console.error(`Parley is not built (no server/dist/${module ?? ''}): run \`npm run build\` first.`);
  process.exit(1);
}
process.argv = [process.argv[0], file, ...args];
await import(pathToFileURL(file).href);
