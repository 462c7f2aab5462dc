import { MessageFactory, type TurnContext } from 'botbuilder';
import { askParley, cleanQuestion } from '../../core/ask-parley.js';
import { isChannelActive } from '../../core/bot-settings.js';
import { friendlyErrorMessage } from '../../core/friendly-error.js';
import { describeError } from '../../core/logger.js';
import { teamsSessionId } from '../../core/session-id.js';
import { askHint } from '../../core/texts.js';
import { renderAnswerCards } from '../card.js';
import { keepTyping } from '../typing.js';
import type { TeamsCommandDeps } from './deps.js';

/** "ask <question>" and a plain message mean the same; the keyword is for users who expect a command. */
export function stripAskKeyword(text: string): string {
  return text.replace(/^\s*\/?ask\b[:\s]*/i, '');
}

/**
 * A message to the bot (1:1, group chat, or a channel @mention — teams-ai has already removed
 * the mention): typing indicator, ask Parley, answer with an Adaptive Card. Never throws.
 */
export function createAskHandler(deps: TeamsCommandDeps) {
  return async (context: TurnContext): Promise<void> => {
    try {
      const activity = context.activity;
      const { teams: settings, texts } = deps.settings.current();
      const channelData = (activity.channelData ?? {}) as {
        channel?: { id?: string; name?: string };
        team?: { id?: string; name?: string };
        tenant?: { id?: string };
      };
      const conversationId = activity.conversation?.id ?? '';
      // A channel thread's id is "<channel id>;messageid=<root>"; settings name the channel.
      const candidates = [
        channelData.channel?.id,
        channelData.channel?.name,
        conversationId,
        conversationId.split(';')[0],
        channelData.team?.id,
      ];
      if (!isChannelActive(settings.channels, candidates)) return;

      const question = cleanQuestion(stripAskKeyword(activity.text ?? ''));
      if (question === '') {
        await context.sendActivity(askHint(texts, (q) => `"ask ${q}"`));
        return;
      }
      const typing = keepTyping(context, deps.typingIntervalMs);
      const userId = activity.from?.aadObjectId ?? activity.from?.id ?? 'unknown';
      const tenantId = activity.conversation?.tenantId ?? channelData.tenant?.id;
      const outcome = await askParley(
        deps.parley,
        {
          message: question,
          sessionId: teamsSessionId(conversationId),
          metadata: {
            source: 'teams',
            userId,
            userName: activity.from?.name,
            conversationId,
            tenantId,
            teamId: channelData.team?.id,
            channelId: channelData.channel?.id,
          },
        },
        deps.logger,
        texts,
      );
      await typing.stop();
      if (!outcome.ok) {
        await context.sendActivity(outcome.message);
        return;
      }
      for (const card of renderAnswerCards(outcome.answer, deps.settings.current().teams.botName, texts)) {
        await context.sendActivity(MessageFactory.attachment(card));
      }
    } catch (err) {
      deps.logger.error('teams ask failed', describeError(err));
      try {
        await context.sendActivity(friendlyErrorMessage(err, deps.settings.current().texts));
      } catch (inner) {
        deps.logger.warn('could not tell the user about the failure', describeError(inner));
      }
    }
  };
}
