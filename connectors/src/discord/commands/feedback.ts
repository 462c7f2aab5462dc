import { sendFeedback } from '../../core/ask-parley.js';
import { describeError } from '../../core/logger.js';
import type { DiscordInteractionInput } from '../interaction.js';
import type { InteractionReplier } from '../replier.js';
import type { DiscordCommandDeps } from './ask.js';

type ButtonInput = Extract<DiscordInteractionInput, { kind: 'button' }>;

/** 👍/👎 under an answer: records the rating on that answer's message, thanks the clicker privately. */
export async function runFeedbackButton(input: ButtonInput, replier: InteractionReplier, deps: DiscordCommandDeps): Promise<void> {
  try {
    const target = deps.feedbackIds.decode(input.customId);
    if (!target) {
      await replier.reply({ content: deps.settings.current().texts.feedbackExpired, ephemeral: true });
      return;
    }
    await replier.defer({ ephemeral: true });
    const result = await sendFeedback(deps.parley, target, deps.logger, deps.settings.current().texts);
    await replier.edit({ content: result.message });
  } catch (err) {
    deps.logger.error('discord feedback button failed', describeError(err));
  }
}
