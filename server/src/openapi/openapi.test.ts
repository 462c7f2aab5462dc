import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { client } from '../../test/http.js';
import { startTestServer, type DemoTestServer } from '../../test/test-server.js';
import { buildOpenApiDocument, checkRouteDocs } from './document.js';
import { API_DOC_PATH, renderApiMarkdown } from './markdown.js';
import { listMountedRoutes, normaliseRoutePath } from '../../test/mounted-routes.js';
import { defineRoutes, pathParams } from './registry.js';
import { ROUTE_DOCS } from './routes/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let server: DemoTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const documented = new Set(ROUTE_DOCS.map((d) => `${d.method} ${d.path}`));

describe('the route registry', () => {
  it('documents every route the app mounts', () => {
    const mounted = listMountedRoutes(createApp(server.ctx).app);
    // The walk itself must see the app: both prefixes collapse to /v1, routers at ['/a', '/b'] both listed.
    expect(mounted.length).toBeGreaterThan(40);
    expect(mounted).toContainEqual({ method: 'post', path: '/v1/integrations/{id}/chat' });
    expect(mounted).toContainEqual({ method: 'get', path: '/v1/apps/{id}' });
    expect(mounted.some((r) => r.path.startsWith('/api/'))).toBe(false);
    const missing = mounted.filter((r) => !documented.has(`${r.method} ${r.path}`)).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(
      missing,
      `mounted but not described in server/src/openapi/routes (see server/src/openapi/README.md):\n  ${missing.join('\n  ')}\n`,
    ).toEqual([]);
  });

  it('describes only routes that are mounted', () => {
    const mounted = new Set(listMountedRoutes(createApp(server.ctx).app).map((r) => `${r.method} ${r.path}`));
    const stale = [...documented].filter((k) => !mounted.has(k));
    expect(stale, `described but not mounted:\n  ${stale.join('\n  ')}\n`).toEqual([]);
  });

  it('normalises Express paths to OpenAPI paths', () => {
    expect(normaliseRoutePath('/api/v1/widget/:appId/*rest')).toBe('/v1/widget/{appId}/{rest}');
    expect(normaliseRoutePath('/api/v1x')).toBe('/api/v1x');
  });

  it('refuses descriptions that contradict their path', () => {
    const base = { tag: 'T', summary: 's', auth: [], success: { kind: 'empty' as const, status: 204 }, errors: [] };
    expect(() => checkRouteDocs(defineRoutes([{ ...base, method: 'get', path: '/v1/x/:id' }]))).toThrow(/OpenAPI style/);
    expect(() => checkRouteDocs(defineRoutes([{ ...base, method: 'get', path: '/v1/x/{id}' }]))).toThrow(/params must declare exactly id/);
    expect(() =>
      checkRouteDocs(
        defineRoutes([
          { ...base, method: 'get', path: '/v1/x/{id}', params: pathParams('id') },
          { ...base, method: 'get', path: '/v1/x/{id}', params: pathParams('id') },
        ]),
      ),
    ).toThrow(/twice/);
  });

  it('answers every documented route (no "No such route") under both prefixes, with a valid credential', async () => {
    const api = client(server.url, server.apiKey);
    const noRoute: string[] = [];
    for (const d of ROUTE_DOCS) {
      // Unknown ids: reaching the handler is the point, and nothing real gets deleted.
      const concrete = d.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'name' ? 'no-such-doc' : `zz_missing_${name}`));
      const prefixes = concrete.startsWith('/v1/') ? [concrete, concrete.replace(/^\/v1\//, '/api/v1/')] : [concrete];
      for (const p of prefixes) {
        const res = await api.request(d.method.toUpperCase(), p, { body: d.example, headers: { origin: server.url } });
        if (res.status === 404 && /No such route/.test(res.text)) noRoute.push(`${d.method.toUpperCase()} ${p}`);
      }
    }
    expect(noRoute).toEqual([]);
  });
});

describe('GET /v1/openapi.json', () => {
  it('serves the OpenAPI 3.1 document without auth, under both prefixes', async () => {
    const anon = client(server.url);
    for (const p of ['/v1/openapi.json', '/api/v1/openapi.json']) {
      const res = await anon.get(p);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(buildOpenApiDocument());
    }
    const doc = buildOpenApiDocument() as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.values(doc.paths).flatMap((p) => Object.keys(p)).length).toBe(ROUTE_DOCS.length);
    // The one form-1 route says so; the rest use the envelope.
    expect(JSON.stringify(doc.paths['/v1/integrations/{id}/chat']!.post!.responses['400'])).toMatch(/ErrorForm1/);
    expect(JSON.stringify(doc.paths['/v1/apps/{id}/chat']!.post!.responses['400'])).toMatch(/schemas\/Error"/);
  });
});

describe('docs/api.md', () => {
  it('is what `npm run docs:api` generates from the registry (run it and commit the file)', () => {
    const committed = fs.readFileSync(path.join(ROOT, API_DOC_PATH), 'utf8');
    expect(committed === renderApiMarkdown(buildOpenApiDocument()), 'docs/api.md is stale: run npm run docs:api').toBe(true);
  });
});
