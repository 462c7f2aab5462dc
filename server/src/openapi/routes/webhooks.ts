import { z } from 'zod';
import { webhookSchemas } from '../../webhooks/routes.js';
import { creator } from './api-keys.js';
import { AUTH_ERRORS, AUTHENTICATED, defineRoutes, deleted, ID_ERRORS, pageQuery, pathParams } from '../registry.js';

const { createSchema, patchSchema } = webhookSchemas(false);
const endpoint = z
  .object({
    id: z.string(),
    assistantId: z.string().nullable(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    createdBy: creator,
  })
  .loose();
const attempt = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    event: z.string(),
    attempt: z.int(),
    attemptedAt: z.string(),
    status: z.enum(['succeeded', 'failed']),
    responseCode: z.int().nullable(),
    latencyMs: z.number(),
    error: z.string().nullable(),
    nextRetryAt: z.string().nullable(),
  })
  .loose();
const tag = 'Webhooks';
const permission = 'webhooks:write';

/** docs/api-spec.md §9: webhook endpoints and their delivery log. */
export const webhookRoutes = defineRoutes([
  {
    method: 'post',
    path: '/v1/webhooks',
    tag,
    summary: 'Create an endpoint (the signing secret is returned)',
    auth: AUTHENTICATED,
    permission,
    body: createSchema,
    example: { url: 'https://hooks.example.com/parley', events: ['message.received'], description: 'CRM' },
    success: { kind: 'envelope', status: 201, data: endpoint.extend({ secret: z.string() }) },
    errors: [400, ...AUTH_ERRORS, 404, 409, 413],
  },
  {
    method: 'get',
    path: '/v1/webhooks',
    tag,
    summary: 'List endpoints',
    auth: AUTHENTICATED,
    permission,
    query: pageQuery,
    success: { kind: 'paginated', status: 200, item: endpoint },
    errors: [400, ...AUTH_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/webhooks/{id}',
    tag,
    summary: 'Get an endpoint',
    auth: AUTHENTICATED,
    permission,
    params: pathParams('id'),
    success: { kind: 'envelope', status: 200, data: endpoint },
    errors: [...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'patch',
    path: '/v1/webhooks/{id}',
    tag,
    summary: 'Update an endpoint',
    auth: AUTHENTICATED,
    permission,
    params: pathParams('id'),
    body: patchSchema,
    example: { description: 'CRM (staging)', enabled: true },
    success: { kind: 'envelope', status: 200, data: endpoint },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
  },
  {
    method: 'delete',
    path: '/v1/webhooks/{id}',
    tag,
    summary: 'Delete an endpoint',
    auth: AUTHENTICATED,
    permission,
    params: pathParams('id'),
    success: { kind: 'envelope', status: 200, data: deleted },
    errors: [...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/webhooks/{id}/deliveries',
    tag,
    summary: 'Delivery attempts, newest first',
    auth: AUTHENTICATED,
    permission,
    params: pathParams('id'),
    query: pageQuery,
    success: { kind: 'paginated', status: 200, item: attempt },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'post',
    path: '/v1/webhooks/{id}/test',
    tag,
    summary: 'Send a webhook.test event',
    auth: AUTHENTICATED,
    permission,
    params: pathParams('id'),
    success: {
      kind: 'envelope',
      status: 200,
      data: z.object({
        webhookId: z.string(),
        event: z.literal('webhook.test'),
        endpointId: z.string(),
        status: z.string(),
        createdAt: z.string(),
      }),
    },
    errors: [...AUTH_ERRORS, ...ID_ERRORS, 409],
  },
]);
