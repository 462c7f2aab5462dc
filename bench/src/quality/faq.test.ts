import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  faqHalfOf,
  holdsExpected,
  judgeFaq,
  loadFaqDir,
  normalizeFaqText,
  summarizeFaq,
  validateFaqProduct,
  type FaqProduct,
  type FaqQuestion,
  type FaqReply,
} from './faq.js';
import { askFaqProduct } from './faq-harness.js';
import { auroc } from './metrics.js';

const reply = (over: Partial<FaqReply>): FaqReply => ({
  response: '',
  fallback: false,
  confidence: 0.5,
  offeredTitles: [],
  retrievedTitles: [],
  unthresholdedResponse: '',
  ...over,
});

describe('FAQ scoring (the README rules)', () => {
  it('normalizes case, whitespace, markdown emphasis, backticks and typographic quotes', () => {
    expect(normalizeFaqText('Run  **`brew   update`**\n now')).toBe('run brew update now');
    expect(holdsExpected('You can’t pay by *wire*', ["can't pay by wire"])).toBe(true);
    expect(holdsExpected('Refunds take 5 days', ['30 days'])).toBe(false);
  });

  it('judges right, wrong, fallback and a helpful fallback', () => {
    const q = { question: 'refund?', answers: ['30 days'], doc: 'Returns' };
    expect(judgeFaq('shop', q, reply({ response: 'Within 30 days.' })).outcome).toBe('right');
    expect(judgeFaq('shop', q, reply({ response: 'Within 3 days.' })).outcome).toBe('wrong');
    const fb = judgeFaq('shop', q, reply({ fallback: true, offeredTitles: ['Returns'], retrievedTitles: ['Shipping', 'Returns'] }));
    expect(fb).toMatchObject({ outcome: 'fallback', helpfulFallback: true, goldRank: 2 });
    // An unanswerable question answered is wrong, whatever the text holds.
    expect(judgeFaq('shop', { question: 'x', answers: [], unanswerable: true }, reply({ response: 'yes' })).outcome).toBe('wrong');
  });

  it('summarizes rates over answerable questions, and AUROC over all', () => {
    const q = { question: 'q', answers: ['yes'], doc: 'A' };
    const items = [
      judgeFaq('shop', q, reply({ response: 'yes', unthresholdedResponse: 'yes', confidence: 0.9, retrievedTitles: ['A'] })),
      judgeFaq('shop', q, reply({ response: 'no', unthresholdedResponse: 'no', confidence: 0.2, retrievedTitles: ['B', 'A'] })),
      judgeFaq('shop', { question: 'u', answers: [], unanswerable: true }, reply({ fallback: true, confidence: 0.1 })),
    ];
    const s = summarizeFaq(items, auroc);
    expect(s).toMatchObject({
      answerable: 2,
      unanswerable: 1,
      right: 0.5,
      wrong: 0.5,
      fallbackUnanswerable: 1,
      recallAt1: 0.5,
      recallAt5: 1,
      aurocRightVsRest: 1,
    });
  });

  it('splits by product, unknown products held out', () => {
    expect(faqHalfOf('plausible')).toBe('tuning');
    expect(faqHalfOf('pihole')).toBe('heldOut');
    expect(faqHalfOf('some-hidden-product')).toBe('heldOut');
  });

  it('refuses a file whose question names no document', () => {
    const bad = {
      product: 'x',
      site: '',
      documents: [{ title: 'A', format: 'markdown', content: 'a' }],
      questions: [{ question: 'q', answers: ['a'], doc: 'B' }],
    };
    expect(validateFaqProduct(bad, 'x.json')).toEqual(['x.json: questions[0].doc names no document']);
  });
});

/** The two-page shop as a product file, read back through the loader, with these questions. */
function shop(questions: FaqQuestion[]): FaqProduct {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'faq-test-'));
  fs.writeFileSync(
    path.join(dir, 'shop.json'),
    JSON.stringify({
      product: 'shop',
      site: 'https://shop.example/help/',
      documents: [
        {
          title: 'Returns',
          format: 'markdown',
          content: 'Items can be returned within 30 days with the receipt. Refunds reach your card in 5 business days.',
          path: 'returns',
        },
        {
          title: 'Shipping',
          format: 'markdown',
          content: 'We ship to most countries. Standard delivery takes 3 to 7 business days; express takes 1 to 2.',
          path: 'shipping',
        },
      ],
      questions,
    }),
  );
  const [product] = loadFaqDir(dir);
  return product as FaqProduct;
}

describe('FAQ harness (the real chat service)', () => {
  it('answers from the right page of a two-page shop, and a fallback stays a fallback', async () => {
    const judged = await askFaqProduct(
      shop([
        { question: 'within how many days can items be returned with the receipt?', answers: ['30 days'], doc: 'Returns' },
        { question: 'what is the capital of peru', answers: [], unanswerable: true },
      ]),
    );
    expect(judged[0]).toMatchObject({ outcome: 'right', goldRank: 1 });
    expect(judged[1]?.outcome).toBe('fallback');
  });

  it("the issue's shop: a light verb does not pick the page, and a stray number does not make a confident wrong answer", async () => {
    const [plain, noisy] = await askFaqProduct(
      shop([
        { question: 'How long do refunds take?', answers: ['5 business days'], doc: 'Returns' },
        { question: 'How long do refunds take, question 7?', answers: ['5 business days'], doc: 'Returns' },
      ]),
    );
    expect(plain).toMatchObject({ outcome: 'right', goldRank: 1 });
    expect(noisy?.outcome).not.toBe('wrong');
    expect(noisy?.reply.retrievedTitles[0]).toBe('Returns');
  });
});
