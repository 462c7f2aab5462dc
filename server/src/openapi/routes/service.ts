import { z } from 'zod';
import { defineRoutes, PUBLIC } from '../registry.js';

const tag = 'Service';

/** Routes outside /v1: health, the widget script, the demo, this document (docs/api-spec.md §1). */
export const serviceRoutes = defineRoutes([
  {
    method: 'get',
    path: '/healthz',
    tag,
    summary: 'Liveness',
    auth: PUBLIC,
    success: { kind: 'bare', status: 200, schema: z.object({ status: z.literal('ok') }) },
    errors: [],
  },
  {
    method: 'get',
    path: '/metrics',
    tag,
    summary:
      'Prometheus metrics (text exposition format 0.0.4) to `Authorization: Bearer <METRICS_TOKEN>` (not an API key); 401 without it, 404 while METRICS_TOKEN is unset (docs/api-spec.md §12, docs/operations.md)',
    auth: PUBLIC,
    success: { kind: 'text', status: 200, contentType: 'text/plain; version=0.0.4; charset=utf-8' },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/readyz',
    tag,
    summary:
      'Readiness: 200 {"status":"ready"} once the database answers and the retrieval index is built; 503 {"status":"starting"} before (docs/api-spec.md §11)',
    auth: PUBLIC,
    success: { kind: 'bare', status: 200, schema: z.object({ status: z.literal('ready') }) },
    errors: [],
  },
  {
    method: 'get',
    path: '/js/widget.js',
    tag,
    summary: 'The embeddable widget script',
    auth: PUBLIC,
    success: { kind: 'text', status: 200, contentType: 'text/javascript; charset=utf-8' },
    errors: [404],
  },
  {
    method: 'get',
    path: '/demo',
    tag,
    summary: 'Redirect to /demo/',
    auth: PUBLIC,
    success: { kind: 'empty', status: 301 },
    errors: [404],
  },
  {
    method: 'get',
    path: '/demo/',
    tag,
    summary: 'The demo page (when the server was seeded with the demo)',
    auth: PUBLIC,
    success: { kind: 'text', status: 200, contentType: 'text/html; charset=utf-8' },
    errors: [404],
  },
  {
    method: 'get',
    path: '/demo/docs/{name}',
    tag,
    summary: 'A demo knowledge file',
    auth: PUBLIC,
    params: z.object({ name: z.string().regex(/^[\w-]+$/) }),
    success: { kind: 'text', status: 200, contentType: 'text/markdown; charset=utf-8' },
    errors: [404],
  },
  {
    method: 'get',
    path: '/v1/openapi.json',
    tag,
    summary: 'This API as an OpenAPI 3.1 document',
    auth: PUBLIC,
    success: { kind: 'bare', status: 200, schema: z.object({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }).loose() },
    errors: [],
  },
]);
