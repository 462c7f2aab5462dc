/** `npm run docs:api`: writes docs/api.md from the OpenAPI document (committed; a test keeps it current). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from './document.js';
import { API_DOC_PATH, renderApiMarkdown } from './markdown.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const file = path.join(root, API_DOC_PATH);
fs.writeFileSync(file, renderApiMarkdown(buildOpenApiDocument()));
console.log(`wrote ${path.relative(process.cwd(), file)}`);
