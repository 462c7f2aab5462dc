import { useSignal } from '@preact/signals';
import { useLocation } from 'preact-iso';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { ErrorNotice, Loading, PageHeader } from '../ui/common.js';
import { SelectField } from '../ui/field.js';
import type { ChartMarker, TimeChartProps } from '../ui/chart.js';
import { DateFilterFields } from './analytics-filters.js';
import { dateFiltersToQuery, parseDateFilters, queryString, type DateFilters, type Interval } from './analytics-query.js';
import {
  changeOf,
  createAnalyticsModel,
  formatMetric,
  type AnalyticsModel,
  type AuditEntry,
  type ChartData,
  type MetricCard,
} from './analytics.model.js';

// Analytics: filters in the URL, metric cards against the previous period, charts over time
// (uPlot, loaded only here and only when the page renders a chart), each with a table view, a
// click-through to the conversations of a bucket, and configuration changes as markers.

type ChartComponent = (props: TimeChartProps) => preact.JSX.Element;
let chartModule: Promise<{ default: ChartComponent }> | null = null;

function useChartComponent(): ChartComponent | null {
  const [C, setC] = useState<ChartComponent | null>(null);
  useEffect(() => {
    let live = true;
    (chartModule ??= import('../ui/chart.js'))
      .then((m) => {
        if (live) setC(() => m.default);
      })
      .catch(() => {
        chartModule = null;
      });
    return () => {
      live = false;
    };
  }, []);
  return C;
}

const DEFAULT_RANGE = '7d';

export default function AnalyticsPage() {
  const { url, query, route } = useLocation();
  const m = useModel(() => createAnalyticsModel(api));
  const filters = useMemo(() => parseDateFilters(query, DEFAULT_RANGE), [url]);
  const chosenInterval = query.interval === 'hour' || query.interval === 'day' ? (query.interval as Interval) : undefined;

  useEffect(() => {
    void m.apply(filters, chosenInterval);
  }, [url]);

  const go = (f: DateFilters, interval = chosenInterval) =>
    route(`${to('/analytics')}${queryString({ ...dateFiltersToQuery(f, DEFAULT_RANGE), interval })}`);

  return (
    <div class="analytics">
      <PageHeader title="Analytics" description="How your assistants are doing, compared with the period before." />
      <section class="card" aria-label="Filters">
        <DateFilterFields
          value={filters}
          ranges={['today', '7d', '30d', '90d', 'custom']}
          assistants={m.assistants.data.value ?? []}
          onChange={(f) => go(f)}
        >
          <SelectField
            label="Chart interval"
            value={m.interval.value}
            options={[
              { value: 'hour', label: 'Per hour' },
              { value: 'day', label: 'Per day' },
            ]}
            onValue={(v) => go(filters, v)}
          />
        </DateFilterFields>
      </section>

      <h2>Metrics</h2>
      <ErrorNotice error={m.metrics.error.value} onRetry={() => m.metrics.load()} />
      {m.metrics.loading.value && !m.metrics.data.value ? (
        <Loading />
      ) : (
        <ul class="metric-grid" aria-label="Metrics">
          {m.cards.value.map((c) => (
            <MetricCardView key={c.key} card={c} hasPrevious={!!m.metrics.data.value?.previous} />
          ))}
        </ul>
      )}

      <h2>Over time</h2>
      <ErrorNotice error={m.charts.error.value} onRetry={() => m.charts.load()} />
      <ErrorNotice error={m.audit.error.value} onRetry={() => m.audit.load()} />
      {m.charts.loading.value && !m.charts.data.value ? (
        <Loading label="Loading charts…" />
      ) : (
        <div class="chart-grid">
          {(m.charts.data.value ?? []).map((c) => (
            <ChartCard key={c.def.id} model={m} chart={c} />
          ))}
        </div>
      )}
      <ChangeLegend model={m} />
    </div>
  );
}

function MetricCardView({ card, hasPrevious }: { card: MetricCard; hasPrevious: boolean }) {
  const change = changeOf(card);
  return (
    <li class="metric-card">
      <span class="metric-label">{card.label}</span>
      <strong class="metric-value">{formatMetric(card.value, card.format)}</strong>
      {change ? (
        <span class={`metric-change ${change.tone}`}>
          {change.text} <span class="muted">(period before: {formatMetric(card.previous, card.format)})</span>
        </span>
      ) : (
        <span class="metric-change muted">{hasPrevious ? 'No previous figure' : 'No previous period to compare'}</span>
      )}
    </li>
  );
}

