import { MessageFlags, type ButtonInteraction, type ChatInputCommandInteraction } from 'discord.js';
import type { DiscordMessage } from './message.js';
import type { InteractionReplier } from './replier.js';

/** Gateway-mode replier: the real discord.js interaction methods, which talk to Discord's REST API. */
export function createGatewayReplier(interaction: ChatInputCommandInteraction | ButtonInteraction): InteractionReplier {
  return {
    async reply(message) {
      await interaction.reply({ ...toOptions(message), ...(message.ephemeral ? { flags: MessageFlags.Ephemeral } : {}) });
    },
    async defer({ ephemeral }) {
      await interaction.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {});
    },
    async edit(message) {
      await interaction.editReply(toOptions(message));
    },
    async followUp(message) {
      await interaction.followUp({ ...toOptions(message), ...(message.ephemeral ? { flags: MessageFlags.Ephemeral } : {}) });
    },
  };
}

/** discord.js accepts raw API embeds and components as they are. */
function toOptions(message: DiscordMessage) {
  return {
    ...(message.content === undefined ? {} : { content: message.content }),
    ...(message.embeds === undefined ? {} : { embeds: message.embeds }),
    ...(message.components === undefined ? {} : { components: message.components }),
    allowedMentions: { parse: [] },
  };
}
