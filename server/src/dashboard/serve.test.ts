import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/test-server.js';
import { ASSET_CACHE } from './serve.js';

let server: TestServer;
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-dashboard-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><title>Parley dashboard</title><script type="module" src="/dashboard/assets/index-AbC123.js"></script>',
  );
  fs.writeFileSync(path.join(dir, 'widget-preview.html'), '<!doctype html><title>Widget preview</title>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-AbC123.js'), 'console.log("app")');
  fs.writeFileSync(path.join(dir, '.env'), 'SECRET=1');
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await server?.close();
});

const get = (p: string, init?: RequestInit) => fetch(server.url + p, { redirect: 'manual', ...init });

describe('GET /dashboard/* serves the built SPA', () => {
  it('serves index.html uncached, with the CSP', async () => {
    server = await startServer({ dashboardDir: dir });
    const res = await get('/dashboard/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(await res.text()).toContain('Parley dashboard');
  });

  it('serves hashed assets for a year, immutable; a missing asset is a real 404', async () => {
    server = await startServer({ dashboardDir: dir });
    const res = await get('/dashboard/assets/index-AbC123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(ASSET_CACHE);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(await res.text()).toBe('console.log("app")');
    const missing = await get('/dashboard/assets/index-Old999.js');
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain('<title>');
  });

  it('answers index.html for deep links and the invitation link', async () => {
    server = await startServer({ dashboardDir: dir });
    for (const p of [
      '/dashboard/assistants/asst_x/widget',
      '/dashboard/login?next=%2Fdashboard%2Fknowledge',
      '/dashboard/invite/inv_abc',
    ]) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('Parley dashboard');
    }
  });

  it('serves the widget preview page as its own file', async () => {
    server = await startServer({ dashboardDir: dir });
    const res = await get('/dashboard/widget-preview.html');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Widget preview');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
  });

  it('redirects /dashboard to /dashboard/, keeping the query', async () => {
    server = await startServer({ dashboardDir: dir });
    const res = await get('/dashboard?x=1');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/dashboard/?x=1');
  });

  it('never serves files outside the build or dotfiles', async () => {
    server = await startServer({ dashboardDir: dir });
    const dot = await get('/dashboard/.env');
    expect(await dot.text()).not.toContain('SECRET');
    const traversal = await get('/dashboard/%2e%2e/%2e%2e/package.json');
    expect(await traversal.text()).not.toContain('"name"');
  });

  it('answers a clear 404 page when the dashboard is not built', async () => {
    server = await startServer({ dashboardDir: path.join(dir, 'nope') });
    const res = await get('/dashboard/');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('npm run build --workspace dashboard');
  });
});
