import { computed, signal, type Signal, type ReadonlySignal } from '@preact/signals';
import type { ApiClient } from '../lib/api.js';
import { loadable, type Loadable } from '../lib/model.js';
import { to } from '../lib/paths.js';
import {
  apiFilters,
  bucketRange,
  conversationFiltersToQuery,
  defaultInterval,
  parseConversationFilters,
  queryString,
  type DateFilters,
  type Interval,
} from './analytics-query.js';
import type { ApiItem } from '../api/types.js';

// The analytics page: metric cards with the change against the previous period, time-series
// charts, and the assistant configuration changes shown as markers on the time axis.

export interface Metrics {
  totalConversations: number;
  totalMessages: number;
  avgConversationLength: number;
  avgResponseMs: number | null;
  p95ResponseMs: number | null;
  satisfaction: { up: number; down: number; rate: number | null };
  knowledgeBaseCoverage: number | null;
  unansweredCount: number;
  handoffs?: number;
}
export type MetricsWithPrevious = Metrics & { previous?: (Metrics & { from?: string; to?: string }) | null };

export interface Point {
  t: string;
  value: number | null;
}

export type AuditEntry = ApiItem<'getAudit'>;

export interface AssistantRef {
  id: string;
  name: string;
}

export type TimeMetric = 'conversations' | 'messages' | 'satisfaction' | 'coverage' | 'response_ms_p50' | 'response_ms_p95';

export interface ChartDef {
  id: string;
  title: string;
  series: ReadonlyArray<{ metric: TimeMetric; label: string; color: string }>;
  unit: 'count' | 'ratio' | 'ms';
}

/** The charts, each one or two series; colours are CSS variables so dark mode follows. */
export const CHARTS: readonly ChartDef[] = [
  {
    id: 'volume',
    title: 'Conversations and messages',
    unit: 'count',
    series: [
      { metric: 'conversations', label: 'Conversations', color: '--primary' },
      { metric: 'messages', label: 'Messages', color: '--ok' },
    ],
  },
  { id: 'satisfaction', title: 'Satisfaction', unit: 'ratio', series: [{ metric: 'satisfaction', label: 'Rated up', color: '--ok' }] },
  {
    id: 'coverage',
    title: 'Knowledge-base coverage',
    unit: 'ratio',
    series: [{ metric: 'coverage', label: 'Answered', color: '--primary' }],
  },
  {
    id: 'response',
    title: 'Response time',
    unit: 'ms',
    series: [
      { metric: 'response_ms_p50', label: 'p50', color: '--primary' },
      { metric: 'response_ms_p95', label: 'p95', color: '--warn' },
    ],
  },
];

export interface MetricCard {
  key: string;
  label: string;
  value: number | null;
  previous: number | null;
  format: 'count' | 'decimal' | 'ms' | 'ratio';
  /** Whether a rise is good news (response times, unanswered, handoffs: it is not). */
  higherIsBetter: boolean | null;
}

export function metricCards(m: MetricsWithPrevious): MetricCard[] {
  const p = m.previous ?? null;
  const card = (
    key: string,
    label: string,
    pick: (x: Metrics) => number | null | undefined,
    format: MetricCard['format'],
    higherIsBetter: boolean | null,
  ): MetricCard => ({ key, label, value: pick(m) ?? null, previous: p ? (pick(p) ?? null) : null, format, higherIsBetter });
  return [
    card('conversations', 'Conversations', (x) => x.totalConversations, 'count', null),
    card('messages', 'Messages', (x) => x.totalMessages, 'count', null),
    card('avgLength', 'Average conversation length', (x) => x.avgConversationLength, 'decimal', null),
    card('avgResponse', 'Average response time', (x) => x.avgResponseMs, 'ms', false),
    card('p95Response', 'p95 response time', (x) => x.p95ResponseMs, 'ms', false),
    card('up', 'Rated up', (x) => x.satisfaction.up, 'count', true),
    card('down', 'Rated down', (x) => x.satisfaction.down, 'count', false),
    card('satisfaction', 'Satisfaction rate', (x) => x.satisfaction.rate, 'ratio', true),
    card('coverage', 'Knowledge-base coverage', (x) => x.knowledgeBaseCoverage, 'ratio', true),
    card('unanswered', 'Unanswered questions', (x) => x.unansweredCount, 'count', false),
    card('handoffs', 'Human handoffs', (x) => x.handoffs, 'count', false),
  ];
}

export interface Change {
  text: string;
  tone: 'good' | 'bad' | 'neutral';
}

/** "+12 % vs previous period"; ratios change in percentage points. Null when there is nothing to compare. */
export function changeOf(c: MetricCard): Change | null {
  if (c.value === null || c.previous === null) return null;
  let delta: number;
  let text: string;
  if (c.format === 'ratio') {
    delta = Math.round((c.value - c.previous) * 1000) / 10;
    text = `${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${Math.abs(delta)} pts`;
  } else if (c.previous === 0) {
    delta = c.value;
    text = c.value === 0 ? '±0 %' : 'new';
  } else {
    delta = Math.round(((c.value - c.previous) / c.previous) * 1000) / 10;
    text = `${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${Math.abs(delta)} %`;
  }
  const tone = delta === 0 || c.higherIsBetter === null ? 'neutral' : delta > 0 === c.higherIsBetter ? 'good' : 'bad';
  return { text, tone };
}

