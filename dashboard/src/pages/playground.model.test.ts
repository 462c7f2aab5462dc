import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestServer, type Server } from '../../e2e/support.js';
import type { ApiClient } from '../lib/api.js';
import type { Assistant } from './assistants.types.js';
import { createPlaygroundModel, readSse } from './playground.model.js';

// The playground against a real server: the streamed answer assembled from `delta` events
// equals the `done` body, the conversation continues with its session id, and it is recorded
// as a playground conversation (analytics filter it by channel).

let server: Server;
let api: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  api = clientFor(server);
});
afterAll(async () => {
  await server?.close();
});

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const s of chunks) c.enqueue(enc.encode(s));
      c.close();
    },
  });
}

describe('readSse', () => {
  it('reassembles events split anywhere, including inside a multi-byte character', async () => {
    const raw = 'event: delta\ndata: {"text":"Gr\u00fc\u00df"}\n\nevent: done\r\ndata: {"a":1}\r\n\r\n';
    const bytes = new TextEncoder().encode(raw);
    const pieces: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 3) pieces.push(bytes.subarray(i, i + 3));
    const enc = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of pieces) c.enqueue(p);
        c.close();
      },
    });
    const events = [];
    for await (const e of readSse(enc)) events.push(e);
    expect(events).toEqual([
      { event: 'delta', data: '{"text":"Grüß"}' },
      { event: 'done', data: '{"a":1}' },
    ]);
  });

  it('ignores comments and joins multi-line data', async () => {
    const events = [];
    for await (const e of readSse(streamOf([': keep-alive\n\n', 'event: x\ndata: a\ndata: b\n\n']))) events.push(e);
    expect(events).toEqual([{ event: 'x', data: 'a\nb' }]);
  });
});

describe('playground model', () => {
  it('picks the first assistant when none is given', async () => {
    const m = createPlaygroundModel(api, null);
    await m.load();
    expect(m.assistantId.value).toBe(m.assistants.data.value![0]!.id);
  });

  it('streams an answer, keeps the session, explains it, and marks the conversation as the playground', async () => {
    const m = createPlaygroundModel(api, server.assistantId);
    await m.load();
    m.draft.value = 'How do I connect Slack?';
    await m.send();
    expect(m.error.value).toBeNull();
    const [user, answer] = m.turns.value;
    expect(user).toMatchObject({ role: 'user', text: 'How do I connect Slack?' });
    expect(answer!.streaming).toBe(false);
    expect(answer!.text.length).toBeGreaterThan(0);
    expect(answer!.text).toBe(answer!.done!.response);
    const sessionId = m.sessionId.value!;
    expect(sessionId).toBeTruthy();

    const x = answer!.done!.explain!;
    expect(x).toBeDefined();
    expect(x.outcome).toMatch(/answered|fallback|template/);
    expect(x.threshold).toBeGreaterThan(0);
    expect(x.passages.length).toBeGreaterThan(0);
    expect(typeof x.passages[0]!.score).toBe('number');
    expect(x.timings.totalMs).toBeGreaterThanOrEqual(0);

    await m.send('And Discord?');
    expect(m.turns.value).toHaveLength(4);
    expect(m.sessionId.value).toBe(sessionId);

    const pg = await api.page<{ sessionId: string }>('/analytics/conversations', { channel: 'playground' });
    expect(pg.items.map((c) => c.sessionId)).toContain(sessionId);
    const normal = await api.page<{ sessionId: string }>('/analytics/conversations', {});
    expect(normal.items.map((c) => c.sessionId)).not.toContain(sessionId);
  });

  it('a template answer explains which template fired', async () => {
    const a = await api.post<Assistant>('/assistants', {
      name: 'Templated',
      type: 'web',
      templates: [{ id: 'hours', trigger: 'opening hours', match: 'contains', response: 'Nine to five.' }],
    });
    const m = createPlaygroundModel(api, a.id);
    await m.load();
    await m.send('What are your opening hours?');
    const answer = m.turns.value[1]!;
    expect(answer.text).toBe('Nine to five.');
    expect(answer.done!.explain).toMatchObject({ outcome: 'template', templateId: 'hours' });
  });

  it('new conversation starts a new session; a failed send keeps the question for another try', async () => {
    const m = createPlaygroundModel(api, server.assistantId);
    await m.load();
    await m.send('hello');
    const first = m.sessionId.value;
    m.newConversation();
    expect(m.turns.value).toEqual([]);
    expect(m.sessionId.value).toBeNull();
    await m.send('hello again');
    expect(m.sessionId.value).not.toBe(first);

    const gone = createPlaygroundModel(api, 'asst_doesnotexist0000000');
    gone.assistantId.value = 'asst_doesnotexist0000000';
    gone.draft.value = 'anyone there?';
    await gone.send();
    expect(gone.error.value?.kind).toBe('not_found');
    expect(gone.turns.value[1]!.error).toBeTruthy();
    expect(gone.draft.value).toBe('anyone there?');
  });
});
