import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestServer, type Server } from '../../e2e/support.js';
import { createApiClient } from '../lib/api.js';
import type { Assistant } from './assistants.types.js';
import { checklist, createOverviewModel, deployments } from './overview.model.js';

// The first-run checklist, ticked from real data: a fresh organization (registered through
// the API) walks through each step and sees it ticked; the demo organization is all done.

let server: Server;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const done = (steps: ReturnType<typeof checklist>) => Object.fromEntries(steps.map((s) => [s.id, s.done]));

describe('overview model', () => {
  it('ticks each step as a new organization does it', async () => {
    const res = await fetch(`${server.url}/v1/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'new-owner@example.com', password: 'a long password 1', organizationName: 'Fresh Co' }),
    });
    const { token } = ((await res.json()) as { data: { token: string } }).data;
    const api = createApiClient({ origin: server.url, headers: { Authorization: `Bearer ${token}` } });
    const m = createOverviewModel(api);
    const steps = async () => {
      await m.load();
      expect(m.facts.error.value).toBeNull();
      return checklist(m.facts.data.value!);
    };

    expect(done(await steps())).toEqual({ 'knowledge-base': false, knowledge: false, assistant: false, playground: false, deploy: false });

    const kb = await api.post<{ id: string }>('/knowledge-bases', { name: 'Help' });
    let s = await steps();
    expect(done(s)).toMatchObject({ 'knowledge-base': true, knowledge: false });
    expect(s.find((x) => x.id === 'knowledge')!.href).toBe(`/knowledge/${kb.id}`);

    await api.post(`/knowledge-bases/${kb.id}/documents`, {
      title: 'Returns',
      content: 'You can return any item within 30 days for a full refund.',
    });
    const a = await api.post<Assistant>('/assistants', { name: 'Helper', type: 'web', knowledgeBases: [{ id: kb.id, priority: 5 }] });
    s = await steps();
    expect(done(s)).toMatchObject({ knowledge: true, assistant: true, playground: false, deploy: false });
    expect(m.facts.data.value!.documents).toBe(1);

    const chat = await api.request('POST', `/integrations/${a.id}/chat`, {
      body: { message: 'Can I return an item?', metadata: { source: 'playground' } },
    });
    expect(chat.status).toBe(200);
    s = await steps();
    expect(done(s)).toMatchObject({ playground: true, deploy: false });

    await api.patch(`/assistants/${a.id}`, { widget: { allowedOrigins: ['https://shop.example.com'] } });
    s = await steps();
    expect(done(s).deploy).toBe(true);
    expect(deployments(m.facts.data.value!)).toEqual(['widget']);
    expect(s.find((x) => x.id === 'deploy')!.href).toBe(`/assistants/${a.id}/widget`);
  });

  it('counts a bot or a chat key as deployed', async () => {
    const m = createOverviewModel(clientFor(server));
    await m.load();
    const f = m.facts.data.value!;
    expect(deployments({ ...f, assistants: [], chatKeys: 1 })).toEqual(['API']);
    const bot = {
      ...f.assistants[0]!,
      widget: { ...f.assistants[0]!.widget, allowedOrigins: [] },
      slack: { botName: 'Parley', command: '/parley', channels: [] },
    };
    expect(deployments({ ...f, assistants: [bot], chatKeys: 0 })).toEqual(['slack']);
    expect(f.assistantTotal).toBeGreaterThan(0);
    expect(f.documents).toBeGreaterThan(0);
  });
});
