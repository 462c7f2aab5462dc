import type { Queryable, SqlValue } from '../storage/port.js';
import { inList } from './filters.js';

/**
 * Time series from the per-hour rollups of migration 018 (analytics_hourly) and the response-time
 * histograms of migration 024 (analytics_latency_hourly/daily), which analytics/rollup-writes.ts
 * keeps in the transaction of every chat turn, rating and handoff. Reading rollups instead of
 * messages keeps a 90-day series over a million messages at a few thousand rows.
 *
 * Buckets are whole UTC hours or days: `from` is rounded down to its bucket's start. Messages,
 * ratings, coverage and response times count in the hour the message was written; conversations
 * in the hour they started; handoffs in the hour they were requested.
 */
export const METRICS = [
  'conversations',
  'messages',
  'satisfaction',
  'coverage',
  'response_ms_p50',
  'response_ms_p95',
  'handoffs',
  'unanswered',
] as const;
export type Metric = (typeof METRICS)[number];
export type Interval = 'hour' | 'day';

/** 91 days of hours, a little over 6 years of days: beyond that a chart is unreadable anyway. */
export const MAX_BUCKETS = 2200;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Response-time histogram buckets: 0 is [0, 1) ms, k ≥ 1 is [1.1^(k-1), 1.1^k) ms (rollup-writes.ts latencyBucket). */
export const LATENCY_RATIO = 1.1;
/** A bucket's value: its geometric middle, so the reported figure is within ±5 % of the true one. */
export function bucketValue(bucket: number): number {
  return bucket === 0 ? 0.5 : LATENCY_RATIO ** (bucket - 0.5);
}

export interface TimeseriesQuery {
  org: string;
  assistantId: string | null;
  channels: string;
  from: number;
  to: number;
  interval: Interval;
  metric: Metric;
}

export interface Point {
  t: string;
  value: number | null;
}

const RATIOS = new Set<Metric>(['satisfaction', 'coverage', 'response_ms_p50', 'response_ms_p95']);

export function bucketStart(ms: number, interval: Interval): number {
  return interval === 'hour' ? Math.floor(ms / HOUR_MS) * HOUR_MS : Math.floor(ms / DAY_MS) * DAY_MS;
}

export function bucketCount(from: number, to: number, interval: Interval): number {
  const step = interval === 'hour' ? HOUR_MS : DAY_MS;
  return Math.floor((bucketStart(to, interval) - bucketStart(from, interval)) / step) + 1;
}

/** 'YYYY-MM-DDTHH' (hour) or 'YYYY-MM-DD' (day): the rollup's hour column cut to the bucket. */
const keyOf = (ms: number, interval: Interval): string => new Date(ms).toISOString().slice(0, interval === 'hour' ? 13 : 10);