export function formatMetric(value: number | null, format: MetricCard['format']): string {
  if (value === null || Number.isNaN(value)) return '—';
  switch (format) {
    case 'count':
      return value.toLocaleString('en');
    case 'decimal':
      return value.toLocaleString('en', { maximumFractionDigits: 2 });
    case 'ratio':
      return `${(value * 100).toLocaleString('en', { maximumFractionDigits: 1 })} %`;
    case 'ms':
      return value >= 1000
        ? `${(value / 1000).toLocaleString('en', { maximumFractionDigits: 2 })} s`
        : `${Math.round(value).toLocaleString('en')} ms`;
  }
}

/** The conversations list filtered to one chart bucket and the page's other filters. */
export function bucketLink(f: DateFilters, t: string, interval: Interval): string {
  const { from, to: until } = bucketRange(t, interval);
  const list = {
    ...parseConversationFilters({}),
    assistantId: f.assistantId,
    channels: f.channels,
    range: 'custom' as const,
    from,
    to: until,
  };
  return `${to('/conversations')}${queryString(conversationFiltersToQuery(list))}`;
}

export interface ChartData {
  def: ChartDef;
  points: Record<string, Point[]>;
}

/** The analytics page: metric cards, charts and configuration-change markers for the chosen filters. */
export interface AnalyticsModel {
  /** The filters from the URL; null until the first `apply`. */
  filters: Signal<DateFilters | null>;
  /** The charts' bucket size. */
  interval: Signal<Interval>;
  /** The organization's assistants (first 100), for the filter and the names. */
  assistants: Loadable<AssistantRef[]>;
  /** The metrics of the window and of the window before it. */
  metrics: Loadable<MetricsWithPrevious>;
  /** One series set per chart, in CHARTS order. */
  charts: Loadable<ChartData[]>;
  /** Configuration changes in the window (markers on the time axis); the first 100 are plenty for a chart. */
  audit: Loadable<AuditEntry[]>;
  /** An assistant's name by id (the id itself when unknown). */
  assistantName: ReadonlySignal<(id: string) => string>;
  /** The metric cards, each with its change against the previous window. */
  cards: ReadonlySignal<MetricCard[]>;
  /** Applies the URL's filters (and interval, or the default for the range) and loads everything. */
  apply(f: DateFilters, chosenInterval?: Interval): Promise<void>;
  /** The conversations list filtered to the chart bucket starting at `t`. */
  bucketLink(t: string): string;
}

export function createAnalyticsModel(api: ApiClient, now: () => number = Date.now): AnalyticsModel {
  const filters = signal<DateFilters | null>(null);
  const interval = signal<Interval>('day');
  /** Presets end "now": fixed when the filters are applied, so every call reads the same window. */
  let asOf = now();
  const query = () => ({ ...apiFilters(filters.value!, asOf) });

  const assistants = loadable(async () => (await api.page<AssistantRef>('/assistants', { limit: 100 })).items);
  const metrics = loadable(() => api.get<MetricsWithPrevious>('/analytics/metrics', { query: query() }));
  const charts = loadable(async (): Promise<ChartData[]> => {
    const q = { ...query(), interval: interval.value };
    const metricsNeeded = [...new Set(CHARTS.flatMap((c) => c.series.map((s) => s.metric)))];
    const results = await Promise.all(
      metricsNeeded.map((metric) => api.get<Point[]>('/analytics/timeseries', { query: { ...q, metric } })),
    );
    const byMetric = new Map(metricsNeeded.map((m, i) => [m, results[i]!]));
    return CHARTS.map((def) => ({ def, points: Object.fromEntries(def.series.map((s) => [s.metric, byMetric.get(s.metric) ?? []])) }));
  });
  /** Configuration changes in the window (markers on the time axis); the first 100 are plenty for a chart. */
  const audit = loadable(async () => {
    const { from, to: until, assistantId } = query();
    return (await api.page<AuditEntry>('/audit', { from, to: until, assistantId, limit: 100 })).items;
  });

  const assistantName = computed(() => {
    const names = new Map((assistants.data.value ?? []).map((a) => [a.id, a.name]));
    return (id: string) => names.get(id) ?? id;
  });

  return {
    filters,
    interval,
    assistants,
    metrics,
    charts,
    audit,
    assistantName,
    cards: computed(() => (metrics.data.value ? metricCards(metrics.data.value) : [])),
    async apply(f: DateFilters, chosenInterval?: Interval) {
      asOf = now();
      filters.value = f;
      interval.value = chosenInterval ?? defaultInterval(f, asOf);
      if (!assistants.data.value) void assistants.load();
      await Promise.all([metrics.load(), charts.load(), audit.load()]);
    },
    bucketLink: (t: string) => bucketLink(filters.value!, t, interval.value),
  };
}
