import { friendlyErrorMessage } from './friendly-error.js';
import { describeError, type Logger } from './logger.js';
import type { ParleyClient } from './parley-client.js';
import type { ChatAnswer, ChatRequest, FeedbackRating } from './parley-types.js';
import { ENGLISH_TEXTS, type BotTexts } from './texts.js';

export type AskOutcome = { ok: true; answer: ChatAnswer } | { ok: false; message: string };

/**
 * The one chat call every command makes. It never throws: a failure comes back as the
 * sentence to show, and the cause goes to the log for the operator.
 */
export async function askParley(
  parley: ParleyClient,
  request: ChatRequest,
  logger: Logger,
  texts: BotTexts = ENGLISH_TEXTS,
): Promise<AskOutcome> {
  try {
    const answer = await parley.chat(request);
    return { ok: true, answer };
  } catch (err) {
    logger.warn('chat request failed', { sessionId: request.sessionId, source: request.metadata.source, ...describeError(err) });
    return { ok: false, message: friendlyErrorMessage(err, texts) };
  }
}

/** Same contract for a 👍/👎 click: the text to show back, never an exception. */
export async function sendFeedback(
  parley: ParleyClient,
  input: { sessionId: string; messageId: string; rating: FeedbackRating },
  logger: Logger,
  texts: BotTexts = ENGLISH_TEXTS,
): Promise<{ ok: boolean; message: string }> {
  try {
    await parley.sendFeedback(input.sessionId, { messageId: input.messageId, rating: input.rating });
    return { ok: true, message: texts.feedbackThanks };
  } catch (err) {
    logger.warn('feedback request failed', { sessionId: input.sessionId, ...describeError(err) });
    return { ok: false, message: friendlyErrorMessage(err, texts) };
  }
}

/** Trims a question and collapses runs of spaces (left behind by removed mentions); line breaks stay, they can matter. */
export function cleanQuestion(text: string | undefined | null): string {
  return (text ?? '')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();
}
