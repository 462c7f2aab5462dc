import type { SlackCommandMiddlewareArgs } from '@slack/bolt';
import { askParley, cleanQuestion } from '../../core/ask-parley.js';
import { isChannelActive } from '../../core/bot-settings.js';
import { friendlyErrorMessage } from '../../core/friendly-error.js';
import { describeError } from '../../core/logger.js';
import { askHint, fillText } from '../../core/texts.js';
import { slackSessionId } from '../../core/session-id.js';
import { renderAnswerMessages, renderNoticeMessage } from '../blocks.js';
import { slackTextToPlain } from '../mrkdwn.js';
import type { SlackCommandDeps } from './deps.js';

type Args = Pick<SlackCommandMiddlewareArgs, 'command' | 'ack' | 'respond'>;

/**
 * `/parley <question>`: acknowledged at once (Slack allows 3 s), answered later through the
 * command's `response_url`, which stays valid for 30 minutes. The answer is posted in the
 * channel; failures and hints only to the person who asked.
 */
export function createSlashCommandListener(deps: SlackCommandDeps) {
  return async ({ command, ack, respond }: Args): Promise<void> => {
    let acked = false;
    const ackOnce = async (response?: Parameters<Args['ack']>[0]) => {
      acked = true;
      await ack(response);
    };
    try {
      const { slack: settings, texts } = deps.settings.current();
      if (command.command.toLowerCase() !== settings.command) {
        await ackOnce({
          response_type: 'ephemeral',
          text: fillText(texts.wrongCommand, { name: settings.botName, command: settings.command }),
        });
        return;
      }
      if (!isChannelActive(settings.channels, [command.channel_id, command.channel_name])) {
        await ackOnce({ response_type: 'ephemeral', text: fillText(texts.notActive, { name: settings.botName }) });
        return;
      }
      const question = cleanQuestion(slackTextToPlain(command.text));
      if (question === '') {
        await ackOnce({ response_type: 'ephemeral', text: askHint(texts, (q) => `\`${settings.command} ${q}\``) });
        return;
      }
      await ackOnce();

      const outcome = await askParley(
        deps.parley,
        {
          message: question,
          sessionId: slackSessionId({ teamId: command.team_id, channelId: command.channel_id, userId: command.user_id }),
          metadata: {
            source: 'slack',
            userId: command.user_id,
            userName: command.user_name,
            teamId: command.team_id,
            channelId: command.channel_id,
          },
        },
        deps.logger,
        texts,
      );
      if (!outcome.ok) {
        await respond({ response_type: 'ephemeral', ...renderNoticeMessage(outcome.message) });
        return;
      }
      const messages = renderAnswerMessages(outcome.answer, {
        botName: deps.settings.current().slack.botName,
        askedBy: { userId: command.user_id, question },
        texts,
      });
      for (const message of messages) await respond({ response_type: 'in_channel', ...message });
    } catch (err) {
      deps.logger.error('slack slash command failed', describeError(err));
      try {
        const text = friendlyErrorMessage(err, deps.settings.current().texts);
        if (!acked) await ackOnce({ response_type: 'ephemeral', text });
        else await respond({ response_type: 'ephemeral', text });
      } catch (inner) {
        deps.logger.warn('could not tell the user about the failure', describeError(inner));
      }
    }
  };
}
