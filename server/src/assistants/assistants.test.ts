import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { DEFAULT_SYSTEM_PROMPT } from './schemas.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

describe('assistants (API.md §6)', () => {
  it('creates an assistant with every default of the contract', async () => {
    const { api, organization } = await registerAccount(server.url);
    const res = await api.post('/v1/assistants', { type: 'web', name: 'Helper' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^asst_/),
      organizationId: organization.id,
      type: 'web',
      name: 'Helper',
      description: null,
      avatarUrl: null,
      model: { provider: 'extractive' },
      language: 'en',
      historyLimit: 10,
      maxResponseLength: 2000,
      systemPrompt: DEFAULT_SYSTEM_PROMPT,
      variables: {},
      knowledgeBases: [],
      templates: [],
      fallback: {
        message: expect.any(String),
        handoff: { enabled: false, message: expect.any(String) },
        suggestions: true,
        collectFeedback: true,
      },
      confidenceThreshold: 0.35,
      widget: {
        theme: 'light',
        colors: null,
        position: 'bottom-right',
        initialState: 'collapsed',
        welcomeMessage: expect.any(String),
        iconUrl: null,
        allowedOrigins: [],
        strings: {},
      },
      discord: { botName: null, description: '', avatarUrl: null, command: 'ask', channels: [] },
      slack: { botName: null, command: '/parley', channels: [] },
      teams: { botName: null, channels: [] },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      warnings: [],
    });
    expect(res.body.data.systemPrompt).toContain('{{knowledge}}');
  });

  it('serves one resource under /assistants, /apps and /integrations', async () => {
    const { api } = await registerAccount(server.url);
    const created = await api.post('/v1/apps', { type: 'api', name: 'Via apps' });
    const id = created.body.data.id;
    for (const base of ['/v1/assistants', '/v1/apps', '/v1/integrations', '/api/v1/integrations']) {
      const res = await api.get(`${base}/${id}`);
      expect(res.status, base).toBe(200);
      expect(res.body.data.name).toBe('Via apps');
    }
    const patched = await api.patch(`/v1/integrations/${id}`, { name: 'Renamed' });
    expect(patched.body.data.name).toBe('Renamed');
    expect((await api.get('/v1/assistants')).body.data[0].name).toBe('Renamed');
  });

  it('validates every config field', async () => {
    const { api } = await registerAccount(server.url);
    const cases: Record<string, unknown>[] = [
      { name: 'no type' },
      { type: 'fax', name: 'x' },
      { type: 'web' },
      { type: 'web', name: '' },
      { type: 'web', name: 'x'.repeat(101) },
      { type: 'web', name: 'x', historyLimit: 51 },
      { type: 'web', name: 'x', maxResponseLength: 99 },
      { type: 'web', name: 'x', maxResponseLength: 20_001 },
      { type: 'web', name: 'x', confidenceThreshold: 1.5 },
      { type: 'web', name: 'x', model: { provider: 'skynet' } },
      { type: 'web', name: 'x', knowledgeBases: [{ id: 'kb_1', priority: 11 }] },
      { type: 'web', name: 'x', templates: [{ trigger: '(', match: 'regex', response: 'r' }] },
      { type: 'web', name: 'x', widget: { theme: 'custom' } },
      { type: 'web', name: 'x', widget: { position: 'middle' } },
      { type: 'web', name: 'x', widget: { allowedOrigins: ['https://example.com/path'] } },
      { type: 'web', name: 'x', widget: { colors: { primary: 'red; background:url(x)', background: '#fff', text: '#000' } } },
      { type: 'web', name: 'x', discord: { command: 'Ask Me' } },
      { type: 'web', name: 'x', slack: { command: 'parley' } },
      { type: 'web', name: 'x', avatarUrl: 'javascript:alert(1)' },
      { type: 'web', name: 'x', unknownField: true },
    ];
    for (const body of cases) {
      const res = await api.post('/v1/assistants', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
  });

  it('patches deeply: objects merge, arrays replace, and the result is validated again', async () => {
    const { api } = await registerAccount(server.url);
    const a = await api.post('/v1/assistants', {
      type: 'web',
      name: 'A',
      widget: { theme: 'dark', allowedOrigins: ['https://a.example', 'https://b.example'] },
      fallback: { handoff: { enabled: true, email: 'help@example.com' } },
    });
    const id = a.body.data.id;
    const res = await api.patch(`/v1/assistants/${id}`, {
      widget: { position: 'top-left', allowedOrigins: ['https://c.example'] },
      fallback: { handoff: { message: 'Ask a human' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.widget).toMatchObject({ theme: 'dark', position: 'top-left', allowedOrigins: ['https://c.example'] });
    expect(res.body.data.fallback.handoff).toMatchObject({ enabled: true, email: 'help@example.com', message: 'Ask a human' });
    const invalid = await api.patch(`/v1/assistants/${id}`, { widget: { theme: 'custom' } });
    expect(invalid.status).toBe(400);
    expect((await api.patch(`/v1/assistants/${id}`, { type: 'slack' })).status).toBe(400);
    expect((await api.get(`/v1/assistants/${id}`)).body.data.widget.theme).toBe('dark');
  });

  it('patches as JSON Merge Patch: null clears a setting, so its default applies again', async () => {
    const { api } = await registerAccount(server.url);
    const a = await api.post('/v1/assistants', {
      type: 'web',
      name: 'A',
      description: 'About',
      variables: { keep: '1', drop: '2' },
      model: { provider: 'extractive', temperature: 0.5, name: 'x' },
      widget: { theme: 'dark', iconUrl: 'https://a.example/i.png' },
    });
    const id = a.body.data.id;
    const res = await api.patch(`/v1/assistants/${id}`, {
      variables: { drop: null },
      model: { temperature: null },
      description: null,
      widget: { iconUrl: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.variables).toEqual({ keep: '1' });
    expect(res.body.data.model).toEqual({ provider: 'extractive', name: 'x' });
    expect(res.body.data.description).toBeNull();
    expect(res.body.data.widget).toMatchObject({ theme: 'dark', iconUrl: null });
    // A required setting cleared falls back to its default rather than failing.
    const reset = await api.patch(`/v1/assistants/${id}`, { model: null, confidenceThreshold: null });
    expect(reset.status).toBe(200);
    expect(reset.body.data.model).toEqual({ provider: 'extractive' });
    expect(reset.body.data.confidenceThreshold).toBe(0.35);
  });

  it('connects knowledge bases of its own organization only, with priorities', async () => {
    const a = await registerAccount(server.url);
    const b = await registerAccount(server.url);
    const kbA = await a.api.post('/v1/knowledge-bases', { name: 'A docs' });
    const kbB = await b.api.post('/v1/knowledge-bases', { name: 'B docs' });
    const ok = await a.api.post('/v1/assistants', { type: 'api', name: 'x', knowledgeBases: [{ id: kbA.body.data.id, priority: 9 }] });
    expect(ok.body.data.knowledgeBases).toEqual([{ id: kbA.body.data.id, priority: 9 }]);
    const foreign = await a.api.post('/v1/assistants', { type: 'api', name: 'x', knowledgeBases: [{ id: kbB.body.data.id }] });
    expect(foreign.status).toBe(404);
    const dup = await a.api.post('/v1/assistants', {
      type: 'api',
      name: 'x',
      knowledgeBases: [{ id: kbA.body.data.id }, { id: kbA.body.data.id }],
    });
    expect(dup.status).toBe(400);
  });

  it('isolates tenants: another organization sees 404 on every route', async () => {
    const a = await registerAccount(server.url);
    const b = await registerAccount(server.url);
    const id = (await a.api.post('/v1/assistants', { type: 'web', name: 'Private' })).body.data.id;
    expect((await b.api.get(`/v1/assistants/${id}`)).status).toBe(404);
    expect((await b.api.patch(`/v1/assistants/${id}`, { name: 'Hijacked' })).status).toBe(404);
    expect((await b.api.del(`/v1/assistants/${id}`)).status).toBe(404);
    expect((await b.api.post(`/v1/integrations/${id}/chat`, { message: 'hi' })).status).toBe(404);
    expect((await b.api.get('/v1/assistants')).body.data).toEqual([]);
    expect((await a.api.get(`/v1/assistants/${id}`)).body.data.name).toBe('Private');
  });

  it('deletes an assistant', async () => {
    const { api } = await registerAccount(server.url);
    const id = (await api.post('/v1/assistants', { type: 'web', name: 'Bye' })).body.data.id;
    expect((await api.del(`/v1/assistants/${id}`)).status).toBe(200);
    expect((await api.get(`/v1/assistants/${id}`)).status).toBe(404);
  });

  it('paginates: page past the end is empty; bad page/limit are 400 naming the parameter', async () => {
    const { api } = await registerAccount(server.url);
    for (let i = 0; i < 3; i++) await api.post('/v1/assistants', { type: 'api', name: `A${i}` });
    const p2 = await api.get('/v1/assistants?limit=2&page=2');
    expect(p2.body.data.map((a: { name: string }) => a.name)).toEqual(['A0']);
    expect(p2.body.pagination).toEqual({ total: 3, page: 2, limit: 2, pages: 2 });
    const past = await api.get('/v1/assistants?page=9');
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    for (const [q, name] of [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['limit=2.5', 'limit'],
    ]) {
      const res = await api.get(`/v1/assistants?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.message).toContain(name);
    }
  });
});
