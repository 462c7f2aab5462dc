import type { Queryable, SqlValue } from '../storage/port.js';
import { conversationWhere, inList, type ConversationFilter } from './filters.js';
import { addToHistogram, bucketValue, HISTOGRAM_BUCKETS, percentileOf } from './timeseries.js';

export interface ConversationSummary {
  sessionId: string;
  assistantId: string;
  userId: string | null;
  source: string | null;
  startedAt: string;
  lastMessageAt: string;
  messageCount: number;
  avgResponseMs: number | null;
  rating: 'up' | 'down' | null;
  channel: string;
  fellBack: boolean;
  handoffRequested: boolean;
  status: 'active' | 'ended';
  /** The visitor's first message, cut at FIRST_QUESTION_CHARS: what the list shows of what was asked (issue 26). */
  firstQuestion: string | null;
}

/** Enough of the first question to scan a list by; the conversation page shows it whole. */
export const FIRST_QUESTION_CHARS = 160;

/** The list's columns for the conversations that match `where` (conversationWhere). */
export const summarySelect = (
  where: string,
) => `SELECT c.session_id AS "sessionId", c.assistant_id AS "assistantId", c.user_id AS "userId", c.source,
    c.started_at AS "startedAt", c.last_message_at AS "lastMessageAt",
    (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id) AS "messageCount",
    (SELECT avg(m.response_ms) FROM messages m WHERE m.conversation_id = c.id AND m.response_ms IS NOT NULL) AS "avgResponseMs",
    (SELECT m.rating FROM messages m WHERE m.conversation_id = c.id AND m.rating IS NOT NULL ORDER BY m.seq DESC LIMIT 1) AS rating,
    c.channel_group AS channel, CASE WHEN EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.answered = 0) THEN 1 ELSE 0 END AS "fellBack",
    CASE WHEN c.handoff_requested_at IS NOT NULL THEN 1 ELSE 0 END AS "handoffRequested", c.status,
    (SELECT substr(m.content, 1, ${FIRST_QUESTION_CHARS}) FROM messages m WHERE m.conversation_id = c.id AND m.role = 'user' ORDER BY m.seq LIMIT 1) AS "firstQuestion"
  FROM conversations c WHERE ${where}`;

const SORT_SQL: Record<ConversationFilter['sort'], string> = {
  startedAt: 'c.started_at',
  lastMessageAt: 'c.last_message_at',
  messageCount: '(SELECT count(*) FROM messages m WHERE m.conversation_id = c.id)',
};
/** The list's order; the export writes conversations in the same order (its rows equal the list). Ties: the time-ordered id. */
export function orderBy(f: ConversationFilter): string {
  const dir = f.order === 'asc' ? 'ASC' : 'DESC';
  return `ORDER BY ${SORT_SQL[f.sort]} ${dir}, c.id ${dir}`;
}

export type SummaryRow = Omit<ConversationSummary, 'fellBack' | 'handoffRequested'> & { fellBack: number; handoffRequested: number };
const round1 = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);
export const toSummary = (r: SummaryRow): ConversationSummary => ({
  ...r,
  avgResponseMs: round1(r.avgResponseMs),
  fellBack: r.fellBack === 1,
  handoffRequested: r.handoffRequested === 1,
});

export async function listConversations(q: Queryable, f: ConversationFilter, page: { limit: number; offset: number }) {
  const w = conversationWhere(f);
  const total = (await q.get<{ n: number }>(`SELECT count(*) AS n FROM conversations c WHERE ${w.sql}`, w.params))?.n ?? 0;
  const items = (
    await q.all<SummaryRow>(`${summarySelect(w.sql)} ${orderBy(f)} LIMIT @limit OFFSET @offset`, {
      ...w.params,
      limit: page.limit,
      offset: page.offset,
    })
  ).map(toSummary);
  return { items, total };
}

export interface ExportRow {
  sessionId: string;
  assistantId: string;
  userId: string | null;
  source: string | null;
  messageId: string;
  role: string;
  content: string;
  timestamp: string;
  confidence: number | null;
  rating: string | null;
  channel: string;
}

