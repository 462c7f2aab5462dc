import { describe, expect, it } from 'vitest';
import { collectEvents } from '../../../test/answer-events.js';
import type { Passage } from '../extractive.js';
import { createExtractiveProvider, sectionLeadAnswer } from './extractive.js';
import type { AnswerRequest } from './types.js';

const steps: Passage = {
  id: '1',
  title: 'Admin guide',
  url: null,
  headingPath: ['Keys', 'Rotate an API key'],
  score: 1,
  text: '1. Open Settings.\n2. Choose Keys and press the round arrow.\n3. Copy the new value.',
};

function request(question: string, passages: Passage[]): AnswerRequest {
  return {
    question,
    passages,
    history: [],
    systemPrompt: '',
    variables: {},
    language: 'en',
    maxResponseLength: 500,
    model: { provider: 'extractive' },
  };
}

describe('extractive provider', () => {
  it('answers from a section whose heading alone matches the question', async () => {
    expect(sectionLeadAnswer('How do I rotate an API key?', [steps], 500)?.text).toContain('Open Settings');
    const events = await collectEvents(createExtractiveProvider().answer(request('How do I rotate an API key?', [steps]), {}));
    const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    expect(text).toContain('round arrow');
    expect(events.at(-1)).toMatchObject({ type: 'done', finishReason: 'stop', usedPassageIds: ['1'] });
  });

  it('does not use a section whose heading is unrelated', async () => {
    expect(sectionLeadAnswer('How do I export invoices?', [steps], 500)).toBeNull();
    const events = await collectEvents(createExtractiveProvider().answer(request('How do I export invoices?', [steps]), {}));
    expect(events).toEqual([{ type: 'done', finishReason: 'no_answer', usage: null, usedPassageIds: [], coverage: 0 }]);
  });

  it('gives the whole answer as one delta, then done', async () => {
    const passage: Passage = {
      ...steps,
      headingPath: [],
      text: 'Refunds go back to the original payment method within five business days after the item arrives.',
    };
    const events = await collectEvents(createExtractiveProvider().answer(request('When do refunds arrive?', [passage]), {}));
    expect(events.map((e) => e.type)).toEqual(['delta', 'done']);
    expect(events[0]).toEqual({ type: 'delta', text: passage.text });
  });
});
