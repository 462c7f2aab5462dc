import { z } from 'zod';
import type { Permission } from '../auth/permissions.js';

/**
 * The route registry: every HTTP route the app mounts is described once, as data, by the
 * module that owns it (server/src/openapi/routes/<resource>.ts). The OpenAPI document
 * (document.ts), docs/api.md and the fuzz suite are all generated from these descriptions,
 * so a description is the contract: the coverage test fails when a mounted route has none.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';

/** How a route authenticates: a bearer token (API key or user session), the dashboard's session cookie, or nothing. */
export type AuthScheme = 'bearer' | 'cookie';

/**
 * The body a route answers on success:
 * - `envelope`: `{"status":"success","data":<schema>}` (docs/api-spec.md §2)
 * - `paginated`: `{"status":"success","data":[<item>],"pagination":{...}}` (docs/api-spec.md §3)
 * - `bare`: the schema itself, no envelope (integrations chat, conversation messages, /healthz)
 * - `sse`: `text/event-stream` with the named events, each event's data given by a schema
 * - `file`: a download in one of the listed content types (exports)
 * - `text`: a non-JSON body (widget.js, HTML, markdown)
 * - `empty`: no body (204)
 */
export type SuccessDoc =
  | { kind: 'envelope'; status: number; data: z.ZodType; description?: string }
  | { kind: 'paginated'; status: number; item: z.ZodType; description?: string }
  | { kind: 'bare'; status: number; schema: z.ZodType; description?: string }
  | { kind: 'file'; status: number; contentTypes: string[]; description?: string }
  | { kind: 'text'; status: number; contentType: string; description?: string }
  | { kind: 'empty'; status: number; description?: string };

/** The body of an error: the general envelope, or the seed's "form 1" (integrations chat only). */
export type ErrorShape = 'envelope' | 'form1';

export interface RouteDoc {
  method: HttpMethod;
  /** OpenAPI style, with the /v1 prefix: `/v1/assistants/{id}`. The /api/v1 alias is implied. */
  path: string;
  summary: string;
  /** Longer text for docs/api.md (optional). */
  description?: string;
  tag: string;
  /** Accepted credentials; `[]` = public (no auth). */
  auth: readonly AuthScheme[];
  /** Permission(s) needed (any of them), when the route checks one. */
  permission?: Permission | readonly Permission[];
  /** Path parameters, one string field per `{name}` in `path`. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** JSON request body (the schema the route parses with). */
  body?: z.ZodType;
  /** Other request body media types the route accepts (e.g. multipart/form-data), described in words. */
  otherBodies?: Record<string, string>;
  /** A valid request body: shown in the docs and mutated by the fuzz suite into bad ones. */
  example?: unknown;
  success: SuccessDoc;
  /** Extra success answers (e.g. SSE when `stream: true`). */
  alternatives?: (SuccessDoc | { kind: 'sse'; status: number; events: Record<string, z.ZodType>; description?: string })[];
  /** HTTP statuses of the documented error answers (400, 401, ...). */
  errors: number[];
  /** Defaults to `envelope`. */
  errorShape?: ErrorShape;
}

/**
 * A resource's route descriptions. Identity at run time; it exists so each resource file reads
 * `export const fooRoutes = defineRoutes([...])` and gets the type checked in one place.
 */
export function defineRoutes(routes: RouteDoc[]): RouteDoc[] {
  return routes;
}

/* Shared pieces, so every resource file describes the common shapes the same way. */

/**
 * Every authenticated /v1 route goes through one middleware (auth/middleware.ts requireAuth), which
 * takes a bearer token or the dashboard's session cookie (with its CSRF header, docs/api-spec.md §11).
 */
export const AUTHENTICATED: readonly AuthScheme[] = ['bearer', 'cookie'];

/** A wildcard path parameter (`*rest` in Express): any text matches, so the fuzz only breaks its encoding. */
export const wildcard = (what: string) => z.string().describe(`wildcard: ${what}`);
export const PUBLIC: readonly AuthScheme[] = [];

/** Path parameter object: `pathParams('id', 'docId')`. */
export function pathParams(...names: string[]): z.ZodObject {
  return z.object(Object.fromEntries(names.map((n) => [n, z.string().min(1).max(200)])));
}

/** `page` and `limit` (docs/api-spec.md §3), for every paginated route. */
export const pageQuery = z.object({
  page: z.int().min(1).default(1).optional().describe('Page number, from 1'),
  limit: z.int().min(1).max(100).default(20).optional().describe('Items per page, 1..100'),
});

/** Errors every authenticated route can answer. */
export const AUTH_ERRORS = [401, 403, 429];
/** Errors a route with an id in its path adds. */
export const ID_ERRORS = [404];

export const deleted = z.object({ id: z.string(), deleted: z.literal(true) });

/** Path as Express mounts it, from the OpenAPI path: `/v1/x/{id}` → `/v1/x/:id`. */
export function expressPath(openapiPath: string): string {
  return openapiPath.replace(/\{(\w+)\}/g, ':$1');
}
