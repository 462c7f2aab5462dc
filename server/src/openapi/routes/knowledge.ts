import { z } from 'zod';
import { documentSchema, kbPatchSchema, kbSchema, searchSchema } from '../../knowledge/routes.js';
import { urlDocumentSchema } from '../../knowledge/web/url-sources.js';
import { AUTH_ERRORS, AUTHENTICATED, defineRoutes, deleted, ID_ERRORS, pageQuery, pathParams } from '../registry.js';

const knowledgeBase = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    language: z.string().describe("'auto' (each document's language detected at ingest) or the BCP 47 tag that fixes it"),
    documentCount: z.int(),
    chunkCount: z.int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .loose();
const document = z
  .object({
    id: z.string(),
    knowledgeBaseId: z.string(),
    title: z.string(),
    url: z.string().nullable(),
    format: z.string(),
    status: z.enum(['queued', 'processing', 'ready', 'failed']),
    chunkCount: z.int(),
    bytes: z.int(),
    createdAt: z.string(),
    language: z
      .string()
      .nullable()
      .describe("read-only: the language the text was analysed in (detected, or the base's); null before it has content"),
  })
  .loose();
const hit = z.object({
  chunkId: z.string(),
  documentId: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  page: z.int().optional(),
  text: z.string(),
  score: z.number(),
});
const tag = 'Knowledge bases';
const read = 'knowledge_bases:read';
const write = 'knowledge_bases:write';

/** docs/api-spec.md §6: knowledge bases, their documents, search. */
export const knowledgeRoutes = defineRoutes([
  {
    method: 'post',
    path: '/v1/knowledge-bases',
    tag,
    summary: 'Create a knowledge base',
    auth: AUTHENTICATED,
    permission: write,
    body: kbSchema,
    example: { name: 'Help center', description: 'Public articles' },
    success: { kind: 'envelope', status: 201, data: knowledgeBase },
    errors: [400, ...AUTH_ERRORS, 413],
  },
  {
    method: 'get',
    path: '/v1/knowledge-bases',
    tag,
    summary: 'List knowledge bases',
    auth: AUTHENTICATED,
    permission: read,
    query: pageQuery,
    success: { kind: 'paginated', status: 200, item: knowledgeBase },
    errors: [400, ...AUTH_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/knowledge-bases/{id}',
    tag,
    summary: 'Get a knowledge base',
    auth: AUTHENTICATED,
    permission: read,
    params: pathParams('id'),
    success: { kind: 'envelope', status: 200, data: knowledgeBase },
    errors: [...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'patch',
    path: '/v1/knowledge-bases/{id}',
    tag,
    summary: 'Rename or describe a knowledge base',
    auth: AUTHENTICATED,
    permission: write,
    params: pathParams('id'),
    body: kbPatchSchema,
    example: { description: 'Articles and FAQ' },
    success: { kind: 'envelope', status: 200, data: knowledgeBase },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
  },
  {
    method: 'delete',
    path: '/v1/knowledge-bases/{id}',
    tag,
    summary: 'Delete a knowledge base and its documents',
    auth: AUTHENTICATED,
    permission: write,
    params: pathParams('id'),
    success: { kind: 'envelope', status: 200, data: deleted },
    errors: [...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'post',
    path: '/v1/knowledge-bases/{id}/documents',
    tag,
    summary: 'Add a document: JSON content, a URL to fetch or crawl, or a file',
    auth: AUTHENTICATED,
    permission: write,
    params: pathParams('id'),
    body: z.union([documentSchema, urlDocumentSchema]),
    otherBodies: { 'multipart/form-data': 'a `file` part (.txt .md .html .pdf .docx)' },
    example: { title: 'Returns', content: 'Items can be returned within 30 days.', format: 'text' },
    success: { kind: 'envelope', status: 201, data: document },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
  },
  {
    method: 'post',
    path: '/v1/knowledge-bases/{id}/documents/{docId}/sync',
    tag,
    summary: 'Fetch a URL document again',
    auth: AUTHENTICATED,
    permission: write,
    params: pathParams('id', 'docId'),
    success: { kind: 'envelope', status: 202, data: document },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 409],
  },
  {
    method: 'get',
    path: '/v1/knowledge-bases/{id}/documents',
    tag,
    summary: 'List documents',
    auth: AUTHENTICATED,
    permission: read,
    params: pathParams('id'),
    query: pageQuery,
    success: { kind: 'paginated', status: 200, item: document },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/knowledge-bases/{id}/documents/{docId}',
    tag,
    summary: 'Get a document',
    auth: AUTHENTICATED,
    permission: read,
    params: pathParams('id', 'docId'),
    success: { kind: 'envelope', status: 200, data: document },
    errors: [...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'delete',
    path: '/v1/knowledge-bases/{id}/documents/{docId}',
    tag,
    summary: 'Delete a document',
    auth: AUTHENTICATED,
    permission: write,
    params: pathParams('id', 'docId'),
    success: { kind: 'envelope', status: 200, data: deleted },
    errors: [...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'post',
    path: '/v1/knowledge-bases/{id}/search',
    tag,
    summary: 'Search a knowledge base, best first',
    auth: AUTHENTICATED,
    permission: read,
    params: pathParams('id'),
    body: searchSchema,
    example: { query: 'return policy', limit: 5 },
    success: { kind: 'envelope', status: 200, data: z.array(hit) },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
  },
]);
