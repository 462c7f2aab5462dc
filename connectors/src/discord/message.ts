import { MessageFlags, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed } from 'discord-api-types/v10';

/** A reply as our commands build it, independent of gateway (discord.js) or HTTP (raw REST) delivery. */
export interface DiscordMessage {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
  /** Only the person who used the command sees it. */
  ephemeral?: boolean;
}

/**
 * JSON body for the interaction callback / webhook endpoints. `allowed_mentions: {parse: []}`
 * because an answer quoting "@everyone" from the knowledge base must never ping a whole server.
 */
export function toApiMessage(message: DiscordMessage): Record<string, unknown> {
  return {
    ...(message.content === undefined ? {} : { content: message.content }),
    ...(message.embeds === undefined ? {} : { embeds: message.embeds }),
    ...(message.components === undefined ? {} : { components: message.components }),
    ...(message.ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
    allowed_mentions: { parse: [] },
  };
}
