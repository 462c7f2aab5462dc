import type { Db } from '../db/open.js';
import { CONVERSATION_WHERE, type ConversationFilter } from './filters.js';
import { addToHistogram, bucketValue, HISTOGRAM_BUCKETS, percentileOf } from './timeseries.js';

export interface ConversationSummary {
  sessionId: string; assistantId: string; userId: string | null; source: string | null; startedAt: string; lastMessageAt: string;
  messageCount: number; avgResponseMs: number | null; rating: 'up' | 'down' | null;
  channel: string; fellBack: boolean; handoffRequested: boolean; status: 'active' | 'ended';
}

export const SUMMARY_SELECT = `SELECT c.session_id AS sessionId, c.assistant_id AS assistantId, c.user_id AS userId, c.source, c.started_at AS startedAt,
    c.last_message_at AS lastMessageAt,
    (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id) AS messageCount,
    (SELECT round(avg(m.response_ms), 1) FROM messages m WHERE m.conversation_id = c.id AND m.response_ms IS NOT NULL) AS avgResponseMs,
    (SELECT m.rating FROM messages m WHERE m.conversation_id = c.id AND m.rating IS NOT NULL ORDER BY m.seq DESC LIMIT 1) AS rating,
    c.channel_group AS channel, EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.answered = 0) AS fellBack,
    c.handoff_requested_at IS NOT NULL AS handoffRequested, c.status
  FROM conversations c WHERE ${CONVERSATION_WHERE}`;

const SORT_SQL: Record<ConversationFilter['sort'], string> = {
  startedAt: 'c.started_at',
  lastMessageAt: 'c.last_message_at',
  messageCount: '(SELECT count(*) FROM messages m WHERE m.conversation_id = c.id)',
};
/** The list's order; the export writes conversations in the same order (its rows equal the list). */
export function orderBy(f: ConversationFilter): string {
  const dir = f.order === 'asc' ? 'ASC' : 'DESC';
  return `ORDER BY ${SORT_SQL[f.sort]} ${dir}, c.rowid ${dir}`;
}

export type SummaryRow = Omit<ConversationSummary, 'fellBack' | 'handoffRequested'> & { fellBack: number; handoffRequested: number };
export const toSummary = (r: SummaryRow): ConversationSummary => ({ ...r, fellBack: r.fellBack === 1, handoffRequested: r.handoffRequested === 1 });

export function listConversations(db: Db, f: ConversationFilter, page: { limit: number; offset: number }) {
  const total = (db.prepare(`SELECT count(*) AS n FROM conversations c WHERE ${CONVERSATION_WHERE}`).get(f) as { n: number }).n;
  const items = (db.prepare(`${SUMMARY_SELECT} ${orderBy(f)} LIMIT @limit OFFSET @offset`)
    .all({ ...f, limit: page.limit, offset: page.offset }) as SummaryRow[]).map(toSummary);
  return { items, total };
}

export interface ExportRow {
  sessionId: string; assistantId: string; userId: string | null; source: string | null; messageId: string; role: string;
  content: string; timestamp: string; confidence: number | null; rating: string | null; channel: string;
}

const EXPORT_BATCH = 200;

/**
 * Every message of the filtered conversations, in the list's order, fetched a batch of
 * conversations at a time: a live better-sqlite3 iterator would hold the connection while the
 * response drains and make every other request fail with "connection is busy".
 */
export function* exportRows(db: Db, f: ConversationFilter): Generator<ExportRow> {
  const conversations = db.prepare(`SELECT c.id FROM conversations c WHERE ${CONVERSATION_WHERE} ${orderBy(f)} LIMIT @limit OFFSET @offset`).pluck();
  const messages = db.prepare(`SELECT c.session_id AS sessionId, c.assistant_id AS assistantId, c.user_id AS userId, c.source, m.id AS messageId, m.role,
      m.content, m.created_at AS timestamp, m.confidence, m.rating, c.channel_group AS channel
    FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE c.id = ? ORDER BY m.seq`);
  for (let offset = 0; ; offset += EXPORT_BATCH) {
    const ids = conversations.all({ ...f, limit: EXPORT_BATCH, offset }) as string[];
    for (const id of ids) yield* messages.all(id) as ExportRow[];
    if (ids.length < EXPORT_BATCH) return;
  }
}

