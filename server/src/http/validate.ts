import type { z } from 'zod';
import { AppError } from './errors.js';

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.join('.') : 'body';
  return `${where}: ${issue.message}`;
}

/** Parses input with a schema at the edge; failure is a 400 naming every bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'body'): z.infer<S> {
  if (input === undefined && what === 'body') throw new AppError('validation_error', 'Request body must be a JSON object (Content-Type: application/json)');
  const result = schema.safeParse(input);
  if (!result.success) throw new AppError('validation_error', result.error.issues.slice(0, 5).map(describeIssue).join('; '));
  return result.data;
}