const EXPORT_BATCH = 200;

/**
 * Every message of the filtered conversations, in the list's order, fetched a batch of
 * conversations at a time (a response that drains slowly never holds a cursor open).
 */
export async function* exportRows(q: Queryable, f: ConversationFilter): AsyncGenerator<ExportRow> {
  const w = conversationWhere(f);
  const messages = `SELECT c.session_id AS "sessionId", c.assistant_id AS "assistantId", c.user_id AS "userId", c.source, m.id AS "messageId", m.role,
      m.content, m.created_at AS timestamp, m.confidence, m.rating, c.channel_group AS channel
    FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE c.id = ? ORDER BY m.seq`;
  for (let offset = 0; ; offset += EXPORT_BATCH) {
    const ids = (
      await q.all<{ id: string }>(`SELECT c.id FROM conversations c WHERE ${w.sql} ${orderBy(f)} LIMIT @limit OFFSET @offset`, {
        ...w.params,
        limit: EXPORT_BATCH,
        offset,
      })
    ).map((r) => r.id);
    for (const id of ids) yield* await q.all<ExportRow>(messages, [id]);
    if (ids.length < EXPORT_BATCH) return;
  }
}

type Totals = {
  conversations: number;
  messages: number;
  up: number | null;
  down: number | null;
  answered: number | null;
  unanswered: number | null;
  avgMs: number | null;
  p95: number | null;
  handoffs: number;
};

/** Filters the hourly rollups can answer: the analytics page's (dates, assistant, channel). */
const onlyRollupFilters = (f: ConversationFilter): boolean =>
  f.userId === null && f.source === null && f.q === null && f.rating === null && f.fellBack === null && f.handoff === null;

/** Rows of one (assistant, channel) cell of the organization, as every rollup table keys them. */
function rollupCell(f: ConversationFilter): { sql: string; params: Record<string, SqlValue> } {
  const channels = inList('ch', JSON.parse(f.channels) as string[]);
  const assistant = f.assistantId === null ? '' : ' AND assistant_id = @assistantId';
  return {
    sql: `organization_id = @org${assistant} AND channel IN ${channels.sql}`,
    params: { org: f.org, ...(f.assistantId !== null && { assistantId: f.assistantId }), ...channels.params },
  };
}

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
async function mergeHistograms(q: Queryable, f: ConversationFilter, metric: 'response' | 'provider'): Promise<Float64Array> {
  const hist = new Float64Array(HISTOGRAM_BUCKETS);
  const cell = rollupCell(f);
  const sql = `SELECT bucket, sum(count) AS n FROM (
      SELECT bucket, count FROM analytics_latency_daily WHERE metric = @metric AND ${cell.sql} AND ${DAYS}
      UNION ALL SELECT bucket, count FROM analytics_latency_hourly WHERE metric = @metric AND ${cell.sql} AND ${LOW_HOURS}
      UNION ALL SELECT bucket, count FROM analytics_latency_hourly WHERE metric = @metric AND ${cell.sql} AND ${HIGH_HOURS}) AS rows GROUP BY bucket`;
  for (const r of await q.all<{ bucket: number; n: number }>(sql, { ...cell.params, ...rollupSpan(f), metric }))
    addToHistogram(hist, r.bucket, r.n);
  return hist;
}

/**
 * Totals from the rollups of migrations 018/024 (tens of ms at a million messages, where the
 * exact scan below takes seconds). Messages, ratings and coverage count in the hour the message
 * was written (the hours touching from..to); response times come from the histograms (±5 %).
 */
