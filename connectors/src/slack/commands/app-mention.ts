import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { askParley, cleanQuestion } from '../../core/ask-parley.js';
import { isChannelActive } from '../../core/bot-settings.js';
import { describeError } from '../../core/logger.js';
import { slackSessionId } from '../../core/session-id.js';
import { askHint } from '../../core/texts.js';
import { renderAnswerMessages, renderNoticeMessage } from '../blocks.js';
import { slackTextToPlain } from '../mrkdwn.js';
import type { SlackCommandDeps } from './deps.js';

type Args = Pick<SlackEventMiddlewareArgs<'app_mention'>, 'event' | 'body'> & Pick<AllMiddlewareArgs, 'client'>;

/**
 * "@Parley how do I …?" in a channel: answered in the message's thread, and the thread is one
 * Parley session, so follow-up mentions in it keep their context. Bolt has already acknowledged
 * the event; inactive channels get silence, as the settings ask.
 */
export function createAppMentionListener(deps: SlackCommandDeps) {
  return async ({ event, body, client }: Args): Promise<void> => {
    try {
      // Another bot mentioning us could start an endless bot-to-bot conversation.
      if (event.bot_id || !event.user) return;
      const { slack: settings, texts } = deps.settings.current();
      if (!isChannelActive(settings.channels, [event.channel])) return;

      const threadTs = event.thread_ts ?? event.ts;
      const post = (message: { text: string; blocks: unknown[] }) =>
        client.chat.postMessage({ channel: event.channel, thread_ts: threadTs, text: message.text, blocks: message.blocks as never });

      const question = cleanQuestion(slackTextToPlain(event.text));
      if (question === '') {
        await post(renderNoticeMessage(askHint(texts, (q) => `"@${settings.botName} ${q}"`)));
        return;
      }
      const teamId = event.team ?? body.team_id;
      const outcome = await askParley(
        deps.parley,
        {
          message: question,
          sessionId: slackSessionId({ teamId, channelId: event.channel, userId: event.user, threadTs }),
          metadata: { source: 'slack', userId: event.user, teamId, channelId: event.channel, threadTs },
        },
        deps.logger,
        texts,
      );
      const messages = outcome.ok
        ? renderAnswerMessages(outcome.answer, { botName: deps.settings.current().slack.botName, texts })
        : [renderNoticeMessage(outcome.message)];
      for (const message of messages) await post(message);
    } catch (err) {
      deps.logger.error('slack mention failed', describeError(err));
    }
  };
}
