import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { gapKey, gapSimilarity, gapTerms, jaccard, knowledgeTermsOf, parseGapKey } from './knowledge-gaps.js';

describe('knowledge gap grouping', () => {
  it('reduces a question to its sorted, stemmed topic words, request words left out', () => {
    expect(gapTerms('How do I cancel my subscriptions?')).toEqual(gapTerms('cancelling subscription, how?'));
    expect(gapTerms('Is shipping to Antarctica possible?')).toEqual(gapTerms('Do you ship to Antarctica?'));
  });

  it('scores overlap with Jaccard', () => {
    expect(jaccard(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(1);
    expect(jaccard(['a', 'b'], ['c'])).toBe(0);
    expect(jaccard(['a', 'b', 'c', 'd'], ['a', 'b', 'c'])).toBe(0.75);
  });

  it('keys a gap by its words and what the knowledge lacked; old keys read as lacking nothing', () => {
    expect(gapKey(['antarctica', 'ship'], ['antarctica'])).toBe('antarctica ship | antarctica');
    expect(gapKey(['gift', 'card'], ['gift', 'card'])).toBe('gift card'); // lacked all: nothing to tell apart
    expect(parseGapKey('antarctica ship | antarctica')).toEqual({ terms: ['antarctica', 'ship'], missing: ['antarctica'] });
    expect(parseGapKey('cancel subscript')).toEqual({ terms: ['cancel', 'subscript'], missing: [] });
  });

  it('groups askings that lack the same thing, however the rest is worded', () => {
    const ship = { terms: ['antarctica', 'ship'], missing: ['antarctica'] };
    const deliver = { terms: ['antarctica', 'deliv'], missing: ['antarctica'] };
    const weather = { terms: ['antarctica', 'cold', 'weather'], missing: ['antarctica', 'cold', 'weather'].slice(0, 2) };
    expect(gapSimilarity(ship, deliver)).toBe(1);
    expect(gapSimilarity(ship, weather)).toBeLessThan(0.6);
    // Without a lack on both sides, only the words count.
    expect(gapSimilarity({ terms: ['a', 'b'], missing: [] }, { terms: ['a', 'c'], missing: ['c'] })).toBeCloseTo(1 / 3);
  });

  it('reads what retrieved passages hold, titles and headings included', () => {
    const has = knowledgeTermsOf([{ title: 'Shipping policy', headingPath: ['Delivery times'], text: 'We ship to Canada.' }]);
    expect(has?.(gapTerms('ship')[0] as string)).toBe(true);
    expect(has?.(gapTerms('delivery')[0] as string)).toBe(true);
    expect(has?.(gapTerms('Antarctica')[0] as string)).toBe(false);
    expect(knowledgeTermsOf([])).toBeUndefined();
  });
});

describe('knowledge gaps by meaning over HTTP (issue 26)', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('counts three wordings of one missing thing as one gap, and another topic apart', async () => {
    // A threshold every answer here stays under, so each question is a gap whatever its confidence.
    const shop = await setupShop(server.url, { confidenceThreshold: 0.9 });
    for (const message of [
      'Do you ship to Antarctica?',
      'Is shipping to Antarctica possible?',
      'Can you deliver to Antarctica?',
      'How long do refunds take?',
    ]) {
      expect((await shop.api.post(shop.chatPath, { message })).status).toBe(200);
    }
    const gaps = (await shop.api.get('/v1/analytics/knowledge-gaps')).body.data as { question: string; count: number }[];
    expect(gaps.map((g) => [g.question, g.count]).sort()).toEqual([
      ['Can you deliver to Antarctica?', 3],
      ['How long do refunds take?', 1],
    ]);
  });
});
