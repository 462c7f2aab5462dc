import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestServer, type Server } from '../../e2e/support.js';
import { chat, writeTraffic, UNANSWERED } from './analytics.traffic.js';
import { createKnowledgeGapsModel, pairReplays } from './knowledge-gaps.model.js';

// Knowledge gaps against a real server: a question the demo cannot answer becomes a gap; its
// detail lists the questions and the closest passages; answering it replays every question
// (before and after), the gap leaves the list and the unanswered count drops; dismissing hides one.

let server: Server;
beforeAll(async () => {
  server = await startTestServer();
  await server.ctx.storage.run("UPDATE organizations SET plan = 'enterprise'");
  await writeTraffic(server);
  await chat(server, 'What is the capital of Mongolia?');
});
afterAll(async () => {
  await server?.close();
});

describe('knowledge gaps model', () => {
  it('answers a gap once, shows before and after, and the unanswered count drops', async () => {
    const m = createKnowledgeGapsModel(clientFor(server));
    await m.load();
    expect(m.gaps.error.value).toBeNull();
    const gap = m.gaps.data.value!.items.find((g) => g.question === UNANSWERED)!;
    expect(gap).toMatchObject({ count: 2, cause: expect.stringMatching(/no_passages|low_confidence/), status: 'open' });
    const unansweredBefore = m.unanswered.data.value!;
    expect(unansweredBefore).toBeGreaterThanOrEqual(2);

    await m.open(gap.id);
    expect(m.detail.error.value).toBeNull();
    expect(m.detail.data.value!.questions.length).toBe(2);
    expect(m.detail.data.value!.questions[0]!.sessionId).toEqual(expect.any(String));
    expect(Array.isArray(m.detail.data.value!.passages)).toBe(true);

    const answer = 'Leonardo da Vinci painted the Mona Lisa.';
    m.draft.value = { ...m.draft.value, answer, as: 'template', match: 'exact' };
    const result = await m.resolve();
    expect(m.resolving.error.value).toBeNull();
    const rows = pairReplays(result!);
    expect(rows).toEqual([
      {
        question: UNANSWERED,
        before: expect.objectContaining({ question: UNANSWERED }),
        after: expect.objectContaining({ response: answer, fallback: false }),
      },
    ]);
    expect(m.resolution.value!.gap.id).toBe(gap.id);
    expect(m.openId.value).toBeNull();
    expect(m.gaps.data.value!.items.map((g) => g.id)).not.toContain(gap.id);
    expect(m.unanswered.data.value).toBe(unansweredBefore - 2);
  });

  it('dismisses a gap with a reason, and needs one', async () => {
    const m = createKnowledgeGapsModel(clientFor(server));
    await m.load();
    const gap = m.gaps.data.value!.items.find((g) => g.question === 'What is the capital of Mongolia?')!;
    await m.open(gap.id);
    m.dismissReason.value = '';
    expect(await m.dismiss()).toBe(false);
    expect(m.dismissing.error.value?.kind).toBe('validation');
    m.dismissReason.value = 'Out of scope';
    expect(await m.dismiss()).toBe(true);
    expect(m.gaps.data.value!.items.map((g) => g.id)).not.toContain(gap.id);
  });

  it('shows which sources are cited, cited in answers rated down, and never retrieved', async () => {
    const m = createKnowledgeGapsModel(clientFor(server));
    await m.load();
    expect(m.sources.error.value).toBeNull();
    const s = m.sources.data.value!;
    expect(s.mostCited.length).toBeGreaterThan(0);
    expect(s.mostCited[0]!.count).toBeGreaterThan(0);
    expect(s.citedInDownrated.length).toBeGreaterThan(0);
    const cited = new Set(s.mostCited.map((x) => x.doc.id));
    expect(s.neverRetrieved.every((d) => !cited.has(d.id))).toBe(true);
  });
});
