import type { RequestHandler } from 'express';
import { AppError } from './errors.js';

/**
 * Refuses a URL whose path or query holds a NUL character (%00) with 400 validation_error naming
 * where, on every route and both databases alike: PostgreSQL text cannot hold U+0000, so an id
 * or filter carrying one failed in the statement (a 500) where SQLite merely found nothing.
 * JSON bodies get the same rule in json-body.ts.
 */
export function refuseNulInUrl(): RequestHandler {
  return function nulInUrl(req, _res, next) {
    // A NUL can only arrive as %00 (Node's parser refuses a raw one), and Express 5 parses the
    // query again on every read of req.query: the usual URL costs one scan, nothing more.
    if (!req.url.includes('%00')) return next();
    if (/%00/i.test(req.path)) return next(new AppError('validation_error', 'The URL path contains a NUL character (%00)'));
    for (const [name, value] of Object.entries(req.query)) {
      const values = Array.isArray(value) ? value : [value];
      if (name.includes('\0') || values.some((v) => typeof v === 'string' && v.includes('\0'))) {
        return next(new AppError('validation_error', `Query parameter "${name.replaceAll('\0', '\\0')}" contains a NUL character (%00)`));
      }
    }
    next();
  };
}
