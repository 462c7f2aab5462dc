import { askParley, cleanQuestion } from '../../core/ask-parley.js';
import { isChannelActive } from '../../core/bot-settings.js';
import { describeError, type Logger } from '../../core/logger.js';
import type { ParleyClient } from '../../core/parley-client.js';
import { discordSessionId } from '../../core/session-id.js';
import { askHint, fillText } from '../../core/texts.js';
import type { SettingsWatcher } from '../../core/settings-watcher.js';
import type { FeedbackIdCodec } from '../feedback-id.js';
import type { DiscordInteractionInput } from '../interaction.js';
import { renderAnswer, renderNotice } from '../render.js';
import { deliverMessages, type InteractionReplier } from '../replier.js';

export interface DiscordCommandDeps {
  parley: ParleyClient;
  settings: SettingsWatcher;
  logger: Logger;
  feedbackIds: FeedbackIdCodec;
}

type AskInput = Extract<DiscordInteractionInput, { kind: 'command' }>;

/**
 * `/ask question:<text>`: defer at once (Discord's 3-second window is shorter than a model
 * answer), ask Parley, then replace the "thinking…" with the answer. Never throws.
 */
export async function runAskCommand(input: AskInput, replier: InteractionReplier, deps: DiscordCommandDeps): Promise<void> {
  let deferred = false;
  try {
    const { discord: settings, texts } = deps.settings.current();
    if (!isChannelActive(settings.channels, [input.channelId, input.channelName])) {
      // A slash command must be answered or Discord shows "The application did not respond";
      // an ephemeral note answers it without the bot speaking in a channel it is not active in.
      await replier.reply({ content: fillText(texts.notActive, { name: settings.botName }), ephemeral: true });
      return;
    }
    const question = cleanQuestion(input.question);
    if (question === '') {
      await replier.reply({ content: askHint(texts, (q) => `\`/${settings.command} question: ${q}\``), ephemeral: true });
      return;
    }
    await replier.defer({ ephemeral: false });
    deferred = true;

    const outcome = await askParley(
      deps.parley,
      {
        message: question,
        sessionId: discordSessionId(input.channelId, input.userId),
        metadata: {
          source: 'discord',
          userId: input.userId,
          channelId: input.channelId,
          guildId: input.guildId,
          userName: input.userName,
        },
      },
      deps.logger,
      texts,
    );
    const messages = outcome.ok
      ? renderAnswer(outcome.answer, deps.settings.current().discord, deps.feedbackIds, texts)
      : renderNotice(outcome.message);
    await deliverMessages(replier, messages);
  } catch (err) {
    deps.logger.error('discord ask command failed', describeError(err));
    await sayFailure(replier, deferred, deps.logger, deps.settings.current().texts.error);
  }
}

/** Last resort after an unexpected error (usually Discord refusing our message). */
async function sayFailure(replier: InteractionReplier, deferred: boolean, logger: Logger, text: string): Promise<void> {
  try {
    if (deferred) await replier.edit({ content: text });
    else await replier.reply({ content: text, ephemeral: true });
  } catch (err) {
    logger.warn('could not tell the user about the failure', describeError(err));
  }
}