function auditMarkers(entries: readonly AuditEntry[], assistantName: (id: string) => string): ChartMarker[] {
  return [...entries]
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((e) => ({
      t: Date.parse(e.createdAt),
      label: `${assistantName(e.assistantId)} ${e.action}`,
      detail: `${e.userEmail ?? 'An API key'}${e.fields.length ? ` changed ${e.fields.join(', ')}` : ''}, ${new Date(e.createdAt).toLocaleString()}`,
    }));
}

function bucketLabel(t: string, interval: Interval): string {
  return new Date(t).toLocaleString(undefined, interval === 'hour' ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' });
}

function ChartCard({ model: m, chart }: { model: AnalyticsModel; chart: ChartData }) {
  const asTable = useSignal(false);
  const Chart = useChartComponent();
  const { route } = useLocation();
  const interval = m.interval.value;
  const first = chart.points[chart.def.series[0]!.metric] ?? [];
  const xs = useMemo(() => first.map((p) => Date.parse(p.t)), [first]);
  const series = useMemo(
    () => chart.def.series.map((s) => ({ label: s.label, color: s.color, values: (chart.points[s.metric] ?? []).map((p) => p.value) })),
    [chart],
  );
  const markers = useMemo(() => auditMarkers(m.audit.data.value ?? [], m.assistantName.value), [m.audit.data.value, m.assistantName.value]);
  const fmt =
    chart.def.unit === 'ratio'
      ? (v: number) => formatMetric(v, 'ratio')
      : chart.def.unit === 'ms'
        ? (v: number) => formatMetric(v, 'ms')
        : (v: number) => formatMetric(v, 'count');
  const headingId = `chart-${chart.def.id}`;
  const empty = series.every((s) => s.values.every((v) => v === null || v === 0));
  return (
    <section class="card chart-card" aria-labelledby={headingId}>
      <header class="chart-header">
        <h3 id={headingId}>{chart.def.title}</h3>
        <button
          type="button"
          class="button small"
          aria-pressed={asTable.value}
          onClick={() => {
            asTable.value = !asTable.value;
          }}
        >
          View as table
        </button>
      </header>
      {asTable.value ? (
        <div class="table-wrap chart-table">
          <table>
            <caption class="visually-hidden">
              {chart.def.title}, {interval === 'hour' ? 'per hour' : 'per day'}
            </caption>
            <thead>
              <tr>
                <th scope="col">{interval === 'hour' ? 'Hour' : 'Day'}</th>
                {series.map((s) => (
                  <th key={s.label} scope="col" class="num">
                    {s.label}
                  </th>
                ))}
                <th scope="col">
                  <span class="visually-hidden">Conversations</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {first.map((p, i) => (
                <tr key={p.t}>
                  <th scope="row">{bucketLabel(p.t, interval)}</th>
                  {series.map((s) => (
                    <td key={s.label} class="num">
                      {s.values[i] === null || s.values[i] === undefined ? '—' : fmt(s.values[i]!)}
                    </td>
                  ))}
                  <td>
                    <a href={m.bucketLink(p.t)}>
                      Conversations<span class="visually-hidden"> of {bucketLabel(p.t, interval)}</span>
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : Chart ? (
        <>
          <Chart
            label={`${chart.def.title} ${interval === 'hour' ? 'per hour' : 'per day'}${empty ? ': no data in this period' : ''}. Use "View as table" for the figures.`}
            xs={xs}
            series={series}
            format={fmt}
            hourly={interval === 'hour'}
            ratio={chart.def.unit === 'ratio'}
            markers={markers}
            onPick={(i) => {
              const p = first[i];
              if (p) route(m.bucketLink(p.t));
            }}
          />
          <p class="hint">Click a point to see that {interval}’s conversations.</p>
        </>
      ) : (
        <Loading label="Loading chart…" />
      )}
    </section>
  );
}

function ChangeLegend({ model: m }: { model: AnalyticsModel }) {
  const entries = [...(m.audit.data.value ?? [])].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return (
    <section class="card" aria-labelledby="changes-heading">
      <h2 id="changes-heading">Configuration changes</h2>
      {!entries.length ? (
        <p class="muted">No assistant was changed in this period.</p>
      ) : (
        <>
          <p class="hint">Numbered as the dashed markers on the charts.</p>
          <ol class="change-list">
            {entries.map((e) => (
              <li key={e.id}>
                <a href={to(`/assistants/${e.assistantId}`)}>{m.assistantName.value(e.assistantId)}</a> {e.action}
                {e.fields.length ? <> ({e.fields.join(', ')})</> : null} by {e.userEmail ?? 'an API key'},{' '}
                <time dateTime={e.createdAt}>{new Date(e.createdAt).toLocaleString()}</time>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
