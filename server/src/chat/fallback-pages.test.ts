import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { likelyPages } from './fallback-pages.js';

const passage = (title: string, score: number, url: string | null = `https://d.example/${title}`) => ({
  id: title,
  title,
  url,
  text: 't',
  headingPath: [],
  score,
});

describe('likelyPages', () => {
  it('links the best page first, then pages scoring close to it, at most three, each once', () => {
    expect(likelyPages([passage('A', 1), passage('B', 0.8), passage('A', 0.7), passage('C', 0.6), passage('D', 0.55)])).toEqual([
      { title: 'A', url: 'https://d.example/A' },
      { title: 'B', url: 'https://d.example/B' },
      { title: 'C', url: 'https://d.example/C' },
    ]);
  });

  it('leaves out a page that only shares a stray word (far below the best)', () => {
    expect(likelyPages([passage('A', 1), passage('B', 0.2)]).map((p) => p.title)).toEqual(['A']);
  });

  it('links nothing when nothing was retrieved', () => {
    expect(likelyPages([])).toEqual([]);
    expect(likelyPages([passage('A', 0)])).toEqual([]);
  });
});

describe('a fallback that still helps (issue 26)', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('links the most likely page in sources and in the stored message, and the message stays the fallback', async () => {
    // A threshold no answer reaches: every question falls back, with what retrieval found.
    const shop = await setupShop(server.url, { confidenceThreshold: 1, fallback: { message: 'Not sure about that one.' } });
    const res = await shop.api.post(shop.chatPath, { message: 'How long does international delivery take?' });
    expect(res.status).toBe(200);
    expect(res.body.response).toMatch(/^Not sure about that one\./);
    expect(res.body.sources[0]).toEqual({ title: 'Shipping policy', url: 'https://shop.example.com/help/shipping' });
    expect(res.body.sources.length).toBeLessThanOrEqual(3);
    const history = await shop.keyApi.get(`/v1/conversations/${res.body.sessionId}/messages`);
    const answer = history.body.find((m: { role: string }) => m.role === 'assistant');
    expect(answer.metadata).toMatchObject({
      fallback: true,
      sources: { 1: { title: 'Shipping policy', url: 'https://shop.example.com/help/shipping' } },
    });
  });

  it('links nothing when the knowledge holds nothing near the question', async () => {
    const shop = await setupShop(server.url);
    const res = await shop.api.post(shop.chatPath, { message: 'Which football team won the 1998 world cup?' });
    expect(res.body.sources).toEqual([]);
  });
});
