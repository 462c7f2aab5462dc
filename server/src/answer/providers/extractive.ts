import { composeExtractiveAnswer, type Passage } from '../extractive.js';
import { termCoverage } from '../../text/text.js';
import { splitSentences } from '../../text/sentences.js';
import { truncateAtWord } from '../../text/truncate.js';
import type { AnswerEvent, AnswerProvider, AnswerRequest } from './types.js';

/** Share of the question a section heading must cover to stand in for sentence matches. */
const HEADING_MATCH = 0.5;
const LEAD_SENTENCES = 3;

/**
 * When the question's words sit only in a section heading ("## Rotate an API key" over numbered
 * steps), no sentence matches, yet the section is the answer: its opening sentences are used.
 */
export function sectionLeadAnswer(
  question: string,
  passages: readonly Passage[],
  maxLength: number,
): { text: string; passageId: string } | null {
  const top = passages[0];
  if (!top) return null;
  const heading = `${top.title} ${top.headingPath.join(' ')}`;
  if (termCoverage(question, heading) < HEADING_MATCH) return null;
  const lead = splitSentences(top.text).slice(0, LEAD_SENTENCES).join(' ').trim();
  return lead ? { text: truncateAtWord(lead, maxLength), passageId: top.id } : null;
}

/**
 * The offline answerer: picks and joins the best sentences of the retrieved passages. It
 * needs no network and no model, so every install answers from day one.
 */
export function createExtractiveProvider(): AnswerProvider {
  return {
    name: 'extractive',
    async *answer(request: AnswerRequest): AsyncIterable<AnswerEvent> {
      let result = composeExtractiveAnswer(request.question, request.passages, { maxLength: request.maxResponseLength });
      if (!result.text) {
        const lead = sectionLeadAnswer(request.question, request.passages, request.maxResponseLength);
        if (lead)
          result = {
            text: lead.text,
            usedPassageIds: [lead.passageId],
            coverage: termCoverage(request.question, `${request.passages[0]?.headingPath.join(' ')} ${lead.text}`),
          };
      }
      // The whole text exists at once: one delta. Cutting it into pieces here cost an async
      // iteration each (~1.5 % of a chat request) for nothing: the chat service writes the turn
      // first and then streams the answer to SSE clients word by word (chat/service.ts).
      if (result.text) yield { type: 'delta', text: result.text };
      yield {
        type: 'done',
        finishReason: result.text ? 'stop' : 'no_answer',
        usage: null,
        usedPassageIds: result.usedPassageIds,
        coverage: result.coverage,
      };
    },
  };
}
