import crypto from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '../http/errors.js';
import type { Metrics } from './metrics.js';

const digest = (s: string): Buffer => crypto.createHash('sha256').update(s).digest();

/**
 * `GET /metrics` (docs/api-spec.md §12): the Prometheus text exposition format to
 * `Authorization: Bearer <METRICS_TOKEN>`, 401 to anything else; 404 while METRICS_TOKEN is
 * unset, as for a route that does not exist. The token is compared through SHA-256 digests with
 * timingSafeEqual: equal lengths whatever was sent, so the time taken tells nothing about it.
 */
export function metricsEndpoint(metrics: Metrics, token: string | undefined): RequestHandler {
  const expected = token === undefined ? null : digest(token);
  return async function serveMetrics(req, res) {
    if (!expected) throw new AppError('resource_not_found', 'Metrics are off on this server: set METRICS_TOKEN to serve them');
    const match = /^Bearer ([^\s]+)$/i.exec(req.headers.authorization ?? '');
    if (!match || !crypto.timingSafeEqual(digest(match[1] as string), expected)) {
      throw new AppError('authentication_error', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>', {
        'WWW-Authenticate': 'Bearer realm="metrics"',
      });
    }
    const { contentType, text } = await metrics.render();
    res.setHeader('Cache-Control', 'no-store');
    res.type(contentType).send(text);
  };
}
