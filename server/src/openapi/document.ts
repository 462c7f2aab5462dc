import { z } from 'zod';
import { ERROR_STATUS } from '../http/errors.js';
import { CSRF_HEADER, SESSION_COOKIE } from '../auth/session-cookie.js';
import type { RouteDoc, SuccessDoc } from './registry.js';
import { ROUTE_DOCS } from './routes/index.js';

/** A JSON Schema / OpenAPI object: plain JSON, built once. */
type Json = Record<string, unknown>;

export const OPENAPI_VERSION = '3.1.0';

const GENERAL_CODES = Object.keys(ERROR_STATUS);
const FORM1_CODES = [
  'INVALID_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'UNAVAILABLE',
];

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  400: 'Invalid input',
  401: 'Missing or invalid credentials',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  429: 'Rate limited',
  500: 'Server error',
  503: 'Not ready',
};

/**
 * Zod → JSON Schema (2020-12, OpenAPI 3.1's dialect). Requests are described as clients send
 * them (`io: 'input'`: defaults make fields optional); responses as the server writes them.
 * Refinements and transforms have no JSON Schema form: they are left out, not faked.
 */
export function toSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  return rest;
}

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

function parameters(doc: RouteDoc): Json[] {
  const out: Json[] = [];
  const add = (where: 'path' | 'query', obj: z.ZodObject | undefined) => {
    if (!obj) return;
    const json = toSchema(obj, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      const { description, ...s } = schema;
      out.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        schema: s,
        ...(description ? { description } : {}),
      });
    }
  };
  add('path', doc.params);
  add('query', doc.query);
  return out;
}

function successContent(s: SuccessDoc | { kind: 'sse'; events: Record<string, z.ZodType> }): Json | undefined {
  switch (s.kind) {
    case 'envelope':
      return {
        'application/json': {
          schema: {
            type: 'object',
            required: ['status', 'data'],
            properties: { status: { const: 'success' }, data: toSchema(s.data, 'output') },
          },
        },
      };
    case 'paginated':
      return {
        'application/json': {
          schema: {
            type: 'object',
            required: ['status', 'data', 'pagination'],
            properties: {
              status: { const: 'success' },
              data: { type: 'array', items: toSchema(s.item, 'output') },
              pagination: ref('Pagination'),
            },
          },
        },
      };
    case 'bare':
      return { 'application/json': { schema: toSchema(s.schema, 'output') } };
    case 'file':
      return Object.fromEntries(s.contentTypes.map((t) => [t, { schema: { type: 'string' } }]));
    case 'text':
      return { [s.contentType]: { schema: { type: 'string' } } };
    case 'sse':
      return {
        'text/event-stream': {
          schema: { type: 'string', description: 'Server-Sent Events' },
          'x-events': Object.fromEntries(Object.entries(s.events).map(([name, schema]) => [name, toSchema(schema, 'output')])),
        },
      };
    case 'empty':
      return undefined;
  }
}

function responses(doc: RouteDoc): Json {
  const out: Json = {};
  const main = doc.success;
  const content: Json = { ...successContent(main) };
  for (const alt of doc.alternatives ?? []) if (alt.status === main.status) Object.assign(content, successContent(alt));
  out[String(main.status)] = {
    description: main.description ?? STATUS_TEXT[main.status] ?? 'Success',
    ...(Object.keys(content).length ? { content } : {}),
  };
  const errorRef = doc.errorShape === 'form1' ? ref('ErrorForm1') : ref('Error');
  // A path parameter can be malformed (%ZZ): 400. A 500 is always possible and always in the
  // route's error shape (never a stack trace).
  for (const status of [...new Set([...doc.errors, ...(doc.params ? [400] : []), 500])].sort()) {
    out[String(status)] = { description: STATUS_TEXT[status] ?? 'Error', content: { 'application/json': { schema: errorRef } } };
  }
  return out;
}

