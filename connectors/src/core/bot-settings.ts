/**
 * The chat-platform part of an assistant record (docs/api-spec.md §6), read defensively: a missing or
 * malformed field falls back to the documented default instead of stopping the connector.
 */
import { ENGLISH_TEXTS, fillText, NO_LOCALIZATIONS, type BotTexts, type TextLocalizations } from './texts.js';

export interface DiscordBotSettings {
  botName: string;
  description: string;
  /** The description in other languages, by language code: Parley's own only (an owner's text has no translations). */
  descriptionLocalizations: Readonly<Record<string, string>>;
  /** The question option's description, in the assistant's language, and in every other language by code. */
  optionDescription: string;
  optionLocalizations: Readonly<Record<string, string>>;
  avatarUrl: string;
  /** Slash command name without the slash, Discord-valid (lowercase, ≤ 32 chars). */
  command: string;
  channels: string[];
}

export interface SlackBotSettings {
  botName: string;
  /** Always starts with `/`, as Slack sends it in the `command` field. */
  command: string;
  channels: string[];
}

export interface TeamsBotSettings {
  botName: string;
  channels: string[];
}

export interface BotSettings {
  assistantName: string;
  /** What the bot says on its own, in the assistant's language (core/texts.ts). */
  texts: BotTexts;
  discord: DiscordBotSettings;
  slack: SlackBotSettings;
  teams: TeamsBotSettings;
}

export const DEFAULT_DISCORD_COMMAND = 'ask';
export const DEFAULT_SLACK_COMMAND = '/parley';

type Rec = Record<string, unknown>;
const asRecord = (v: unknown): Rec => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : {});
const asString = (v: unknown, fallback: string): string => (typeof v === 'string' && v.trim() !== '' ? v.trim() : fallback);
const asChannels = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string' && c.trim() !== '').map((c) => c.trim()) : [];

export function parseBotSettings(
  assistant: Rec,
  texts: BotTexts = ENGLISH_TEXTS,
  localizations: TextLocalizations = NO_LOCALIZATIONS,
): BotSettings {
  const assistantName = asString(assistant.name, 'Parley');
  const discord = asRecord(assistant.discord);
  const slack = asRecord(assistant.slack);
  const teams = asRecord(assistant.teams);
  const ownDescription = asString(discord.description, asString(assistant.description, ''));
  const askCommand = (text: string) => fillText(text, { name: assistantName });
  return {
    assistantName,
    texts,
    discord: {
      botName: asString(discord.botName, assistantName),
      description: ownDescription || askCommand(texts.askCommand),
      descriptionLocalizations: ownDescription ? {} : mapValues(localizations.askCommand, askCommand),
      optionDescription: texts.askOption,
      optionLocalizations: localizations.askOption,
      avatarUrl: asString(discord.avatarUrl, asString(assistant.avatarUrl, '')),
      command: toDiscordCommandName(asString(discord.command, DEFAULT_DISCORD_COMMAND)),
      channels: asChannels(discord.channels),
    },
    slack: {
      botName: asString(slack.botName, assistantName),
      command: toSlackCommand(asString(slack.command, DEFAULT_SLACK_COMMAND)),
      channels: asChannels(slack.channels),
    },
    teams: {
      botName: asString(teams.botName, assistantName),
      channels: asChannels(teams.channels),
    },
  };
}

function mapValues(record: Readonly<Record<string, string>>, f: (value: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));
}

/** Discord rejects a registration whose name breaks its rule; an admin typing "/Ask" still means "ask". */
export function toDiscordCommandName(command: string): string {
  const name = command
    .replace(/^\/+/, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_-]/gu, '-')
    .slice(0, 32);
  return name === '' ? DEFAULT_DISCORD_COMMAND : name;
}

export function toSlackCommand(command: string): string {
  const name = command.replace(/^\/+/, '').toLowerCase();
  return name === '' ? DEFAULT_SLACK_COMMAND : `/${name}`;
}

/**
 * Empty list = every channel. Entries may be ids or names (with or without `#`), compared
 * case-insensitively, because admins copy whichever the platform shows them.
 */
export function isChannelActive(channels: readonly string[], candidates: readonly (string | undefined | null)[]): boolean {
  if (channels.length === 0) return true;
  const wanted = new Set(channels.map(normalizeChannel));
  return candidates.some((c) => typeof c === 'string' && c !== '' && wanted.has(normalizeChannel(c)));
}

function normalizeChannel(channel: string): string {
  return channel.trim().replace(/^#/, '').toLowerCase();
}