type Totals = {
  conversations: number; messages: number; up: number | null; down: number | null; answered: number | null; unanswered: number | null;
  avgMs: number | null; p95: number | null; handoffs: number;
};

/** Filters the hourly rollups can answer: the analytics page's (dates, assistant, channel). */
const onlyRollupFilters = (f: ConversationFilter): boolean =>
  f.userId === null && f.source === null && f.q === null && f.rating === null && f.fellBack === null && f.handoff === null;

/** Rows of one (assistant, channel) cell of the organization, as every rollup table keys them. */
const ROLLUP_CELL = 'organization_id = @org AND (@assistantId IS NULL OR assistant_id = @assistantId) AND channel IN (SELECT value FROM json_each(@channels))';

const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * The hours touching from..to split for the rollups: whole UTC days (read from the per-day
 * tables) and the partial days at either end (from the per-hour ones, `hour >= @fromHour AND
 * hour < @lowBefore` and `hour > @highAfter AND hour <= @toHour`). A 30-day range reads ~30 rows
 * per cell instead of 720. Without a whole day inside, every hour comes from the hourly table.
 */
export function rollupSpan(f: Pick<ConversationFilter, 'from' | 'to'>) {
  const fromHour = f.from ? f.from.slice(0, 13) : '';
  const toHour = f.to ? f.to.slice(0, 13) : '9999-12-31T23';
  const firstDay = !f.from ? '' : fromHour.endsWith('T00') ? fromHour.slice(0, 10) : addDays(fromHour.slice(0, 10), 1);
  const lastDay = !f.to ? '9999-12-31' : toHour.endsWith('T23') ? toHour.slice(0, 10) : addDays(toHour.slice(0, 10), -1);
  if (firstDay > lastDay) return { fromHour, toHour, lowBefore: `${toHour}~`, highAfter: '~', firstDay: '~', lastDay: '' };
  return { fromHour, toHour, lowBefore: firstDay === '' ? '' : `${firstDay}T00`, highAfter: `${lastDay}T23`, firstDay, lastDay };
}
const DAYS = 'day >= @firstDay AND day <= @lastDay';
const LOW_HOURS = 'hour >= @fromHour AND hour < @lowBefore';
const HIGH_HOURS = 'hour > @highAfter AND hour <= @toHour';

/** One histogram (metric 'response' or 'provider') of whole days (daily rows) and edge hours (hourly rows). */
function mergeHistograms(db: Db, params: Record<string, unknown>, metric: 'response' | 'provider'): Float64Array {
  const hist = new Float64Array(HISTOGRAM_BUCKETS);
  const sql = `SELECT bucket, sum(count) FROM (
      SELECT bucket, count FROM analytics_latency_daily WHERE metric = @metric AND ${ROLLUP_CELL} AND ${DAYS}
      UNION ALL SELECT bucket, count FROM analytics_latency_hourly WHERE metric = @metric AND ${ROLLUP_CELL} AND ${LOW_HOURS}
      UNION ALL SELECT bucket, count FROM analytics_latency_hourly WHERE metric = @metric AND ${ROLLUP_CELL} AND ${HIGH_HOURS}) GROUP BY bucket`;
  for (const [bucket, n] of db.prepare(sql).raw().all({ ...params, metric }) as [number, number][]) addToHistogram(hist, bucket, n);
  return hist;
}

/**
 * Totals from the rollups of migrations 018/024 (tens of ms at a million messages, where the
 * exact scan below takes seconds). Messages, ratings and coverage count in the hour the message
 * was written (the hours touching from..to); response times come from the histograms (±5 %).
 */
function rollupTotals(db: Db, f: ConversationFilter): Totals {
  const where = `organization_id = @org AND (@from IS NULL OR hour >= substr(@from, 1, 13)) AND (@to IS NULL OR hour <= substr(@to, 1, 13))
    AND (@assistantId IS NULL OR assistant_id = @assistantId) AND channel IN (SELECT value FROM json_each(@channels))`;
  const t = db.prepare(`SELECT coalesce(sum(conversations), 0) AS conversations, coalesce(sum(messages), 0) AS messages, sum(up) AS up, sum(down) AS down,
      sum(answered) AS answered, sum(unanswered) AS unanswered, coalesce(sum(handoffs), 0) AS handoffs FROM analytics_hourly WHERE ${where}`).get(f) as Omit<Totals, 'avgMs' | 'p95'>;
  const hist = mergeHistograms(db, { ...f, ...rollupSpan(f) }, 'response');
  let n = 0;
  let sum = 0;
  hist.forEach((count, b) => { n += count; sum += count * bucketValue(b); });
  return { ...t, avgMs: n ? sum / n : null, p95: percentileOf(hist, 0.95) };
}