async function rollupTotals(q: Queryable, f: ConversationFilter): Promise<Totals> {
  const cell = rollupCell(f);
  const range = [...(f.from ? ['hour >= @fromHour'] : []), ...(f.to ? ['hour <= @toHour'] : [])].map((c) => ` AND ${c}`).join('');
  const t = (await q.get<Omit<Totals, 'avgMs' | 'p95'>>(
    `SELECT COALESCE(sum(conversations), 0) AS conversations, COALESCE(sum(messages), 0) AS messages, sum(up) AS up, sum(down) AS down,
      sum(answered) AS answered, sum(unanswered) AS unanswered, COALESCE(sum(handoffs), 0) AS handoffs FROM analytics_hourly WHERE ${cell.sql}${range}`,
    { ...cell.params, ...(f.from && { fromHour: f.from.slice(0, 13) }), ...(f.to && { toHour: f.to.slice(0, 13) }) },
  )) as Omit<Totals, 'avgMs' | 'p95'>;
  const hist = await mergeHistograms(q, f, 'response');
  let n = 0;
  let sum = 0;
  hist.forEach((count, b) => {
    n += count;
    sum += count * bucketValue(b);
  });
  return { ...t, avgMs: n ? sum / n : null, p95: percentileOf(hist, 0.95) };
}

/** Totals over the stored messages: exact, for every filter (user, source, content, rating…). */
async function exactTotals(q: Queryable, f: ConversationFilter): Promise<Totals> {
  const w = conversationWhere(f);
  const base = `FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE ${w.sql}`;
  const totals = (await q.get<Omit<Totals, 'p95' | 'handoffs'>>(
    `SELECT
      (SELECT count(*) FROM conversations c WHERE ${w.sql}) AS conversations,
      count(*) AS messages,
      sum(CASE WHEN m.rating = 'up' THEN 1 ELSE 0 END) AS up, sum(CASE WHEN m.rating = 'down' THEN 1 ELSE 0 END) AS down,
      sum(CASE WHEN m.answered = 1 THEN 1 ELSE 0 END) AS answered, sum(CASE WHEN m.answered = 0 THEN 1 ELSE 0 END) AS unanswered,
      avg(m.response_ms) AS "avgMs"
    ${base}`,
    w.params,
  )) as Omit<Totals, 'p95' | 'handoffs'>;
  const responseCount = (await q.get<{ n: number }>(`SELECT count(*) AS n ${base} AND m.response_ms IS NOT NULL`, w.params))?.n ?? 0;
  const p95Index = Math.max(0, Math.ceil(responseCount * 0.95) - 1);
  const p95 = responseCount
    ? ((
        await q.get<{ ms: number }>(
          `SELECT m.response_ms AS ms ${base} AND m.response_ms IS NOT NULL ORDER BY m.response_ms LIMIT 1 OFFSET @offset`,
          { ...w.params, offset: p95Index },
        )
      )?.ms ?? null)
    : null;
  const handoffs =
    (
      await q.get<{ n: number }>(
        `SELECT count(*) AS n FROM conversations c WHERE ${w.sql} AND c.handoff_requested_at IS NOT NULL`,
        w.params,
      )
    )?.n ?? 0;
  return { ...totals, p95, handoffs };
}

