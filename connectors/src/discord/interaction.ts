/**
 * What our commands need from an interaction, read from either a raw gateway/HTTP payload or
 * a discord.js object, so one implementation of each command serves both modes.
 */
export type DiscordInteractionInput =
  | {
      kind: 'command';
      commandName: string;
      question: string;
      channelId: string;
      channelName?: string;
      guildId?: string;
      userId: string;
      userName?: string;
    }
  | { kind: 'button'; customId: string; channelId: string; userId: string }
  | { kind: 'unsupported'; type: number };

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec | undefined => (typeof v === 'object' && v !== null ? (v as Rec) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Interaction type numbers (Discord API): 2 application command, 3 message component. */
export function readRawInteraction(payload: Rec): DiscordInteractionInput {
  const type = typeof payload.type === 'number' ? payload.type : 0;
  const data = rec(payload.data) ?? {};
  const channel = rec(payload.channel);
  const channelId = str(payload.channel_id) ?? str(channel?.id) ?? '';
  // In a guild the user is inside `member`; in a DM it is top-level `user`.
  const user = rec(rec(payload.member)?.user) ?? rec(payload.user) ?? {};
  const userId = str(user.id) ?? '';
  if (type === 2) {
    const options = Array.isArray(data.options) ? data.options.map(rec) : [];
    const question = options.find((o) => o?.name === 'question')?.value;
    const channelName = str(channel?.name);
    const guildId = str(payload.guild_id);
    const userName = str(user.username);
    return {
      kind: 'command',
      commandName: str(data.name) ?? '',
      question: str(question) ?? '',
      channelId,
      userId,
      ...(channelName === undefined ? {} : { channelName }),
      ...(guildId === undefined ? {} : { guildId }),
      ...(userName === undefined ? {} : { userName }),
    };
  }
  if (type === 3 && data.component_type === 2) {
    return { kind: 'button', customId: str(data.custom_id) ?? '', channelId, userId };
  }
  return { kind: 'unsupported', type };
}
