import type { REST } from '@discordjs/rest';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  Routes,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import type { DiscordBotSettings } from '../core/bot-settings.js';
import { discordLocalizations, truncate } from './locales.js';

/** Discord caps command and option descriptions at 100 characters. */
const MAX_DESCRIPTION = 100;

/**
 * `/ask question:<text>` as Discord's API wants it; name and description come from the bot settings.
 * The descriptions are in the assistant's language, and in each reader's client language where
 * Parley has it (the option's always; the command's while it is Parley's default, not the owner's).
 */
export function buildAskCommand(settings: DiscordBotSettings): RESTPostAPIChatInputApplicationCommandsJSONBody {
  const commandLocalizations = discordLocalizations(settings.descriptionLocalizations, MAX_DESCRIPTION);
  const optionLocalizations = discordLocalizations(settings.optionLocalizations, MAX_DESCRIPTION);
  return {
    type: ApplicationCommandType.ChatInput,
    name: settings.command,
    description: truncate(settings.description, MAX_DESCRIPTION),
    ...(Object.keys(commandLocalizations).length ? { description_localizations: commandLocalizations } : {}),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        name: 'question',
        description: truncate(settings.optionDescription, MAX_DESCRIPTION),
        ...(Object.keys(optionLocalizations).length ? { description_localizations: optionLocalizations } : {}),
        required: true,
        // The server refuses longer messages (docs/api-spec.md §7); Discord enforces it in the client.
        max_length: 4000,
      },
    ],
  };
}

/**
 * Bulk-overwrites the application's commands (PUT), so a renamed command replaces the old one
 * instead of adding to it. A guild registration shows up at once; a global one can take a while
 * to reach every client, which is why DISCORD_GUILD_ID exists.
 */
export async function registerCommands(
  rest: REST,
  applicationId: string,
  guildId: string | undefined,
  settings: DiscordBotSettings,
): Promise<void> {
  const route = guildId ? Routes.applicationGuildCommands(applicationId, guildId) : Routes.applicationCommands(applicationId);
  await rest.put(route, { body: [buildAskCommand(settings)] });
}
