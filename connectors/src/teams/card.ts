import { CardFactory, type Attachment } from 'botbuilder';
import { formatAnswerText, markdownStyle } from '../core/format-reply.js';
import { confidenceLine, ENGLISH_TEXTS, type BotTexts } from '../core/texts.js';
import type { ChatAnswer } from '../core/parley-types.js';
import { splitText } from '../core/split-text.js';

/**
 * Teams refuses activities over roughly 28 KB. 6000 characters of text per card stays well
 * under that even for multi-byte scripts once JSON-escaped; longer answers continue in further cards.
 */
export const CARD_TEXT_LIMIT = 6000;
export const FEEDBACK_VERB = 'parley-feedback';

export interface FeedbackData {
  verb: typeof FEEDBACK_VERB;
  rating: 'up' | 'down';
  messageId: string;
  sessionId: string;
}

/** The answer, then its numbered sources, as Adaptive Cards; 👍/👎 Action.Submit on the last. */
export function renderAnswerCards(answer: ChatAnswer, botName: string, texts: BotTexts = ENGLISH_TEXTS): Attachment[] {
  const text = formatAnswerText(answer, markdownStyle, texts);
  const chunks = splitText(text.trim() === '' ? `_(${texts.noAnswer})_` : text, CARD_TEXT_LIMIT);
  return chunks.map((chunk, index) => {
    const isFirst = index === 0;
    const isLast = index === chunks.length - 1;
    const body: Record<string, unknown>[] = [];
    if (isFirst) body.push({ type: 'TextBlock', text: botName, weight: 'Bolder', size: 'Small', isSubtle: true, wrap: true });
    body.push({ type: 'TextBlock', text: chunk, wrap: true });
    if (isLast)
      body.push({ type: 'TextBlock', text: confidenceLine(texts, answer.confidence), size: 'Small', isSubtle: true, spacing: 'Medium' });
    const messageId = answer.messageId;
    const actions =
      isLast && messageId
        ? (['up', 'down'] as const).map((rating) => ({
            type: 'Action.Submit',
            title: rating === 'up' ? '👍' : '👎',
            data: { verb: FEEDBACK_VERB, rating, messageId, sessionId: answer.sessionId } satisfies FeedbackData,
          }))
        : [];
    return CardFactory.adaptiveCard({
      type: 'AdaptiveCard',
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      // 1.5 is the highest version every Teams client renders.
      version: '1.5',
      body,
      ...(actions.length > 0 ? { actions } : {}),
    });
  });
}

export function readFeedbackData(value: unknown): FeedbackData | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.verb !== FEEDBACK_VERB || (v.rating !== 'up' && v.rating !== 'down')) return undefined;
  if (typeof v.messageId !== 'string' || typeof v.sessionId !== 'string') return undefined;
  return { verb: FEEDBACK_VERB, rating: v.rating, messageId: v.messageId, sessionId: v.sessionId };
}
