import { Router } from 'express';
import type { AppContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { pathParams } from '../http/validate.js';
import { getAsset } from './store.js';

/**
 * `GET /v1/assets/:id`, public: avatars are shown by the widget on other sites. An asset's
 * bytes never change under its id, so it is cached for a year; `nosniff` and the sniffed type
 * keep a browser from reading it as anything but that image, and the sandbox CSP stops it
 * from running anything if opened directly.
 */
export function assetsRouter(ctx: AppContext): Router {
  const r = Router();
  r.get('/assets/:id', async (req, res) => {
    const { id } = pathParams(req, 'id');
    const asset = /^ast_[A-Za-z0-9]{1,40}$/.test(id) ? await getAsset(ctx.storage, id) : null;
    if (!asset) throw notFound('Asset');
    res.setHeader('Content-Type', asset.contentType);
    res.setHeader('Content-Length', String(asset.bytes));
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('ETag', `"${asset.sha256}"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (req.headers['if-none-match'] === `"${asset.sha256}"`) return void res.status(304).end();
    res.end(asset.data);
  });
  return r;
}
