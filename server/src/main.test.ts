import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, killGroup, startMain, TSX, type Running } from '../test/main-process.js';
import { REPO_ROOT } from './paths.js';

const running: Running[] = [];
afterEach(() => {
  for (const r of running.splice(0)) killGroup(r.child, 'SIGKILL');
});

describe('npm start (server/src/main.ts)', () => {
  it('seeds the demo on a new database, prints a working curl line, stops cleanly on SIGTERM, and keeps data across restarts', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-main-'));
    const port = await freePort();
    // No background demo traffic here: this test counts the conversations it makes.
    const env = { PORT: String(port), DATABASE_PATH: path.join(dir, 'db', 'parley.db'), DEMO_TRAFFIC_CONVERSATIONS: '0' };
    const first = await startMain(env);
    running.push(first);
    const banner = first.output();
    const url = `http://localhost:${port}`;
    expect(banner).toContain(`Demo page:  ${url}/demo/`);
    expect(banner).toContain('demo@parley.local');
    expect(banner).toContain(`Dashboard:  ${url}/dashboard/`);
    const key = /Bearer (sk_[A-Za-z0-9_-]+)/.exec(banner)?.[1];
    const assistantId = /integrations\/(asst_[A-Za-z0-9]+)\/chat/.exec(banner)?.[1];
    expect(key).toBeTruthy();
    const chat = await fetch(`${url}/v1/integrations/${assistantId}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'How do I add the chat widget to my website?' }),
    });
    const body = (await chat.json()) as { response: string; confidence: number; sources: { title: string }[] };
    expect(chat.status).toBe(200);
    expect(body.response).toContain('script');
    expect(body.confidence).toBeGreaterThan(0.5);
    expect(body.sources[0]?.title).toBe('Adding the chat widget to your website');
    const demoPage = await fetch(`${url}/demo/`);
    expect(demoPage.status).toBe(200);
    expect(await demoPage.text()).toContain(`data-app-id="${assistantId}"`);
    // The printed login signs in to the dashboard (cookie session from PUBLIC_URL's origin).
    const login = await fetch(`${url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-parley-csrf': '1', origin: url },
      body: JSON.stringify({ email: 'demo@parley.local', password: 'parley-demo-password' }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.getSetCookie()[0]).toMatch(/^parley_session=pst_/);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await startMain(env);
    running.push(second);
    const newKey = /Bearer (sk_[A-Za-z0-9_-]+)/.exec(second.output())?.[1];
    expect(newKey).toBeTruthy();
    expect(newKey).not.toBe(key);
    expect(second.output()).toContain(`integrations/${assistantId}/chat`);
    const history = await fetch(`${url}/v1/analytics/conversations`, { headers: { authorization: `Bearer ${newKey}` } });
    expect(((await history.json()) as { pagination: { total: number } }).pagination.total).toBe(1);
    const oldKey = await fetch(`${url}/v1/assistants`, { headers: { authorization: `Bearer ${key}` } });
    expect(oldKey.status).toBe(401);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('finishes an in-flight request before exiting on SIGTERM', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-main-'));
    const port = await freePort();
    const srv = await startMain({ PORT: String(port), DATABASE_PATH: path.join(dir, 'parley.db') });
    running.push(srv);
    // Registration hashes a password (tens of ms): SIGTERM lands while it is in flight, and while
    // the first start writes the demo traffic. "In flight" means the whole request has left the
    // client on an established connection; a connection still in the kernel's accept queue when
    // the listener closes is reset by the OS, which no server can prevent.
    const body = JSON.stringify({ email: 'late@example.com', password: 'long enough pw', organizationName: 'Late' });
    const pending = new Promise<{ status: number }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/v1/auth/register',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        },
      );
      req.on('error', reject);
      req.on('finish', () => {
        setTimeout(() => srv.child.kill('SIGTERM'), 5);
      });
      req.end(body);
    });
    const res = await pending;
    expect(res.status).toBe(201);
    expect(await srv.exited).toBe(0);
  });

  it('loses no acknowledged write when killed with SIGKILL', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-main-'));
    const port = await freePort();
    const env = { PORT: String(port), DATABASE_PATH: path.join(dir, 'parley.db') };
    const srv = await startMain(env);
    running.push(srv);
    const key = /Bearer (sk_[A-Za-z0-9_-]+)/.exec(srv.output())?.[1];
    const base = `http://127.0.0.1:${port}/v1/knowledge-bases`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const names = Array.from({ length: 20 }, (_, i) => `kb-${i}`);
    const acked = await Promise.all(
      names.map(async (name) => (await fetch(base, { method: 'POST', headers, body: JSON.stringify({ name }) })).status),
    );
    expect(acked.every((s) => s === 201)).toBe(true);
    killGroup(srv.child, 'SIGKILL');
    await srv.exited;
    await new Promise((r) => setTimeout(r, 200)); // the group's last member leaves the port
    const again = await startMain(env);
    running.push(again);
    const newKey = /Bearer (sk_[A-Za-z0-9_-]+)/.exec(again.output())?.[1];
    const list = await fetch(`${base}?limit=100`, { headers: { authorization: `Bearer ${newKey}` } });
    const kbNames = ((await list.json()) as { data: { name: string }[] }).data.map((k) => k.name);
    for (const name of names) expect(kbNames).toContain(name);
  });

  it('refuses a bad environment with a clear message', async () => {
    const child = spawn(TSX, [path.join(REPO_ROOT, 'server/src/main.ts')], {
      env: { ...process.env, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/Invalid environment: PORT/);
  });
});
