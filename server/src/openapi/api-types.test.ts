import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_TYPES_PATH, renderApiTypes } from './api-types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('dashboard/src/api/generated.ts', () => {
  it('is what `npm run gen:api-types` generates from the OpenAPI document (run it and commit the file)', async () => {
    const committed = fs.readFileSync(path.join(root, API_TYPES_PATH), 'utf8');
    const fresh = await renderApiTypes();
    expect(committed === fresh, `${API_TYPES_PATH} is stale: run npm run gen:api-types`).toBe(true);
  }, 120_000);

  it('names every operation (operation ids are unique, as openapi-typescript requires)', async () => {
    const fresh = await renderApiTypes();
    expect(fresh).toContain('getDemoIndex: {');
    expect(fresh).toContain('getKnowledgeBases: {');
  }, 120_000);
});
