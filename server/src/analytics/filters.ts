import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Principal } from '../auth/permissions.js';
import { principalOf } from '../auth/middleware.js';
import { AppError } from '../http/errors.js';
import { parseInput } from '../http/validate.js';
import type { SqlValue } from '../storage/port.js';
import { CHANNELS, DEFAULT_CHANNELS, type AnalyticsChannel } from './channel.js';

/**
 * zod's ISO formats check the calendar (2024-02-30 and 2023-02-29 fail, 2024-02-29 passes) and
 * the clock (25:00 fails); `Date.parse` alone does not: V8 reads 2024-02-30 as March 1st.
 */
export const isoDateOrDateTime = z.union([z.iso.date(), z.iso.datetime({ offset: true, local: true })], {
  error: 'must be a real ISO 8601 date (2026-01-31) or date-time (2026-01-31T09:30:00Z)',
});

/** `channel=widget,slack`: a comma-separated list of the dashboard's channels. */
export const channelList = z
  .string()
  .max(200)
  .transform((v, c) => {
    const list = [
      ...new Set(
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    const bad = list.find((s) => !(CHANNELS as readonly string[]).includes(s));
    if (bad !== undefined || !list.length) {
      c.addIssue({ code: 'custom', message: `must be a comma-separated list of ${CHANNELS.join(', ')}` });
      return z.NEVER;
    }
    return list as AnalyticsChannel[];
  });

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

/** The query every analytics route shares (the time series reads the first five). */
export const analyticsFilterQuery = z.object({
  from: isoDateOrDateTime.optional(),
  to: isoDateOrDateTime.optional(),
  assistantId: z.string().min(1).max(64).optional(),
  channel: channelList.optional(),
  userId: z.string().min(1).max(200).optional(),
  source: z.string().min(1).max(100).optional(),
  q: z.string().min(1).max(500).optional(),
  rating: z.enum(['up', 'down']).optional(),
  fellBack: flag.optional(),
  handoff: z.enum(['true', 'false', 'pending']).optional(),
  sort: z.enum(['startedAt', 'lastMessageAt', 'messageCount']).optional(),
  order: z.enum(['asc', 'desc']).optional(),
});

/** Named SQL parameters for the conversation filters shared by every analytics route. */
export interface ConversationFilter {
  org: string;
  from: string | null;
  to: string | null;
  assistantId: string | null;
  userId: string | null;
  source: string | null;
  q: string | null;
  /** JSON array of channels (read with json_each). */
  channels: string;
  rating: 'up' | 'down' | null;
  /** 1 / 0 / null (any). */
  fellBack: number | null;
  handoff: 'true' | 'false' | 'pending' | null;
  sort: 'startedAt' | 'lastMessageAt' | 'messageCount';
  order: 'asc' | 'desc';
}

/** A conversation whose user asked for a human, still open, and no agent has answered since. */
export const HANDOFF_PENDING = `c.handoff_requested_at IS NOT NULL AND c.status = 'active'
  AND NOT EXISTS (SELECT 1 FROM messages mh WHERE mh.conversation_id = c.id AND mh.role = 'human_agent' AND mh.created_at >= c.handoff_requested_at)`;

/** Named parameters for an IN list: `(@p0, @p1)` and their values; `(NULL)` (matches nothing) when empty. */
export function inList(prefix: string, values: readonly string[]): { sql: string; params: Record<string, string> } {
  if (!values.length) return { sql: '(NULL)', params: {} };
  return {
    sql: `(${values.map((_v, i) => `@${prefix}${i}`).join(', ')})`,
    params: Object.fromEntries(values.map((v, i) => [`${prefix}${i}`, v])),
  };
}

/**
 * The filters of every analytics route as SQL over `conversations c` that runs on SQLite and
 * PostgreSQL: only the conditions that are set (no `@x IS NULL OR …`: PostgreSQL cannot type a
 * parameter it only sees compared with NULL), channels as an IN list (no json_each). Dates as
 * plain ranges so the (organization_id, started_at) index bounds the scan.
 */
export function conversationWhere(f: ConversationFilter): { sql: string; params: Record<string, SqlValue> } {
  const channels = inList('ch', JSON.parse(f.channels) as string[]);
  const where = ['c.organization_id = @org', 'c.started_at >= @fromAt AND c.started_at <= @toAt', `c.channel_group IN ${channels.sql}`];
  const params: Record<string, SqlValue> = { org: f.org, fromAt: f.from ?? '', toAt: f.to ?? '9999', ...channels.params };
  const set = (name: keyof ConversationFilter, sql: string) => {
    where.push(sql);
    params[name] = f[name] as SqlValue;
  };
  if (f.assistantId !== null) set('assistantId', 'c.assistant_id = @assistantId');
  if (f.userId !== null) set('userId', 'c.user_id = @userId');
  if (f.source !== null) set('source', 'c.source = @source');
  if (f.rating !== null) set('rating', 'EXISTS (SELECT 1 FROM messages mr WHERE mr.conversation_id = c.id AND mr.rating = @rating)');
  if (f.fellBack !== null)
    where.push(`${f.fellBack ? '' : 'NOT '}EXISTS (SELECT 1 FROM messages mf WHERE mf.conversation_id = c.id AND mf.answered = 0)`);
  if (f.handoff === 'true') where.push('c.handoff_requested_at IS NOT NULL');
  else if (f.handoff === 'false') where.push('c.handoff_requested_at IS NULL');
  else if (f.handoff === 'pending') where.push(`(${HANDOFF_PENDING})`);
  // lower() on both sides: LIKE is case-insensitive (ASCII) on SQLite only.
  if (f.q !== null)
    set('q', "EXISTS (SELECT 1 FROM messages mq WHERE mq.conversation_id = c.id AND lower(mq.content) LIKE lower(@q) ESCAPE '\\')");
  return { sql: where.join('\n  AND '), params };
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A date-only `to` means the whole of that day (UTC). */
export const endOf = (v: string): string => (v.length === 10 ? `${v}T23:59:59.999Z` : new Date(v).toISOString());
export const startOf = (v: string): string => (v.length === 10 ? `${v}T00:00:00.000Z` : new Date(v).toISOString());

/** The query without the paging and format parameters the routes read themselves. */
export function filterQuery(req: Request): Record<string, unknown> {
  const { page: _p, limit: _l, format: _f, status: _s, ...query } = req.query as Record<string, unknown>;
  return query;
}

export function readConversationFilter(req: Request, res: Response): ConversationFilter {
  return toConversationFilter(principalOf(res), parseInput(analyticsFilterQuery, filterQuery(req), 'query'));
}

/** The SQL filter of parsed analytics filters, scoped to the caller (organization, bound assistant). */
export function toConversationFilter(p: Principal, f: z.infer<typeof analyticsFilterQuery>): ConversationFilter {
  if (p.assistantId && f.assistantId && f.assistantId !== p.assistantId) throw new AppError('resource_not_found', 'Assistant not found');
  const from = f.from ? startOf(f.from) : null;
  const to = f.to ? endOf(f.to) : null;
  if (from && to && from > to) throw new AppError('validation_error', 'from must not be after to');
  return {
    org: p.organizationId,
    from,
    to,
    assistantId: p.assistantId ?? f.assistantId ?? null,
    userId: f.userId ?? null,
    source: f.source ?? null,
    q: f.q ? `%${escapeLike(f.q)}%` : null,
    channels: JSON.stringify(f.channel ?? DEFAULT_CHANNELS),
    rating: f.rating ?? null,
    fellBack: f.fellBack === undefined ? null : Number(f.fellBack),
    handoff: f.handoff ?? null,
    sort: f.sort ?? 'startedAt',
    order: f.order ?? 'desc',
  };
}
