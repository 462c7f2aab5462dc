import { composeExtractiveAnswer } from '../extractive.js';
import type { AnswerEvent, AnswerProvider, AnswerRequest } from './types.js';

/** Words per streamed delta: small enough to look live, large enough not to flood the stream. */
const WORDS_PER_DELTA = 4;

/**
 * The offline answerer: picks and joins the best sentences of the retrieved passages. It
 * needs no network and no model, so every install answers from day one.
 */
export function createExtractiveProvider(): AnswerProvider {
  return {
    name: 'extractive',
    async *answer(request: AnswerRequest): AsyncIterable<AnswerEvent> {
      const result = composeExtractiveAnswer(request.question, request.passages, { maxLength: request.maxResponseLength });
      const parts = result.text.match(new RegExp(`(?:\\S+\\s*){1,${WORDS_PER_DELTA}}`, 'g')) ?? [];
      for (const text of parts) yield { type: 'delta', text };
      yield { type: 'done', finishReason: result.text ? 'stop' : 'no_answer', usage: null, usedPassageIds: result.usedPassageIds, coverage: result.coverage };
    },
  };
}
