/**
 * The dashboard's API types, generated from the OpenAPI document by openapi-typescript:
 * `npm run gen:api-types` writes them to dashboard/src/api/generated.ts (committed; a test
 * regenerates them and fails when the committed file is stale).
 */
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from './document.js';

export const API_TYPES_PATH = 'dashboard/src/api/generated.ts';

const HEADER = `/**
 * Generated from the server's OpenAPI document by \`npm run gen:api-types\` (openapi-typescript).
 * Do not edit: change the route descriptions in server/src/openapi/ and run it again.
 */
`;

export async function renderApiTypes(): Promise<string> {
  // The document is plain JSON built by our own route descriptions; openapi-typescript validates it.
  const ast = await openapiTS(buildOpenApiDocument() as unknown as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return HEADER + astToString(ast);
}
