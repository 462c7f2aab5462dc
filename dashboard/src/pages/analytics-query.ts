// The filters the analytics and conversations pages share, kept in the URL query so a view can
// be bookmarked, shared and reached from a chart point. Pure functions: the pages read
// `useLocation().query`, the models turn the filters into the API's query.

export const CHANNELS = ['widget', 'api', 'discord', 'slack', 'teams', 'playground'] as const;
export type Channel = (typeof CHANNELS)[number];
/** The playground is the team testing, not traffic: left out unless asked (as the server does). */
export const DEFAULT_CHANNELS: readonly Channel[] = CHANNELS.filter((c) => c !== 'playground');

export const CHANNEL_LABELS: Record<Channel, string> = {
  widget: 'Widget',
  api: 'API',
  discord: 'Discord',
  slack: 'Slack',
  teams: 'Teams',
  playground: 'Playground',
};

export type Range = 'all' | 'today' | '7d' | '30d' | '90d' | 'custom';
export const RANGE_LABELS: Record<Range, string> = {
  all: 'Any time',
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  custom: 'Custom range',
};
const RANGE_DAYS: Partial<Record<Range, number>> = { '7d': 7, '30d': 30, '90d': 90 };

export type Interval = 'hour' | 'day';

export interface DateFilters {
  range: Range;
  /** Custom range: a date (2026-01-31) or an ISO date-time (a chart bucket's start). */
  from: string;
  to: string;
  assistantId: string;
  channels: Channel[];
}

export type Query = Record<string, string | undefined>;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

function parseChannels(v: string | undefined): Channel[] {
  if (!v) return [...DEFAULT_CHANNELS];
  const list = v.split(',').filter((c): c is Channel => (CHANNELS as readonly string[]).includes(c));
  return list.length ? CHANNELS.filter((c) => list.includes(c)) : [...DEFAULT_CHANNELS];
}

export const isDefaultChannels = (channels: readonly Channel[]): boolean =>
  channels.length === DEFAULT_CHANNELS.length && DEFAULT_CHANNELS.every((c) => channels.includes(c));

export function parseDateFilters(q: Query, defaultRange: Range): DateFilters {
  const range = (q.range && q.range in RANGE_LABELS ? q.range : q.from || q.to ? 'custom' : defaultRange) as Range;
  return { range, from: q.from ?? '', to: q.to ?? '', assistantId: q.assistantId ?? '', channels: parseChannels(q.channel) };
}

/** The URL form: defaults left out so links stay short. */
export function dateFiltersToQuery(f: DateFilters, defaultRange: Range): Query {
  return {
    range: f.range === defaultRange ? undefined : f.range,
    from: f.range === 'custom' && f.from ? f.from : undefined,
    to: f.range === 'custom' && f.to ? f.to : undefined,
    assistantId: f.assistantId || undefined,
    channel: isDefaultChannels(f.channels) ? undefined : f.channels.join(','),
  };
}

/** The window the filters mean now: presets end now; custom dates are sent as they are (a date-only `to` is the whole day). */
export function windowOf(f: DateFilters, nowMs: number): { from?: string; to?: string } {
  if (f.range === 'all') return {};
  if (f.range === 'custom') return { from: f.from || undefined, to: f.to || undefined };
  const now = new Date(nowMs);
  if (f.range === 'today') {
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
    return { from: new Date(midnight).toISOString(), to: now.toISOString() };
  }
  return { from: new Date(nowMs - (RANGE_DAYS[f.range] ?? 7) * DAY_MS).toISOString(), to: now.toISOString() };
}

/** The analytics filters as the API reads them (every analytics route takes the same). */
export function apiFilters(f: DateFilters, nowMs: number): Record<string, string | undefined> {
  return {
    ...windowOf(f, nowMs),
    assistantId: f.assistantId || undefined,
    channel: isDefaultChannels(f.channels) ? undefined : f.channels.join(','),
  };
}

/** Milliseconds of a date or date-time as the server reads it (date-only: UTC start, or end of day for `to`). */
export function instantOf(v: string, end = false): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return Date.parse(`${v}T${end ? '23:59:59.999' : '00:00:00.000'}Z`);
  return Date.parse(v);
}

/** Per hour up to three days, per day beyond (a readable number of points either way). */
export function defaultInterval(f: DateFilters, nowMs: number): Interval {
  const w = windowOf(f, nowMs);
  const from = w.from ? instantOf(w.from) : nowMs - 90 * DAY_MS;
  const to = w.to ? instantOf(w.to, true) : nowMs;
  return to - from <= 3 * DAY_MS ? 'hour' : 'day';
}

export const bucketMs = (interval: Interval): number => (interval === 'hour' ? HOUR_MS : DAY_MS);

/** A chart bucket as a custom range: from its start to the last millisecond before the next one. */
export function bucketRange(t: string, interval: Interval): { from: string; to: string } {
  const start = Date.parse(t);
  return { from: new Date(start).toISOString(), to: new Date(start + bucketMs(interval) - 1).toISOString() };
}

export function queryString(q: Query): string {
  const s = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => !!e[1])).toString();
  return s ? `?${s}` : '';
}

// ---- Conversations list filters (the date filters plus the list's own) ----

export type Rating = '' | 'up' | 'down';
export type Flag = '' | 'true' | 'false';
export type Sort = 'startedAt' | 'lastMessageAt' | 'messageCount';

export interface ConversationFilters extends DateFilters {
  userId: string;
  rating: Rating;
  fellBack: Flag;
  handoff: Flag;
  q: string;
  sort: Sort;
  order: 'asc' | 'desc';
  page: number;
}

const oneOf = <T extends string>(v: string | undefined, allowed: readonly T[], dflt: T): T =>
  (allowed as readonly string[]).includes(v ?? '') ? (v as T) : dflt;

export function parseConversationFilters(q: Query): ConversationFilters {
  return {
    ...parseDateFilters(q, 'all'),
    userId: q.userId ?? '',
    rating: oneOf(q.rating, ['', 'up', 'down'], ''),
    fellBack: oneOf(q.fellBack, ['', 'true', 'false'], ''),
    handoff: oneOf(q.handoff, ['', 'true', 'false'], ''),
    q: q.q ?? '',
    sort: oneOf(q.sort, ['startedAt', 'lastMessageAt', 'messageCount'], 'startedAt'),
    order: oneOf(q.order, ['asc', 'desc'], 'desc'),
    page: Math.max(1, Number.parseInt(q.page ?? '1', 10) || 1),
  };
}

export function conversationFiltersToQuery(f: ConversationFilters): Query {
  return {
    ...dateFiltersToQuery(f, 'all'),
    userId: f.userId || undefined,
    rating: f.rating || undefined,
    fellBack: f.fellBack || undefined,
    handoff: f.handoff || undefined,
    q: f.q || undefined,
    sort: f.sort === 'startedAt' ? undefined : f.sort,
    order: f.order === 'desc' ? undefined : f.order,
    page: f.page > 1 ? String(f.page) : undefined,
  };
}

/** The list's (and the export's) API query: the same filters, so the export is exactly the list. */
export function conversationApiQuery(f: ConversationFilters, nowMs: number): Record<string, string | undefined> {
  return {
    ...apiFilters(f, nowMs),
    userId: f.userId.trim() || undefined,
    rating: f.rating || undefined,
    fellBack: f.fellBack || undefined,
    handoff: f.handoff || undefined,
    q: f.q.trim() || undefined,
    sort: f.sort,
    order: f.order,
  };
}