export async function computeTimeseries(db: Queryable, q: TimeseriesQuery): Promise<Point[]> {
  const step = q.interval === 'hour' ? HOUR_MS : DAY_MS;
  const first = bucketStart(q.from, q.interval);
  const last = bucketStart(q.to, q.interval);
  const channels = inList('c', JSON.parse(q.channels) as string[]);
  const params: Record<string, SqlValue> = {
    org: q.org,
    fromHour: keyOf(first, 'hour'),
    toHour: keyOf(q.to, 'hour'),
    fromDay: keyOf(first, 'day'),
    toDay: keyOf(q.to, 'day'),
    ...(q.assistantId !== null && { assistantId: q.assistantId }),
    ...channels.params,
  };
  const cellFilter = `${q.assistantId === null ? '' : 'assistant_id = @assistantId AND '}channel IN ${channels.sql}`;
  const cell = `organization_id = @org AND ${cellFilter}`;
  const values = new Map<string, number | null>();
  if (q.metric === 'response_ms_p50' || q.metric === 'response_ms_p95') {
    // Histogram rows (one per cell, time bucket and histogram bucket) summed per time bucket and
    // histogram bucket, in key order (migration 031: no sort), then one row per time bucket with
    // its histogram as 'bucket:count,…' text. By day: the daily rows (migration 024), 24 times
    // fewer than the hourly ones. Measured on 90 days of a million messages by hour (~280k rows,
    // ~66k sums): the sort and the 66k result rows made up about half the time, see
    // bench/README.md.
    const [table, key, from, to] =
      q.interval === 'day'
        ? ['analytics_latency_daily', 'day', '@fromDay', '@toDay']
        : ['analytics_latency_hourly', 'hour', '@fromHour', '@toHour'];
    const sql = `SELECT k, string_agg(CAST(bucket AS TEXT) || ':' || CAST(n AS TEXT), ',') AS h FROM (
        SELECT ${key} AS k, bucket, sum(count) AS n FROM ${table}
        WHERE organization_id = @org AND metric = 'response' AND ${key} >= ${from} AND ${key} <= ${to} AND ${cellFilter}
        GROUP BY ${key}, bucket) AS sums
      GROUP BY k`;
    const p = q.metric === 'response_ms_p50' ? 0.5 : 0.95;
    for (const r of await db.all<{ k: string; h: string }>(sql, params)) {
      values.set(r.k, percentileOf(parseHistogram(r.h), p));
    }
  } else {
    // Sums per time bucket; the ratios are computed here (the same numbers on both dialects).
    const key = q.interval === 'hour' ? 'hour' : 'substr(hour, 1, 10)';
    const rows = await db.all<{ k: string } & Record<(typeof COUNTERS)[number], number>>(
      `SELECT ${key} AS k, ${COUNTERS.map((c) => `sum(${c}) AS ${c}`).join(', ')}
      FROM analytics_hourly WHERE ${cell} AND hour >= @fromHour AND hour <= @toHour GROUP BY ${key}`,
      params,
    );
    for (const r of rows) values.set(r.k, valueOf(q.metric, r));
  }
  const empty = RATIOS.has(q.metric) ? null : 0;
  const out: Point[] = [];
  for (let t = first; t <= last; t += step) out.push({ t: new Date(t).toISOString(), value: values.get(keyOf(t, q.interval)) ?? empty });
  return out;
}

const COUNTERS = ['conversations', 'messages', 'handoffs', 'unanswered', 'answered', 'up', 'down'] as const;
const ratio = (a: number, b: number): number | null => (a + b ? Math.round((a / (a + b)) * 1000) / 1000 : null);
function valueOf(metric: Metric, r: Record<(typeof COUNTERS)[number], number>): number | null {
  switch (metric) {
    case 'satisfaction':
      return ratio(r.up, r.down);
    case 'coverage':
      return ratio(r.answered, r.unanswered);
    case 'conversations':
    case 'messages':
    case 'handoffs':
    case 'unanswered':
      return r[metric];
    default:
      return null;
  }
}

/** Buckets up to 1.1^255 ms: far beyond any response (the last bucket takes anything longer). */
export const HISTOGRAM_BUCKETS = 256;

/** Adds `count` to a bucket of dense counts; anything beyond the last bucket counts in it. */
export function addToHistogram(counts: Float64Array, bucket: number, count: number): void {
  const b = Math.min(counts.length - 1, bucket);
  counts[b] = (counts[b] as number) + count;
}

/** Dense counts from 'bucket:count,…' (the time series query's text: one row per time bucket). */
export function parseHistogram(text: string): Float64Array {
  const counts = new Float64Array(HISTOGRAM_BUCKETS);
  for (const pair of text.split(',')) {
    const colon = pair.indexOf(':');
    addToHistogram(counts, Number(pair.slice(0, colon)), Number(pair.slice(colon + 1)));
  }
  return counts;
}

/** Nearest rank over dense histogram counts (index = bucket). */
export function percentileOf(counts: Float64Array, p: number): number | null {
  let total = 0;
  for (const n of counts) total += n;
  if (!total) return null;
  const rank = Math.max(1, Math.ceil(total * p));
  let seen = 0;
  for (let b = 0; b < counts.length; b++) {
    seen += counts[b] as number;
    if (seen >= rank) return Math.round(bucketValue(b) * 10) / 10;
  }
  return null;
}
