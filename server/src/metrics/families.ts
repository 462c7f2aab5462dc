import type { Metric, Registry } from 'prom-client';

/**
 * Counter and histogram families for the request path, pre-aggregated in plain numbers and
 * handed to prom-client's registry only when scraped.
 *
 * Why not prom-client's own Counter/Histogram there: even through a child handle
 * (`histogram.labels(...)`), every `inc`/`observe` re-hashes its label object (sorting the
 * names, building a key string) and validates it: 2.8-3.4 µs for one increment plus one
 * observation, against 70-140 ns here (measure-families.ts, on the shared 2-core machine). A chat request
 * records an HTTP count and duration, its turn and two or three stage durations. prom-client
 * still writes the exposition text (label escaping, `le`, `_sum`/`_count`): the registry takes
 * any object with prom-client's `get()` shape. Low-rate families (webhook deliveries, model
 * requests, refusals) use prom-client's Counter as is.
 */

/** The values of a family's labels, in the order of its `labelNames`. */
export type LabelValues = readonly string[];

interface Exported {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

function labelObject(names: readonly string[], values: LabelValues): Record<string, string> {
  const out: Record<string, string> = {};
  names.forEach((name, i) => {
    out[name] = values[i] ?? '';
  });
  return out;
}

/** One counter series: `inc()` is a single addition. */
export class CounterSeries {
  value = 0;
  inc(by = 1): void {
    this.value += by;
  }
}

/** One histogram series: a linear scan of a dozen bounds, three additions. */
export class HistogramSeries {
  /** Per bucket (not cumulative); the last slot is above the highest bound (+Inf). */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > (bounds[i] as number)) i++;
    (this.counts as { [i: number]: number })[i] = (this.counts[i] as number) + 1;
    this.sum += value;
    this.count++;
  }
}

abstract class Family<S> {
  private readonly series = new Map<string, { values: LabelValues; series: S }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  protected abstract create(): S;

  /** The series for these label values; callers on a hot path keep what it returns. */
  labels(...values: string[]): S {
    const key = values.join('\u0000');
    let entry = this.series.get(key);
    if (!entry) {
      entry = { values, series: this.create() };
      this.series.set(key, entry);
    }
    return entry.series;
  }

  protected entries(): { values: LabelValues; series: S }[] {
    return [...this.series.values()];
  }

  /** Registers the family with a prom-client registry (which only ever calls `get()`). */
  registerIn(registry: Registry): void {
    registry.registerMetric(this as unknown as Metric);
  }
}

export class CounterFamily extends Family<CounterSeries> {
  readonly type = 'counter';
  protected create(): CounterSeries {
    return new CounterSeries();
  }

  get(): Promise<{ name: string; help: string; type: string; values: Exported[]; aggregator: 'sum' }> {
    const values = this.entries().map(({ values: v, series }) => ({ labels: labelObject(this.labelNames, v), value: series.value }));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' });
  }
}

export class HistogramFamily extends Family<HistogramSeries> {
  readonly type = 'histogram';
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames);
    if (buckets.some((b, i) => i > 0 && b <= (buckets[i - 1] as number))) throw new Error(`${name}: buckets must increase`);
  }

  protected create(): HistogramSeries {
    return new HistogramSeries(this.buckets);
  }

  get(): Promise<{ name: string; help: string; type: string; values: Exported[]; aggregator: 'sum' }> {
    const values: Exported[] = [];
    for (const { values: v, series } of this.entries()) {
      const labels = labelObject(this.labelNames, v);
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += series.counts[i] as number;
        values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels, value: series.count });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' });
  }
}
