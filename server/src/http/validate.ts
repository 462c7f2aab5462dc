import type { Request } from 'express';
import { z } from 'zod';
import { AppError } from './errors.js';

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.join('.') : 'body';
  return `${where}: ${issue.message}`;
}

/** Parses input with a schema at the edge; failure is a 400 naming every bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'body'): z.infer<S> {
  if (input === undefined && what === 'body')
    throw new AppError('validation_error', 'Request body must be a JSON object (Content-Type: application/json)');
  const result = schema.safeParse(input);
  if (!result.success) throw new AppError('validation_error', result.error.issues.slice(0, 5).map(describeIssue).join('; '));
  return result.data;
}

/**
 * One path segment's value. Any non-empty string passes: an id that names nothing is the handler's
 * 404 (docs/api-spec.md), never a 400, so the format of ids is not checked here.
 */
const pathSegment = z.string().min(1, 'must not be empty');

/**
 * A route's path parameters, validated and typed: `pathParams(req, 'id', 'docId')` is
 * `{ id: string; docId: string }`. Express types `req.params` as `string | string[]` once a
 * middleware precedes the handler, so without this every handler cast; a parameter the route does
 * not declare, or a wildcard's list, is a 400 naming it instead of a wrong type at run time.
 */
export function pathParams<const K extends string>(req: Request, ...names: K[]): Record<K, string> {
  const schema = z.object(Object.fromEntries(names.map((name) => [name, pathSegment])));
  // The schema holds exactly these names, each a string; zod types a computed shape by `string` keys only.
  return parseInput(schema, req.params, 'path') as Record<K, string>;
}
