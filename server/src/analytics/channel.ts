/**
 * The dashboard's channel of a conversation. Stored conversations carry the transport
 * (`channel`: api | app | widget) and what the caller said it is (`source`, from
 * metadata.source): connectors send discord/slack/teams, the dashboard's playground sends
 * playground. Migration 018's virtual column `conversations.channel_group` computes the same
 * value in SQL (the filters and the rollup backfill read it); a test keeps the two in step.
 */
export const CHANNELS = ['widget', 'api', 'discord', 'slack', 'teams', 'playground'] as const;
export type AnalyticsChannel = (typeof CHANNELS)[number];

/** Analytics leave the playground out unless asked: it is the team testing, not traffic. */
export const DEFAULT_CHANNELS: readonly AnalyticsChannel[] = CHANNELS.filter((c) => c !== 'playground');

const FROM_SOURCE = new Set<string>(['discord', 'slack', 'teams', 'playground']);

export function channelOf(channel: string, source: string | null | undefined): AnalyticsChannel {
  // ASCII only, like SQLite's lower(): the rollups (analytics/rollup-writes.ts) key rows by this value.
  const s = source?.replace(/[A-Z]/g, (c) => c.toLowerCase());
  if (s && FROM_SOURCE.has(s)) return s as AnalyticsChannel;
  return channel === 'widget' ? 'widget' : 'api';
}
