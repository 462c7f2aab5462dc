/**
 * The chat-platform part of an assistant record (API.md §6), read defensively: a missing or
 * malformed field falls back to the documented default instead of stopping the connector.
 */
import { ENGLISH_TEXTS, type BotTexts } from './texts.js';

export interface DiscordBotSettings {
  botName: string;
  description: string;
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

export function parseBotSettings(assistant: Rec, texts: BotTexts = ENGLISH_TEXTS): BotSettings {
  const assistantName = asString(assistant.name, 'Parley');
  const discord = asRecord(assistant.discord);
  const slack = asRecord(assistant.slack);
  const teams = asRecord(assistant.teams);
  return {
    assistantName,
    texts,
    discord: {
      botName: asString(discord.botName, assistantName),
      description: asString(discord.description, asString(assistant.description, `Ask ${assistantName} a question`)),
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
