import type { REST } from '@discordjs/rest';
import { ApplicationCommandOptionType, ApplicationCommandType, Routes, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord-api-types/v10';
import type { DiscordBotSettings } from '../core/bot-settings.js';

/** `/ask question:<text>` as Discord's API wants it; name and description come from the bot settings. */
export function buildAskCommand(settings: DiscordBotSettings): RESTPostAPIChatInputApplicationCommandsJSONBody {
  return {
    type: ApplicationCommandType.ChatInput,
    name: settings.command,
    // Discord caps command descriptions at 100 characters.
    description: truncate(settings.description, 100),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        name: 'question',
        description: 'What do you want to know?',
        required: true,
        // The server refuses longer messages (API.md §7); Discord enforces it in the client.
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
export async function registerCommands(rest: REST, applicationId: string, guildId: string | undefined, settings: DiscordBotSettings): Promise<void> {
  const route = guildId ? Routes.applicationGuildCommands(applicationId, guildId) : Routes.applicationCommands(applicationId);
  await rest.put(route, { body: [buildAskCommand(settings)] });
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
