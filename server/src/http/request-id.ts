import crypto from 'node:crypto';
import type { RequestHandler } from 'express';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** Echoes a sane incoming X-Request-Id, else makes one; every response carries it. */
export function requestId(): RequestHandler {
  return function assignRequestId(req, res, next) {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : crypto.randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}
