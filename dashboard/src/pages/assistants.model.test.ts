import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestServer, type Server } from '../../e2e/support.js';
import { createAssistantsModel } from './assistants.model.js';

let server: Server;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('assistants model', () => {
  it('lists assistants with their knowledge base names and 7-day conversation counts', async () => {
    const api = clientFor(server);
    await api.post(`/integrations/${server.assistantId}/chat`, { message: 'How do I connect Slack?' });
    const m = createAssistantsModel(api);
    await m.load();
    const demo = m.assistants.data.value!.items.find((a) => a.id === server.assistantId)!;
    expect(demo.stats?.conversations7d).toBeGreaterThanOrEqual(1);
    const names = demo.knowledgeBases.map((k) => m.kbName(k.id));
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual(demo.knowledgeBases.map((k) => m.knowledgeBases.data.value!.find((kb) => kb.id === k.id)!.name));
    expect(names).not.toContain(server.knowledgeBaseId);
  });

  it('creates with the type chosen, and keeps the typed name when the server refuses', async () => {
    const m = createAssistantsModel(clientFor(server));
    m.draft.name.value = 'x'.repeat(101);
    m.draft.type.value = 'slack';
    expect(await m.create()).toBeUndefined();
    expect(m.creation.fieldError('name')).toBeTruthy();
    expect(m.draft.name.value).toHaveLength(101);
    m.draft.name.value = 'Slack helper';
    const created = await m.create();
    expect(created).toMatchObject({ name: 'Slack helper', type: 'slack' });
    expect(m.draft.name.value).toBe('');
    await m.load();
    expect(m.assistants.data.value!.items.map((a) => a.name)).toContain('Slack helper');
  });
});
