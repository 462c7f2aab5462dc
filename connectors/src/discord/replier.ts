import type { DiscordMessage } from './message.js';

/**
 * The four ways a command answers an interaction. Gateway mode implements them with
 * discord.js, HTTP mode with the HTTP response plus @discordjs/rest; commands do not care which.
 *
 * Discord allows one initial response within 3 s: either `reply` (final) or `defer` (shows
 * "thinking…"), then any number of `edit`s of that response and `followUp` messages for 15 min.
 */
export interface InteractionReplier {
  reply(message: DiscordMessage): Promise<void>;
  defer(options: { ephemeral: boolean }): Promise<void>;
  edit(message: DiscordMessage): Promise<void>;
  followUp(message: DiscordMessage): Promise<void>;
}

/** The first message replaces the deferred "thinking…", the rest follow it. */
export async function deliverMessages(replier: InteractionReplier, messages: readonly DiscordMessage[]): Promise<void> {
  const [first, ...rest] = messages;
  if (first) await replier.edit(first);
  for (const message of rest) await replier.followUp(message);
}