function requestBody(doc: RouteDoc): Json | undefined {
  if (!doc.body && !doc.otherBodies) return undefined;
  const content: Json = {};
  if (doc.body)
    content['application/json'] = { schema: toSchema(doc.body, 'input'), ...(doc.example !== undefined ? { example: doc.example } : {}) };
  for (const [type, description] of Object.entries(doc.otherBodies ?? {})) content[type] = { schema: { type: 'object', description } };
  return { required: true, content };
}

/** Unique per operation, as OpenAPI requires: a path's trailing slash is a word of its own (`/demo/`: getDemoIndex). */
function operationId(doc: RouteDoc): string {
  const words = doc.path
    .replace(/^\/(v1\/)?/, '')
    .replace(/\/$/, '/index')
    .split(/[/{}.-]+/)
    .filter(Boolean);
  return [doc.method, ...words].map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('');
}

function operation(doc: RouteDoc): Json {
  const permissions = doc.permission === undefined ? [] : ([] as string[]).concat(doc.permission);
  return {
    operationId: operationId(doc),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [doc.tag],
    security: doc.auth.map((scheme) => ({ [scheme]: [] })),
    ...(permissions.length ? { 'x-permissions': permissions } : {}),
    'x-error-shape': doc.errorShape ?? 'envelope',
    ...(parameters(doc).length ? { parameters: parameters(doc) } : {}),
    ...(requestBody(doc) ? { requestBody: requestBody(doc) } : {}),
    responses: responses(doc),
  };
}

/** Refuses a registry that contradicts itself: duplicates, or `{params}` the schema does not name. */
export function checkRouteDocs(docs: readonly RouteDoc[]): void {
  const seen = new Set<string>();
  for (const d of docs) {
    const key = `${d.method} ${d.path}`;
    if (seen.has(key)) throw new Error(`openapi: ${key} is described twice`);
    seen.add(key);
    if (/:\w/.test(d.path)) throw new Error(`openapi: ${key}: write path parameters OpenAPI style, {name}`);
    const names = [...d.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const declared = Object.keys(d.params?.shape ?? {});
    if (names.join() !== declared.join())
      throw new Error(
        `openapi: ${key}: params must declare exactly ${names.join(', ') || 'nothing'} (got ${declared.join(', ') || 'nothing'})`,
      );
  }
}

/** Builds the OpenAPI 3.1 document from the route descriptions. */
export function buildOpenApiDocument(docs: readonly RouteDoc[] = ROUTE_DOCS): Json {
  checkRouteDocs(docs);
  const paths: Record<string, Json> = {};
  for (const d of docs) (paths[d.path] ??= {})[d.method] = operation(d);
  const errorBody = (codes: string[]) => ({
    type: 'object',
    required: ['code', 'message'],
    properties: { code: { enum: codes }, message: { type: 'string' } },
  });
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Parley API',
      version: '1',
      description: 'Every /v1 route is also served under /api/v1. Generated from the route schemas (server/src/openapi).',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(docs.map((d) => d.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key (sk_…) or a user session token from /v1/auth/login' },
        cookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: `Dashboard session cookie (named __Host-${SESSION_COOKIE} when PUBLIC_URL is https; a request with two is refused): counts only from PUBLIC_URL's origin with the ${CSRF_HEADER}: 1 header. Rate limits (X-RateLimit-*) per session of max(plan, 600/min) and max(plan, 20,000/day); a bearer token keeps the plan's limits`,
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['status', 'error'],
          properties: { status: { const: 'error' }, error: errorBody(GENERAL_CODES) },
        },
        ErrorForm1: {
          type: 'object',
          required: ['error'],
          properties: { error: errorBody(FORM1_CODES) },
          description: 'The seed\'s "form 1" errors (POST /v1/integrations/{id}/chat)',
        },
        Pagination: {
          type: 'object',
          required: ['total', 'page', 'limit', 'pages'],
          properties: { total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' }, pages: { type: 'integer' } },
        },
      },
    },
  };
}

let cached: Json | null = null;

/** The document for this build, made on first use (serving it costs nothing after that). */
export function openApiDocument(): Json {
  cached ??= buildOpenApiDocument();
  return cached;
}
