import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { themeChoice } from '../lib/theme.js';

// A time-series chart on uPlot (≈ 20 KB gzipped). Only the analytics page loads this module,
// lazily, so uPlot never reaches the first load or any other page. Colours come from the CSS
// variables of the current theme and the chart is rebuilt when the theme changes. Markers (the
// assistant configuration changes) are real buttons laid over the plot, each with a tooltip.

export interface ChartSeries {
  label: string;
  color: string;
  values: ReadonlyArray<number | null>;
}
export interface ChartMarker {
  t: number;
  label: string;
  detail: string;
}

export interface TimeChartProps {
  /** Describes the chart for screen readers (the "View as table" toggle gives the figures). */
  label: string;
  /** Bucket starts, milliseconds. */
  xs: readonly number[];
  series: readonly ChartSeries[];
  format: (v: number) => string;
  hourly: boolean;
  /** Ratios are drawn on a fixed 0–1 axis; counts and times from 0 up to their maximum. */
  ratio?: boolean;
  markers: readonly ChartMarker[];
  /** A click on the plot picks the nearest bucket. */
  onPick: (index: number) => void;
  height?: number;
}

const cssVar = (name: string): string => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

/** Bumps when the theme (the picker, or the system's scheme) changes, so the chart re-reads its colours. */
function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  const choice = themeChoice.value;
  useEffect(() => setVersion((v) => v + 1), [choice]);
  useEffect(() => {
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const bump = () => setVersion((v) => v + 1);
    mq.addEventListener('change', bump);
    return () => mq.removeEventListener('change', bump);
  }, []);
  return version;
}

interface PlacedMarker {
  left: number;
  marker: ChartMarker;
  n: number;
}

export default function TimeChart({ label, xs, series, format, hourly, ratio = false, markers, onPick, height = 220 }: TimeChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const [placed, setPlaced] = useState<PlacedMarker[]>([]);
  const [readout, setReadout] = useState('');
  const [active, setActive] = useState<number | null>(null);
  const theme = useThemeVersion();

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const text = cssVar('--muted');
    const grid = cssVar('--border');
    const font = `12px ${getComputedStyle(document.body).fontFamily}`;
    const axis = { stroke: text, font, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const markerColor = cssVar('--danger');
    const data = [xs.map((x) => x / 1000), ...series.map((s) => s.values.map((v) => v ?? null))] as uPlot.AlignedData;

    const placeMarkers = (u: uPlot) => {
      const over = u.over.getBoundingClientRect();
      const outer = wrap.current?.getBoundingClientRect();
      if (!outer) return;
      const min = u.scales.x?.min ?? 0;
      const max = u.scales.x?.max ?? 0;
      setPlaced(
        markers
          .map((marker, i) => ({ marker, n: i + 1, t: marker.t / 1000 }))
          .filter((m) => m.t >= min && m.t <= max)
          .map((m) => ({ marker: m.marker, n: m.n, left: over.left - outer.left + u.valToPos(m.t, 'x') })),
      );
    };

    const chart = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height,
        legend: { show: false },
        scales: {
          // The axis runs to the end of the last bucket, so today's changes (markers) are on it.
          x: { time: true, range: (_u: uPlot, min: number, max: number) => [min, max + (hourly ? 3600 : 86400)] },
          y: { range: (_u: uPlot, _min: number, max: number) => (ratio ? [0, 1] : [0, max > 0 ? max * 1.1 : 1]) },
        },
        cursor: { drag: { x: false, y: false }, points: { size: 7 } },
        series: [
          {},
          ...series.map((s) => ({
            label: s.label,
            stroke: cssVar(s.color),
            width: 2,
            spanGaps: false,
            points: { show: true, size: xs.length <= 60 ? 6 : 3 },
          })),
        ],
        axes: [
          { ...axis, values: hourly ? '{HH}:{mm}\n{D} {MMM}' : '{D} {MMM}' } as uPlot.Axis,
          { ...axis, size: 64, values: (_u: uPlot, ticks: number[]) => ticks.map((v) => format(v)) },
        ],
        hooks: {
          draw: [
            (u: uPlot) => {
              // A dashed line per configuration change, under its marker button.
              const ctx = u.ctx;
              ctx.save();
              ctx.strokeStyle = markerColor;
              ctx.setLineDash([4, 4]);
              ctx.lineWidth = devicePixelRatio;
              for (const m of markers) {
                const x = Math.round(u.valToPos(m.t / 1000, 'x', true));
                if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
                ctx.beginPath();
                ctx.moveTo(x, u.bbox.top);
                ctx.lineTo(x, u.bbox.top + u.bbox.height);
                ctx.stroke();
              }
              ctx.restore();
              placeMarkers(u);
            },
          ],
          setCursor: [
            (u: uPlot) => {
              const i = u.cursor.idx;
              if (i === null || i === undefined) return setReadout('');
              const when = new Date(xs[i]!).toLocaleString(
                undefined,
                hourly ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' },
              );
              setReadout(
                `${when}: ${series.map((s) => `${s.label} ${s.values[i] === null || s.values[i] === undefined ? '—' : format(s.values[i]!)}`).join(', ')}`,
              );
            },
          ],
        },
      },
      data,
      el,
    );

    const click = () => {
      const i = chart.cursor.idx;
      if (i !== null && i !== undefined) pick.current(i);
    };
    chart.over.addEventListener('click', click);
    chart.over.style.cursor = 'pointer';
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.over.removeEventListener('click', click);
      chart.destroy();
    };
  }, [xs, series, markers, hourly, ratio, height, theme]);

  return (
    <div class="time-chart" ref={wrap}>
      <div class="chart-legend" aria-hidden="true">
        {series.map((s) => (
          <span key={s.label} class="chart-key">
            <span class="chart-swatch" style={{ background: `var(${s.color})` }} />
            {s.label}
          </span>
        ))}
        <span class="chart-readout">{readout}</span>
      </div>
      <div ref={host} role="img" aria-label={label} />
      {placed.map((p, i) => (
        <span key={p.n} class="chart-marker-wrap" style={{ left: `${p.left}px` }}>
          <button
            type="button"
            class="chart-marker"
            aria-label={`Change ${p.n}: ${p.marker.label}. ${p.marker.detail}`}
            aria-describedby={active === i ? `marker-tip-${p.n}` : undefined}
            onMouseEnter={() => setActive(i)}
            onMouseLeave={() => setActive(null)}
            onFocus={() => setActive(i)}
            onBlur={() => setActive(null)}
          >
            {p.n}
          </button>
          {active === i && (
            <span role="tooltip" id={`marker-tip-${p.n}`} class="chart-tooltip">
              <strong>{p.marker.label}</strong>
              <br />
              {p.marker.detail}
            </span>
          )}
        </span>
      ))}
    </div>
  );
}
