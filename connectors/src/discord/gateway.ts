import { Events, type Client, type Interaction } from 'discord.js';
import { describeError, type Logger } from '../core/logger.js';
import { createGatewayReplier } from './gateway-replier.js';
import type { DiscordInteractionInput } from './interaction.js';
import type { InteractionReplier } from './replier.js';

/**
 * Gateway mode: discord.js receives INTERACTION_CREATE over the websocket and hands us its
 * interaction objects; we read what the commands need and answer through discord.js.
 */
export function attachGatewayHandlers(
  client: Client,
  dispatch: (input: DiscordInteractionInput, replier: InteractionReplier) => Promise<void>,
  logger: Logger,
): () => void {
  const listener = (interaction: Interaction) => {
    const input = readGatewayInteraction(interaction);
    if (!input || (!interaction.isChatInputCommand() && !interaction.isButton())) return;
    dispatch(input, createGatewayReplier(interaction)).catch((err: unknown) => {
      logger.error('discord gateway interaction failed', describeError(err));
    });
  };
  client.on(Events.InteractionCreate, listener);
  return () => {
    client.off(Events.InteractionCreate, listener);
  };
}

function readGatewayInteraction(interaction: Interaction): DiscordInteractionInput | undefined {
  if (interaction.isChatInputCommand()) {
    const channel = interaction.channel;
    const channelName = channel && 'name' in channel && typeof channel.name === 'string' ? channel.name : undefined;
    return {
      kind: 'command',
      commandName: interaction.commandName,
      question: interaction.options.getString('question') ?? '',
      channelId: interaction.channelId,
      userId: interaction.user.id,
      userName: interaction.user.username,
      ...(channelName === undefined ? {} : { channelName }),
      ...(interaction.guildId === null ? {} : { guildId: interaction.guildId }),
    };
  }
  if (interaction.isButton()) {
    return { kind: 'button', customId: interaction.customId, channelId: interaction.channelId, userId: interaction.user.id };
  }
  return undefined;
}
