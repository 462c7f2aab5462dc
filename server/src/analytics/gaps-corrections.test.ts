import { describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { serverPerTest } from '../../test/server-per-test.js';

const env = serverPerTest('2026-05-01T10:00:00Z');

interface Gap {
  id: string;
  question: string;
  count: number;
  cause: string;
  status: string;
}

describe('POST /v1/corrections', () => {
  it('saves a corrected answer as a template that a later identical question gets, linked to the conversation', async () => {
    const shop = await setupShop(env.server.url);
    const first = await shop.api.post(shop.chatPath, { message: 'Do you sell gift cards?', sessionId: 'g-1' });
    expect(first.body.response).not.toMatch(/e-gift/);
    const res = await shop.api.post('/v1/corrections', {
      sessionId: 'g-1',
      messageId: first.body.messageId,
      answer: 'Yes: e-gift cards from 10 to 200 euros, on the Gifts page.',
      asTemplate: { match: 'exact' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({
      sessionId: 'g-1',
      messageId: first.body.messageId,
      question: 'Do you sell gift cards?',
      templateId: expect.stringMatching(/^tpl_/),
      documentId: null,
    });
    const again = await shop.api.post(shop.chatPath, { message: 'do you sell gift cards', sessionId: 'g-2' });
    expect(again.body.response).toBe('Yes: e-gift cards from 10 to 200 euros, on the Gifts page.');
    // The correction shows on the conversation, and the change is in the audit log.
    const detail = await shop.api.get('/v1/conversations/g-1');
    expect(detail.body.data.corrections).toEqual([
      expect.objectContaining({ id: res.body.data.id, messageId: first.body.messageId, templateId: res.body.data.templateId }),
    ]);
    const audit = await shop.api.get(`/v1/assistants/${shop.assistantId}/audit`);
    expect(audit.body.data[0]).toMatchObject({ action: 'updated', fields: ['templates'] });
  });

  it('saves a snippet in a knowledge base that retrieval then answers from', async () => {
    const shop = await setupShop(env.server.url);
    const first = await shop.api.post(shop.chatPath, { message: 'What are your opening hours for the phone line?', sessionId: 'h-1' });
    const res = await shop.api.post('/v1/corrections', {
      sessionId: 'h-1',
      messageId: first.body.messageId,
      answer: 'The phone line is open Monday to Friday from 9 am to 6 pm.',
      asSnippet: { knowledgeBaseId: shop.kbId },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.documentId).toMatch(/^doc_/);
    const doc = await shop.api.get(`/v1/knowledge-bases/${shop.kbId}/documents/${res.body.data.documentId}`);
    expect(doc.body.data.title).toBe('What are your opening hours for the phone line?');
    const again = await shop.api.post(shop.chatPath, { message: 'What are your opening hours for the phone line?' });
    expect(again.body.response).toMatch(/Monday to Friday from 9 am to 6 pm/);
  });

  it("refuses bad input, other organizations' messages and missing permissions", async () => {
    const shop = await setupShop(env.server.url);
    const first = await shop.api.post(shop.chatPath, { message: 'Do you sell gift cards?', sessionId: 'g-1' });
    const body = { sessionId: 'g-1', messageId: first.body.messageId, answer: 'Yes.', asTemplate: { match: 'exact' } };
    expect((await shop.api.post('/v1/corrections', { ...body, asTemplate: undefined })).body.error.message).toMatch(/^asTemplate: /);
    expect((await shop.api.post('/v1/corrections', { ...body, answer: ' ' })).status).toBe(400);
    expect((await shop.api.post('/v1/corrections', { ...body, messageId: 'msg_nope' })).status).toBe(404);
    expect(
      (await shop.api.post('/v1/corrections', { ...body, asTemplate: undefined, asSnippet: { knowledgeBaseId: 'kb_nope' } })).status,
    ).toBe(404);
    const other = await setupShop(env.server.url);
    expect((await other.api.post('/v1/corrections', body)).status).toBe(404);
    // The shop's key reads and chats but may not change assistants or knowledge.
    expect((await shop.keyApi.post('/v1/corrections', body)).status).toBe(403);
  });
});

describe('knowledge gaps: detail, resolve, dismiss', () => {
  it('groups questions with a cause, shows them with the closest passages, and resolving replays them', async () => {
    const shop = await setupShop(env.server.url);
    await shop.api.post(shop.chatPath, { message: 'Do you sell gift cards?', sessionId: 'a' });
    await shop.api.post(shop.chatPath, { message: 'Gift cards: do you sell them?', sessionId: 'b' });
    await shop.api.post(shop.chatPath, { message: 'Which football team won in 1998?', sessionId: 'c' });
    const before = await shop.api.get('/v1/analytics/metrics');
    expect(before.body.data.unansweredCount).toBe(3);
    const list = (await shop.api.get('/v1/analytics/knowledge-gaps')).body.data as Gap[];
    const gift = list.find((g) => g.question.startsWith('Gift')) as Gap;
    expect(gift).toMatchObject({
      id: expect.stringMatching(/^gap_/),
      count: 2,
      status: 'open',
      cause: expect.stringMatching(/^(no_passages|low_confidence)$/),
    });

    const detail = await shop.api.get(`/v1/analytics/knowledge-gaps/${gift.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data.questions.map((q: { question: string; sessionId: string }) => [q.question, q.sessionId])).toEqual([
      ['Gift cards: do you sell them?', 'b'],
      ['Do you sell gift cards?', 'a'],
    ]);
    expect(detail.body.data.questions[0].response).toEqual(expect.any(String));
    expect(Array.isArray(detail.body.data.passages)).toBe(true);

    const resolved = await shop.api.post(`/v1/analytics/knowledge-gaps/${gift.id}/resolve`, {
      answer: 'We sell e-gift cards from 10 to 200 euros.',
      as: 'template',
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.data.before).toHaveLength(2);
    expect(resolved.body.data.before[0]).toMatchObject({ question: 'Gift cards: do you sell them?', confidence: expect.any(Number) });
    expect(resolved.body.data.after).toEqual([
      { question: 'Gift cards: do you sell them?', response: 'We sell e-gift cards from 10 to 200 euros.', confidence: 1, fallback: false },
      { question: 'Do you sell gift cards?', response: 'We sell e-gift cards from 10 to 200 euros.', confidence: 1, fallback: false },
    ]);
    // Replaying wrote no conversation.
    expect((await shop.api.get('/v1/analytics/conversations')).body.pagination.total).toBe(3);
    // The gap leaves the list, the unanswered count drops, and the real chat path now answers.
    expect(((await shop.api.get('/v1/analytics/knowledge-gaps')).body.data as Gap[]).map((g) => g.id)).not.toContain(gift.id);
    expect(((await shop.api.get('/v1/analytics/knowledge-gaps?status=resolved')).body.data as Gap[]).map((g) => g.id)).toEqual([gift.id]);
    expect((await shop.api.get('/v1/analytics/metrics')).body.data.unansweredCount).toBe(1);
    expect((await shop.api.post(shop.chatPath, { message: 'Do you sell gift cards?' })).body.response).toBe(
      'We sell e-gift cards from 10 to 200 euros.',
    );
    expect((await shop.api.post(`/v1/analytics/knowledge-gaps/${gift.id}/resolve`, { answer: 'x', as: 'template' })).status).toBe(409);
    // Two resolves of one gap at once: one stores and replays, the other is refused.
    const ask = async (message: string) => shop.api.post(shop.chatPath, { message });
    await ask('Is there a loyalty program?');
    const loyalty = ((await shop.api.get('/v1/analytics/knowledge-gaps')).body.data as Gap[]).find((g) =>
      g.question.startsWith('Is there a loyalty'),
    ) as Gap;
    const both = await Promise.all(
      [1, 2].map(() => shop.api.post(`/v1/analytics/knowledge-gaps/${loyalty.id}/resolve`, { answer: 'Not yet.', as: 'template' })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);

    const football = list.find((g) => g.question.startsWith('Which')) as Gap;
    const dismissed = await shop.api.post(`/v1/analytics/knowledge-gaps/${football.id}/dismiss`, { reason: 'off topic' });
    expect(dismissed.body.data).toMatchObject({ status: 'dismissed', statusReason: 'off topic' });
    expect((await shop.api.get('/v1/analytics/knowledge-gaps')).body.data).toEqual([]);
    expect((await shop.api.post(`/v1/analytics/knowledge-gaps/${football.id}/dismiss`, {})).status).toBe(400);
  });

  it('resolves as a snippet in a knowledge base, and keeps gaps to their organization', async () => {
    const shop = await setupShop(env.server.url);
    await shop.api.post(shop.chatPath, { message: 'Do you sell gift cards?' });
    const [gap] = (await shop.api.get('/v1/analytics/knowledge-gaps')).body.data as Gap[];
    expect(gap).toMatchObject({ question: 'Do you sell gift cards?', status: 'open' });
    const other = await setupShop(env.server.url);
    expect((await other.api.get(`/v1/analytics/knowledge-gaps/${gap?.id}`)).status).toBe(404);
    expect(
      (await other.api.post(`/v1/analytics/knowledge-gaps/${gap?.id}/resolve`, { answer: 'x', as: 'snippet', knowledgeBaseId: other.kbId }))
        .status,
    ).toBe(404);
    expect(
      (await shop.api.post(`/v1/analytics/knowledge-gaps/${gap?.id}/resolve`, { answer: 'x', as: 'snippet' })).body.error.message,
    ).toMatch(/^knowledgeBaseId: /);
    const res = await shop.api.post(`/v1/analytics/knowledge-gaps/${gap?.id}/resolve`, {
      answer: 'Yes, we sell e-gift cards for any amount from 10 to 200 euros.',
      as: 'snippet',
      knowledgeBaseId: shop.kbId,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ as: 'snippet', documentId: expect.stringMatching(/^doc_/) });
    expect(res.body.data.before[0].response).not.toMatch(/e-gift cards/);
    expect(res.body.data.after[0]).toMatchObject({ fallback: false, response: expect.stringMatching(/e-gift cards for any amount/) });
  });
});

describe('GET /v1/analytics/sources', () => {
  it('lists documents never cited, most cited and cited in answers rated down', async () => {
    const shop = await setupShop(env.server.url);
    const a = await shop.api.post(shop.chatPath, { message: 'How do I reset my password?', sessionId: 's1' });
    await shop.api.post(shop.chatPath, { message: 'How do I reset my password please?', sessionId: 's2' });
    await shop.api.post(shop.chatPath, { message: 'How long does standard shipping take?', sessionId: 's3' });
    await shop.api.post('/v1/conversations/s1/feedback', { messageId: a.body.messageId, rating: 'down' });
    const res = await shop.keyApi.get('/v1/analytics/sources');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.mostCited.map((e: { doc: { title: string }; count: number }) => [e.doc.title, e.count])).toEqual([
      ['Account help', 2],
      ['Shipping policy', 1],
    ]);
    expect(d.citedInDownrated.map((e: { doc: { title: string }; count: number }) => [e.doc.title, e.count])).toEqual([['Account help', 1]]);
    expect(d.neverRetrieved.map((doc: { title: string }) => doc.title)).toEqual(['Returns and refunds']);
    expect(d.neverRetrieved[0]).toMatchObject({ id: expect.stringMatching(/^doc_/), knowledgeBaseId: shop.kbId, url: expect.any(String) });
  });
});
