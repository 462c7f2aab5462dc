/**
 * A strict reader of the Prometheus text exposition format (0.0.4) for tests: every line must be
 * a `# HELP`, a `# TYPE`, blank, or a sample `name{label="value",…} value`, and every sample must
 * belong to a family whose TYPE came first. Throws on anything else, naming the line.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
export interface Exposition {
  samples: Sample[];
  /** Family name → type (counter, gauge, histogram, summary, untyped). */
  types: Map<string, string>;
  /** The value of the one sample with this name and exactly these labels (0 when absent). */
  value(name: string, labels?: Record<string, string>): number;
  /** The sum over samples with this name whose labels include `labels`. */
  sum(name: string, labels?: Record<string, string>): number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)$`);
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created', ''];

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  // Case-insensitive like Prometheus's own reader (Go's ParseFloat): prom-client writes `Nan`.
  if (/^nan$/i.test(text)) return NaN;
  const n = Number(text);
  if (text === '' || Number.isNaN(n)) throw new Error(`not a sample value: ${line}`);
  return n;
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const m = LABEL.exec(text);
    if (!m) throw new Error(`bad labels: ${line}`);
    labels[m[1] as string] = (m[2] as string).replace(/\\(.)/g, (_s, c: string) => (c === 'n' ? '\n' : c));
    if (m[3] === '') break;
  }
  return labels;
}

const includes = (labels: Record<string, string>, want: Record<string, string>) => Object.entries(want).every(([k, v]) => labels[k] === v);

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = new RegExp(`^# (HELP|TYPE) (${NAME}) ?(.*)$`).exec(line);
      if (!m) throw new Error(`bad comment line: ${line}`);
      if (m[1] === 'TYPE') {
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(m[3] as string)) throw new Error(`bad type: ${line}`);
        types.set(m[2] as string, m[3] as string);
      }
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const name = m[1] as string;
    const family = SUFFIXES.map((s) => (s && name.endsWith(s) ? name.slice(0, -s.length) : s ? null : name)).find((f) => f && types.has(f));
    if (!family) throw new Error(`sample before its # TYPE: ${line}`);
    samples.push({ name, labels: m[2] ? parseLabels(m[2], line) : {}, value: parseValue(m[3] as string, line) });
  }
  return {
    samples,
    types,
    value(name, labels = {}) {
      const found = samples.find(
        (s) => s.name === name && includes(s.labels, labels) && Object.keys(s.labels).length === Object.keys(labels).length,
      );
      return found?.value ?? 0;
    },
    sum(name, labels = {}) {
      return samples.filter((s) => s.name === name && includes(s.labels, labels)).reduce((t, s) => t + s.value, 0);
    },
  };
}