/** Totals over the stored messages: exact, for every filter (user, source, content, rating…). */
function exactTotals(db: Db, f: ConversationFilter, base: string): Totals {
  const totals = db.prepare(`SELECT
      (SELECT count(*) FROM conversations c WHERE ${CONVERSATION_WHERE}) AS conversations,
      count(*) AS messages,
      sum(m.rating = 'up') AS up, sum(m.rating = 'down') AS down,
      sum(m.answered = 1) AS answered, sum(m.answered = 0) AS unanswered,
      avg(m.response_ms) AS avgMs
    ${base}`).get(f) as Omit<Totals, 'p95' | 'handoffs'>;
  const responseCount = (db.prepare(`SELECT count(*) AS n ${base} AND m.response_ms IS NOT NULL`).get(f) as { n: number }).n;
  const p95Index = Math.max(0, Math.ceil(responseCount * 0.95) - 1);
  const p95 = responseCount
    ? (db.prepare(`SELECT m.response_ms AS ms ${base} AND m.response_ms IS NOT NULL ORDER BY m.response_ms LIMIT 1 OFFSET @offset`).get({ ...f, offset: p95Index }) as { ms: number }).ms
    : null;
  const handoffs = (db.prepare(`SELECT count(*) AS n FROM conversations c WHERE ${CONVERSATION_WHERE} AND c.handoff_requested_at IS NOT NULL`).get(f) as { n: number }).n;
  return { ...totals, p95, handoffs };
}

export function computeMetrics(db: Db, f: ConversationFilter) {
  const base = `FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE ${CONVERSATION_WHERE}`;
  const totals = onlyRollupFilters(f) ? rollupTotals(db, f) : exactTotals(db, f, base);
  const p95 = totals.p95;
  const usage = onlyRollupFilters(f) ? rollupUsage(db, f) : usageTotals(db, base, f);
  // Fallbacks whose gap was resolved or dismissed no longer count as unanswered (the gap loop).
  const closed = (db.prepare(`SELECT count(*) AS n FROM knowledge_gap_questions q JOIN knowledge_gaps g ON g.id = q.gap_id
      JOIN messages m ON m.id = q.message_id JOIN conversations c ON c.id = m.conversation_id
    WHERE g.organization_id = @org AND g.status != 'open' AND q.cause != 'rated_down' AND m.answered = 0 AND ${CONVERSATION_WHERE}`).get(f) as { n: number }).n;
  const up = totals.up ?? 0;
  const down = totals.down ?? 0;
  const answered = totals.answered ?? 0;
  const unanswered = totals.unanswered ?? 0;
  const round = (n: number | null, digits = 1) => (n === null ? null : Math.round(n * 10 ** digits) / 10 ** digits);
  return {
    totalConversations: totals.conversations,
    totalMessages: totals.messages,
    avgConversationLength: totals.conversations ? round(totals.messages / totals.conversations, 2) : 0,
    avgResponseMs: round(totals.avgMs),
    p95ResponseMs: round(p95),
    satisfaction: { up, down, rate: up + down ? round(up / (up + down), 3) : null },
    knowledgeBaseCoverage: answered + unanswered ? round(answered / (answered + unanswered), 3) : null,
    unansweredCount: Math.max(0, unanswered - closed),
    handoffs: totals.handoffs,
    usage,
  };
}

/**
 * The metrics, and the same metrics for the period of equal length just before (`previous`),
 * so each card can show its change. Without `from` there is no period to compare: null.
 */
export function computeMetricsWithPrevious(db: Db, f: ConversationFilter, nowMs: number) {
  const current = computeMetrics(db, f);
  if (!f.from) return { ...current, previous: null };
  const from = Date.parse(f.from);
  const to = f.to ? Date.parse(f.to) : nowMs;
  const length = to - from + 1;
  const previous = computeMetrics(db, { ...f, from: new Date(from - length).toISOString(), to: new Date(from - 1).toISOString() });
  return { ...current, previous: { ...previous, from: new Date(from - length).toISOString(), to: new Date(from - 1).toISOString() } };
}

type UsageByModel = { provider: string; model: string | null; answers: number; promptTokens: number; completionTokens: number; avgProviderMs: number | null };

