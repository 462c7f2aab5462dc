import { z } from 'zod';
import { createSchema, rotateSchema } from '../../api-keys/routes.js';
import { AUTH_ERRORS, AUTHENTICATED, defineRoutes, ID_ERRORS, pageQuery, pathParams } from '../registry.js';

/** Who created a key or webhook (a key minted by a key: that key's creator); null when unknown. */
export const creator = z
  .object({ userId: z.string(), email: z.string().nullable(), name: z.string().nullable() })
  .nullable()
  .describe('The member who created it; null when unknown (created before this was recorded)');

const apiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    last4: z.string(),
    permissions: z.array(z.string()),
    assistantId: z.string().nullable(),
    allowedIps: z.array(z.string()),
    rateLimit: z.object({ perMinute: z.int().nullable(), perDay: z.int().nullable() }),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    createdBy: creator,
  })
  .loose();
const withKey = apiKey.extend({ key: z.string().describe('The full key: shown once') });
const tag = 'API keys';
const permission = 'api_keys:write';

/** docs/api-spec.md §4: API keys. */
export const apiKeyRoutes = defineRoutes([
  {
    method: 'post',
    path: '/v1/api-keys',
    tag,
    summary: 'Create an API key (the key is returned once)',
    auth: AUTHENTICATED,
    permission,
    body: createSchema,
    example: { name: 'CI', permissions: ['chat', 'assistants:read'], allowedIps: ['10.0.0.0/8'], rateLimit: { perMinute: 30 } },
    success: { kind: 'envelope', status: 201, data: withKey },
    errors: [400, ...AUTH_ERRORS, 404, 413],
  },
  {
    method: 'get',
    path: '/v1/api-keys',
    tag,
    summary: 'List API keys (never the key itself)',
    auth: AUTHENTICATED,
    permission,
    query: pageQuery,
    success: { kind: 'paginated', status: 200, item: apiKey },
    errors: [400, ...AUTH_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/api-keys/{id}',
    tag,
    summary: 'Get an API key',
    auth: AUTHENTICATED,
    permission,
    params: pathParams('id'),
    success: { kind: 'envelope', status: 200, data: apiKey },
    errors: [...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'delete',
    path: '/v1/api-keys/{id}',
    tag,
    summary: 'Revoke an API key at once',
    auth: AUTHENTICATED,
    permission,
    params: pathParams('id'),
    success: { kind: 'envelope', status: 200, data: z.object({ id: z.string(), revoked: z.literal(true) }) },
    errors: [...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'post',
    path: '/v1/api-keys/{id}/rotate',
    tag,
    summary: 'Rotate: a new key; the old one works for graceSeconds',
    auth: AUTHENTICATED,
    permission,
    params: pathParams('id'),
    body: rotateSchema,
    example: { graceSeconds: 60 },
    success: { kind: 'envelope', status: 201, data: withKey.extend({ replaces: z.string() }) },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
  },
]);
