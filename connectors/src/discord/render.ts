import { ButtonStyle, ComponentType, type APIEmbed } from 'discord-api-types/v10';
import type { DiscordBotSettings } from '../core/bot-settings.js';
import { formatAnswerText, markdownStyle } from '../core/format-reply.js';
import type { ChatAnswer } from '../core/parley-types.js';
import { splitText } from '../core/split-text.js';
import { confidenceLine, ENGLISH_TEXTS, type BotTexts } from '../core/texts.js';
import type { FeedbackIdCodec } from './feedback-id.js';
import type { DiscordMessage } from './message.js';

/** Discord's limits: a message's content, and one embed's description. */
export const MESSAGE_CONTENT_LIMIT = 2000;
export const EMBED_DESCRIPTION_LIMIT = 4096;
const EMBED_COLOR = 0x5865f2;

/**
 * The answer and its numbered sources as embeds, one per message: Discord also caps all embeds
 * of one message at 6000 characters together, so a 4096-character chunk per message is the
 * simplest split that can never be refused. 👍/👎 go under the last part.
 */
export function renderAnswer(
  answer: ChatAnswer,
  settings: DiscordBotSettings,
  feedbackIds: FeedbackIdCodec,
  texts: BotTexts = ENGLISH_TEXTS,
): DiscordMessage[] {
  const text = formatAnswerText(answer, markdownStyle, texts);
  const chunks = splitText(text.trim() === '' ? `_(${texts.noAnswer})_` : text, EMBED_DESCRIPTION_LIMIT);
  return chunks.map((chunk, index) => {
    const embed: APIEmbed = { description: chunk, color: EMBED_COLOR };
    if (index === 0) embed.author = authorOf(settings);
    const isLast = index === chunks.length - 1;
    if (!isLast) return { embeds: [embed] };
    embed.footer = { text: confidenceLine(texts, answer.confidence) };
    if (!answer.messageId) return { embeds: [embed] };
    const target = { messageId: answer.messageId, sessionId: answer.sessionId };
    return {
      embeds: [embed],
      components: [
        {
          type: ComponentType.ActionRow,
          components: [
            {
              type: ComponentType.Button,
              style: ButtonStyle.Secondary,
              emoji: { name: '👍' },
              custom_id: feedbackIds.encode({ rating: 'up', ...target }),
            },
            {
              type: ComponentType.Button,
              style: ButtonStyle.Secondary,
              emoji: { name: '👎' },
              custom_id: feedbackIds.encode({ rating: 'down', ...target }),
            },
          ],
        },
      ],
    };
  });
}

/** Plain text (errors, hints) as message content, split at Discord's 2000 characters. */
export function renderNotice(text: string, ephemeral = false): DiscordMessage[] {
  return splitText(text, MESSAGE_CONTENT_LIMIT).map((content) => (ephemeral ? { content, ephemeral } : { content }));
}

function authorOf(settings: DiscordBotSettings): NonNullable<APIEmbed['author']> {
  const name = settings.botName.slice(0, 256);
  // Discord refuses the whole message when icon_url is not an http(s) URL.
  return /^https?:\/\//i.test(settings.avatarUrl) ? { name, icon_url: settings.avatarUrl } : { name };
}
