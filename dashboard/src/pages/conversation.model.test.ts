import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestServer, type Server } from '../../e2e/support.js';
import { chat, writeTraffic, ANSWERED, UNANSWERED, type Traffic } from './analytics.traffic.js';
import { createConversationModel, questionBefore } from './conversation.model.js';

// One conversation, as an agent sees it: the answer's sources and confidence against the
// threshold, a human reply, a correction that the assistant then gives, and ending it.

let server: Server;
let traffic: Traffic;
beforeAll(async () => {
  server = await startTestServer();
  await server.ctx.storage.run("UPDATE organizations SET plan = 'enterprise'");
  traffic = await writeTraffic(server);
});
afterAll(async () => {
  await server?.close();
});

describe('conversation model', () => {
  it('shows each answer with its sources, confidence, threshold, feedback and response time', async () => {
    const m = createConversationModel(clientFor(server), traffic.rated);
    await m.load();
    expect(m.detail.error.value).toBeNull();
    const c = m.detail.data.value!;
    expect(c.threshold).toEqual(expect.any(Number));
    const answer = c.messages.find((t) => t.role === 'assistant')!;
    expect(answer.sources!.length).toBeGreaterThan(0);
    expect(answer.sources![0]).toMatchObject({ text: expect.any(String), score: expect.any(Number) });
    expect(answer.confidence).toBeGreaterThanOrEqual(c.threshold!);
    expect(answer).toMatchObject({ fellBack: false, rating: 'down', ratingComment: 'Too short', responseMs: expect.any(Number) });
    expect(questionBefore(c.messages, answer.id)).toBe(ANSWERED);

    const fallback = createConversationModel(clientFor(server), traffic.fellBack);
    await fallback.load();
    expect(fallback.detail.data.value!.messages.find((t) => t.role === 'assistant')).toMatchObject({ fellBack: true });
  });

  it('sends a human reply, keeps the text when it fails, and ends the conversation', async () => {
    const m = createConversationModel(clientFor(server), traffic.widget);
    await m.load();
    m.replyText.value = 'x'.repeat(20_001);
    expect(await m.sendReply()).toBe(false);
    expect(m.reply.error.value?.kind).toBe('validation');
    expect(m.replyText.value.length).toBe(20_001);

    m.replyText.value = 'Hi, this is Sam from support. Let me look into it.';
    expect(await m.sendReply()).toBe(true);
    expect(m.replyText.value).toBe('');
    expect(m.detail.data.value!.messages.at(-1)).toMatchObject({
      role: 'human_agent',
      content: expect.stringContaining('Sam from support'),
    });

    expect(await m.end()).toBe(true);
    expect(m.detail.data.value!.status).toBe('ended');
    expect(await m.end()).toBe(false);
    expect(m.ending.error.value?.kind).toBe('conflict');
  });

  it('saves a correction as a template that answers the same question next time', async () => {
    const m = createConversationModel(clientFor(server), traffic.fellBack);
    await m.load();
    const answer = m.detail.data.value!.messages.find((t) => t.role === 'assistant')!;
    m.openCorrection(answer);
    expect(m.draft.value.answer).toBe(answer.content);
    m.draft.value = { ...m.draft.value, answer: '', asTemplate: true, match: 'exact', asSnippet: false };
    expect(await m.saveCorrection()).toBeUndefined();
    expect(m.correcting.error.value?.kind).toBe('validation');

    const corrected = 'Leonardo da Vinci painted the Mona Lisa, in the early 1500s.';
    m.draft.value = { ...m.draft.value, answer: corrected };
    const saved = await m.saveCorrection();
    expect(m.correcting.error.value).toBeNull();
    expect(saved).toMatchObject({ messageId: answer.id, templateId: expect.any(String), documentId: null });
    expect(m.detail.data.value!.corrections.map((c) => c.messageId)).toEqual([answer.id]);

    const again = await chat(server, UNANSWERED);
    expect(again.response).toBe(corrected);
  });

  it('says so when the conversation does not exist', async () => {
    const m = createConversationModel(clientFor(server), 'no-such-session');
    await m.load();
    expect(m.detail.error.value?.kind).toBe('not_found');
  });
});