export async function computeMetrics(q: Queryable, f: ConversationFilter) {
  const rolled = onlyRollupFilters(f);
  const totals = rolled ? await rollupTotals(q, f) : await exactTotals(q, f);
  const p95 = totals.p95;
  const usage = rolled ? await rollupUsage(q, f) : await usageTotals(q, f);
  // Fallbacks whose gap was resolved or dismissed no longer count as unanswered (the gap loop).
  const w = conversationWhere(f);
  const closed =
    (
      await q.get<{ n: number }>(
        `SELECT count(*) AS n FROM knowledge_gap_questions q JOIN knowledge_gaps g ON g.id = q.gap_id
      JOIN messages m ON m.id = q.message_id JOIN conversations c ON c.id = m.conversation_id
    WHERE g.organization_id = @org AND g.status != 'open' AND q.cause != 'rated_down' AND m.answered = 0 AND ${w.sql}`,
        w.params,
      )
    )?.n ?? 0;
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
export async function computeMetricsWithPrevious(q: Queryable, f: ConversationFilter, nowMs: number) {
  const current = await computeMetrics(q, f);
  if (!f.from) return { ...current, previous: null };
  const from = Date.parse(f.from);
  const to = f.to ? Date.parse(f.to) : nowMs;
  const length = to - from + 1;
  const previous = await computeMetrics(q, { ...f, from: new Date(from - length).toISOString(), to: new Date(from - 1).toISOString() });
  return { ...current, previous: { ...previous, from: new Date(from - length).toISOString(), to: new Date(from - 1).toISOString() } };
}

type UsageByModel = {
  provider: string;
  model: string | null;
  answers: number;
  promptTokens: number;
  completionTokens: number;
  avgProviderMs: number | null;
};

/**
 * Model usage from the usage rollups of migrations 022/024 (whole days per day, the ends per hour):
 * answers count in the hour they were written (the hours touching from..to, like the other
 * rollup totals). Tokens, answer counts and average provider times are exact sums; the p95
 * provider time comes from the histogram (±5 %).
 */
async function rollupUsage(q: Queryable, f: ConversationFilter) {
  const cell = rollupCell(f);
  const cols = 'provider, model, answers, prompt_tokens, completion_tokens, provider_ms_sum, provider_ms_count';
  const rows = await q.all<{
    provider: string;
    model: string;
    answers: number;
    promptTokens: number;
    completionTokens: number;
    msSum: number;
    msCount: number;
  }>(
    `SELECT provider, model, sum(answers) AS answers, sum(prompt_tokens) AS "promptTokens", sum(completion_tokens) AS "completionTokens",
      sum(provider_ms_sum) AS "msSum", sum(provider_ms_count) AS "msCount"
    FROM (SELECT ${cols} FROM analytics_daily_usage WHERE ${cell.sql} AND ${DAYS}
      UNION ALL SELECT ${cols} FROM analytics_hourly_usage WHERE ${cell.sql} AND ${LOW_HOURS}
      UNION ALL SELECT ${cols} FROM analytics_hourly_usage WHERE ${cell.sql} AND ${HIGH_HOURS}) AS rows
    GROUP BY provider, model HAVING sum(answers) > 0 ORDER BY answers DESC, provider, model`,
    { ...cell.params, ...rollupSpan(f) },
  );
  const hist = await mergeHistograms(q, f, 'provider');
  const round1 = (n: number) => Math.round(n * 10) / 10;
  const byModel: UsageByModel[] = rows.map((r) => ({
    provider: r.provider,
    model: r.model === '' ? null : r.model,
    answers: r.answers,
    promptTokens: r.promptTokens,
    completionTokens: r.completionTokens,
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
async function usageTotals(q: Queryable, f: ConversationFilter) {
  const w = conversationWhere(f);
  const modelRows = `FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE ${w.sql} AND m.provider IS NOT NULL AND m.provider != 'extractive'`;
  // A model-less answer sorts first on both dialects (PostgreSQL puts NULLs last), as the rollup's '' does.
  const rows = await q.all<Omit<UsageByModel, 'avgProviderMs'> & { avgProviderMs: number | null }>(
    `SELECT m.provider, m.model, count(*) AS answers,
      COALESCE(sum(m.prompt_tokens), 0) AS "promptTokens", COALESCE(sum(m.completion_tokens), 0) AS "completionTokens",
      avg(m.provider_ms) AS "avgProviderMs"
    ${modelRows} GROUP BY m.provider, m.model ORDER BY answers DESC, m.provider, COALESCE(m.model, '')`,
    w.params,
  );
  const byModel: UsageByModel[] = rows.map((r) => ({
    ...r,
    avgProviderMs: r.avgProviderMs === null ? null : Math.round(r.avgProviderMs * 10) / 10,
  }));
  const providerMs = (
    await q.all<{ ms: number }>(`SELECT m.provider_ms AS ms ${modelRows} AND m.provider_ms IS NOT NULL ORDER BY m.provider_ms`, w.params)
  ).map((r) => r.ms);
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
