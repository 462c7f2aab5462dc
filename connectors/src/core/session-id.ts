import { createHash } from 'node:crypto';

/** The server's rule for session ids (docs/api-spec.md §7). */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;
const MAX_LENGTH = 128;
const HASH_LENGTH = 12;

/**
 * Makes any string a valid session id, deterministically: the same platform conversation must
 * map to the same Parley session on every message and after a restart, or the assistant forgets
 * its context. Valid ids pass through untouched (readable in analytics); anything else has its
 * bad characters replaced and a hash of the ORIGINAL appended, so two raw ids that differ only in
 * replaced characters or in a truncated tail still get different sessions.
 */
export function toSessionId(raw: string): string {
  if (SESSION_ID_PATTERN.test(raw)) return raw;
  const hash = createHash('sha256').update(raw, 'utf8').digest('hex').slice(0, HASH_LENGTH);
  const cleaned = raw.replace(/[^A-Za-z0-9_.:@-]/g, '_').slice(0, MAX_LENGTH - HASH_LENGTH - 1);
  return `${cleaned}-${hash}`;
}

/** One Parley session per user per Discord channel. */
export function discordSessionId(channelId: string, userId: string): string {
  return toSessionId(`discord:${channelId}:${userId}`);
}

/**
 * A Slack thread is one conversation whoever speaks in it; outside a thread (slash commands)
 * each user has their own session per channel.
 */
export function slackSessionId(ids: { teamId: string; channelId: string; userId: string; threadTs?: string | undefined }): string {
  const tail = ids.threadTs ? ids.threadTs : ids.userId;
  return toSessionId(`slack:${ids.teamId}:${ids.channelId}:${tail}`);
}

/** Teams conversation ids already distinguish chats, channels and channel threads. */
export function teamsSessionId(conversationId: string): string {
  return toSessionId(`teams:${conversationId}`);
}
