import { describeError } from '../core/logger.js';
import { runAskCommand, type DiscordCommandDeps } from './commands/ask.js';
import { runFeedbackButton } from './commands/feedback.js';
import type { DiscordInteractionInput } from './interaction.js';
import type { InteractionReplier } from './replier.js';

/**
 * Routes one interaction to its command. The command name is compared with the settings read
 * now, not at start, so a renamed command works as soon as Discord has the new registration.
 */
export async function dispatchInteraction(
  input: DiscordInteractionInput,
  replier: InteractionReplier,
  deps: DiscordCommandDeps,
): Promise<void> {
  try {
    if (input.kind === 'command') {
      if (input.commandName === deps.settings.current().discord.command) return await runAskCommand(input, replier, deps);
      // A stale registration (renamed in the dashboard moments ago) still deserves an answer.
      await replier.reply({ content: deps.settings.current().texts.commandGone, ephemeral: true });
      return;
    }
    if (input.kind === 'button') return await runFeedbackButton(input, replier, deps);
    deps.logger.debug('ignored discord interaction', { type: input.type });
  } catch (err) {
    deps.logger.error('discord interaction dispatch failed', describeError(err));
  }
}
