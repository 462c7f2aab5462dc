/** `npm run gen:api-types`: writes the dashboard's API types from the OpenAPI document (api-types.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_TYPES_PATH, renderApiTypes } from './api-types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const file = path.join(root, API_TYPES_PATH);
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, await renderApiTypes());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