/**
 * Model usage from the usage rollups of migrations 022/024 (whole days per day, the ends per hour):
 * answers count in the hour they were written (the hours touching from..to, like the other
 * rollup totals). Tokens, answer counts and
 * average provider times are exact sums; the p95 provider time comes from the histogram (±5 %).
 */
function rollupUsage(db: Db, f: ConversationFilter) {
  const params = { ...f, ...rollupSpan(f) };
  const cols = 'provider, model, answers, prompt_tokens, completion_tokens, provider_ms_sum, provider_ms_count';
  const rows = db.prepare(`SELECT provider, model, sum(answers) AS answers, sum(prompt_tokens) AS promptTokens, sum(completion_tokens) AS completionTokens,
      sum(provider_ms_sum) AS msSum, sum(provider_ms_count) AS msCount
    FROM (SELECT ${cols} FROM analytics_daily_usage WHERE ${ROLLUP_CELL} AND ${DAYS}
      UNION ALL SELECT ${cols} FROM analytics_hourly_usage WHERE ${ROLLUP_CELL} AND ${LOW_HOURS}
      UNION ALL SELECT ${cols} FROM analytics_hourly_usage WHERE ${ROLLUP_CELL} AND ${HIGH_HOURS})
    GROUP BY provider, model HAVING sum(answers) > 0 ORDER BY answers DESC, provider, model`).all(params) as {
    provider: string; model: string; answers: number; promptTokens: number; completionTokens: number; msSum: number; msCount: number;
  }[];
  const hist = mergeHistograms(db, params, 'provider');
  const round1 = (n: number) => Math.round(n * 10) / 10;
  const byModel: UsageByModel[] = rows.map((r) => ({
    provider: r.provider, model: r.model === '' ? null : r.model, answers: r.answers, promptTokens: r.promptTokens, completionTokens: r.completionTokens,
    avgProviderMs: r.msCount ? round1(r.msSum / r.msCount) : null,
  }));
  const msCount = rows.reduce((n, r) => n + r.msCount, 0);
  const sum = (k: 'answers' | 'promptTokens' | 'completionTokens') => byModel.reduce((n, r) => n + r[k], 0);
  return {
    modelAnswers: sum('answers'),
    promptTokens: sum('promptTokens'),
    completionTokens: sum('completionTokens'),
    avgProviderMs: msCount ? round1(rows.reduce((n, r) => n + r.msSum, 0) / msCount) : null,
    p95ProviderMs: percentileOf(hist, 0.95),
    byModel,
  };
}

/**
 * Model usage of the filtered conversations' answers: tokens and provider time, overall and per
 * provider/model. Only answers a model wrote count (not templates, not the extractive answerer).
 * Exact: for filters the rollups cannot answer (user, source, content, rating…).
 */
function usageTotals(db: Db, base: string, f: ConversationFilter) {
  const modelRows = `${base} AND m.provider IS NOT NULL AND m.provider != 'extractive'`;
  const byModel = db.prepare(`SELECT m.provider, m.model, count(*) AS answers,
      coalesce(sum(m.prompt_tokens), 0) AS promptTokens, coalesce(sum(m.completion_tokens), 0) AS completionTokens,
      round(avg(m.provider_ms), 1) AS avgProviderMs
    ${modelRows} GROUP BY m.provider, m.model ORDER BY answers DESC, m.provider, m.model`).all(f) as UsageByModel[];
  const providerMs = (db.prepare(`SELECT m.provider_ms AS ms ${modelRows} AND m.provider_ms IS NOT NULL ORDER BY m.provider_ms`).all(f) as { ms: number }[]).map((r) => r.ms);
  const sum = (k: 'answers' | 'promptTokens' | 'completionTokens') => byModel.reduce((n, r) => n + r[k], 0);
  const p95 = providerMs.length ? (providerMs[Math.max(0, Math.ceil(providerMs.length * 0.95) - 1)] as number) : null;
  return {
    modelAnswers: sum('answers'),
    promptTokens: sum('promptTokens'),
    completionTokens: sum('completionTokens'),
    avgProviderMs: providerMs.length ? Math.round((providerMs.reduce((a, b) => a + b, 0) / providerMs.length) * 10) / 10 : null,
    p95ProviderMs: p95 === null ? null : Math.round(p95 * 10) / 10,
    byModel,
  };
}
