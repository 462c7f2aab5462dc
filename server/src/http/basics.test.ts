import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { client, registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

describe('serving basics (API.md §1-2)', () => {
  it('answers /healthz without auth', async () => {
    const res = await client(server.url).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('puts X-Request-Id on every response, echoing a sane incoming one', async () => {
    const api = client(server.url);
    const made = await api.get('/healthz');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await api.get('/v1/organizations', { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    const hostile = await api.get('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(hostile.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('requires a bearer token on API routes, in the envelope form', async () => {
    const res = await client(server.url).get('/v1/assistants');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'error', error: { code: 'authentication_error', message: expect.any(String) } });
    const bad = await client(server.url, 'sk_' + 'x'.repeat(43)).get('/v1/assistants');
    expect(bad.status).toBe(401);
  });

  it('serves every /v1 route under /api/v1 too', async () => {
    const { token } = await registerAccount(server.url);
    const api = client(server.url, token);
    const a = await api.get('/v1/organizations');
    const b = await api.get('/api/v1/organizations');
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.data).toEqual(a.body.data);
  });

  it('refuses malformed JSON with 400 validation_error', async () => {
    const { token } = await registerAccount(server.url);
    const res = await client(server.url, token).request('POST', '/v1/knowledge-bases', { rawBody: '{"name": ' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
  });

  it('refuses JSON bodies over 1 MiB with 413 payload_too_large, and accepts one just under', async () => {
    const { token } = await registerAccount(server.url);
    const api = client(server.url, token);
    const kb = await api.post('/v1/knowledge-bases', { name: 'Big' });
    const over = await api.post(`/v1/knowledge-bases/${kb.body.data.id}/documents`, { title: 't', content: 'a '.repeat(530_000) });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ status: 'error', error: { code: 'payload_too_large', message: expect.any(String) } });
    const under = await api.post(`/v1/knowledge-bases/${kb.body.data.id}/documents`, { title: 't', content: 'word '.repeat(200_000) });
    expect(under.status).toBe(201);
  });

  it('answers unknown routes with 404 resource_not_found', async () => {
    const { token } = await registerAccount(server.url);
    const res = await client(server.url, token).get('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('resource_not_found');
  });

  it('never leaks a stack trace on a 500', async () => {
    const { token } = await registerAccount(server.url);
    // Any query on it now throws inside a handler; a rename is the same statement on SQLite and PostgreSQL.
    await server.ctx.storage.run('ALTER TABLE knowledge_gaps RENAME TO knowledge_gaps_gone');
    const res = await client(server.url, token).get('/v1/analytics/knowledge-gaps');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status: 'error', error: { code: 'server_error', message: 'Internal server error' } });
    expect(res.text).not.toMatch(/at |SQLITE|knowledge_gaps/);
  });
});
