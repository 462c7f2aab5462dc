import type { types } from '@slack/bolt';
import { formatAnswerText } from '../core/format-reply.js';
import { confidenceLine, ENGLISH_TEXTS, fillText, type BotTexts } from '../core/texts.js';
import type { ChatAnswer } from '../core/parley-types.js';
import { splitText } from '../core/split-text.js';
import { escapeMrkdwn, slackStyle } from './mrkdwn.js';

/** Slack's limits: a section's text, and blocks per message. */
export const SECTION_TEXT_LIMIT = 3000;
export const BLOCKS_PER_MESSAGE = 50;
/** Notification/fallback text; the blocks carry the full answer. */
const FALLBACK_TEXT_LIMIT = 2900;

export const FEEDBACK_ACTION_UP = 'parley_feedback_up';
export const FEEDBACK_ACTION_DOWN = 'parley_feedback_down';

export interface SlackMessage {
  text: string;
  blocks: types.KnownBlock[];
}

/** What a feedback button carries back to us (Slack caps a button value at 2000 characters). */
export interface FeedbackValue {
  s: string;
  m: string;
}

/**
 * The answer as Block Kit: sections of at most 3000 characters (answer, then numbered source
 * links), a context line, then 👍/👎. If it needs more than one message's 50 blocks, it
 * continues in further messages — nothing is cut.
 */
export function renderAnswerMessages(
  answer: ChatAnswer,
  options: { botName: string; askedBy?: { userId: string; question: string }; texts?: BotTexts },
): SlackMessage[] {
  const texts = options.texts ?? ENGLISH_TEXTS;
  const text = formatAnswerText(answer, slackStyle, texts);
  const sections: types.KnownBlock[] = splitText(text.trim() === '' ? `_(${escapeMrkdwn(texts.noAnswer)})_` : text, SECTION_TEXT_LIMIT).map(
    (chunk) => ({
      type: 'section',
      text: { type: 'mrkdwn', text: chunk },
    }),
  );

  const lead: types.KnownBlock[] = options.askedBy
    ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: truncate(askedByLine(texts, options.askedBy), SECTION_TEXT_LIMIT) }] }]
    : [];
  const tail: types.KnownBlock[] = [
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `${escapeMrkdwn(options.botName)} · ${escapeMrkdwn(confidenceLine(texts, answer.confidence))}` }],
    },
  ];
  if (answer.messageId) {
    const value = JSON.stringify({ s: answer.sessionId, m: answer.messageId } satisfies FeedbackValue);
    tail.push({
      type: 'actions',
      block_id: 'parley_feedback',
      elements: [
        { type: 'button', action_id: FEEDBACK_ACTION_UP, text: { type: 'plain_text', text: '👍', emoji: true }, value },
        { type: 'button', action_id: FEEDBACK_ACTION_DOWN, text: { type: 'plain_text', text: '👎', emoji: true }, value },
      ],
    });
  }

  // Fill messages with the answer; the context line and buttons always end the last one together.
  const pages: types.KnownBlock[][] = [];
  let rest = [...lead, ...sections];
  while (rest.length + tail.length > BLOCKS_PER_MESSAGE) {
    pages.push(rest.slice(0, BLOCKS_PER_MESSAGE));
    rest = rest.slice(BLOCKS_PER_MESSAGE);
  }
  pages.push([...rest, ...tail]);
  const fallback = truncate(answer.response, FALLBACK_TEXT_LIMIT);
  return pages.map((blocks) => ({ text: fallback, blocks }));
}

/** "<@U123> asked: …" in the assistant's language: the mention stays live, the rest is escaped text. */
function askedByLine(texts: BotTexts, askedBy: { userId: string; question: string }): string {
  return fillText(escapeMrkdwn(texts.askedBy), { user: `<@${askedBy.userId}>`, question: escapeMrkdwn(askedBy.question) });
}

/** Short texts (errors, hints) as plain mrkdwn sections. */
export function renderNoticeMessage(text: string): SlackMessage {
  const escaped = escapeMrkdwn(text);
  return {
    text: truncate(escaped, FALLBACK_TEXT_LIMIT),
    blocks: splitText(escaped, SECTION_TEXT_LIMIT)
      .slice(0, BLOCKS_PER_MESSAGE)
      .map((chunk) => ({ type: 'section', text: { type: 'mrkdwn', text: chunk } })),
  };
}

export function readFeedbackValue(value: string | undefined): FeedbackValue | undefined {
  if (!value) return undefined;
  try {
    const parsed = JSON.parse(value) as Partial<FeedbackValue>;
    return typeof parsed.s === 'string' && typeof parsed.m === 'string' ? { s: parsed.s, m: parsed.m } : undefined;
  } catch {
    return undefined;
  }
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
