import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseExposition } from '../../test/prometheus.js';
import { startServer, type TestServer } from '../../test/test-server.js';

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs');
const TOKEN = 'docs-test-token-0123456789';

/** PromQL words that are not metric names: operators, modifiers, grouping. */
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression selects: label matchers, strings, ranges, grouping label
 * lists, function calls and keywords taken out, the identifiers left are metric names.
 */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""') // strings
    .replace(/\{[^}]*\}/g, ' ') // label matchers
    .replace(/\[[^\]]*\]/g, ' ') // ranges and subqueries
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ') // grouping label lists
    .replace(/\$__\w+/g, ' '); // Grafana's variables
  const names: string[] = [];
  for (const m of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const word = m[0];
    const after = bare.slice((m.index ?? 0) + word.length).trimStart();
    if (after.startsWith('(') || KEYWORDS.has(word.toLowerCase())) continue; // a function or aggregation
    if (/\d$/.test(bare.slice(0, m.index ?? 0))) continue; // the letters of a number or duration: 1e-3, 5m
    names.push(word);
  }
  return names;
}

let server: TestServer;
/** Every name a query may select on this server: each sample name, each family, and histograms' _bucket/_sum/_count. */
let exposed: Set<string>;

beforeAll(async () => {
  server = await startServer({ config: { metricsToken: TOKEN } });
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  const m = parseExposition(await res.text());
  exposed = new Set(m.samples.map((s) => s.name));
  for (const [name, type] of m.types) {
    exposed.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exposed.add(name + suffix);
  }
});
afterAll(async () => {
  await server.close();
});

describe('metricNamesIn (the check below)', () => {
  it('finds the selected names and nothing else', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.95, sum by (le, route) (rate(parley_http_request_duration_seconds_bucket{route=~".*/chat"}[5m]))) > 2',
      ),
    ).toEqual(['parley_http_request_duration_seconds_bucket']);
    expect(
      metricNamesIn(
        'sum(rate(a_total{x="y"}[$__rate_interval])) / clamp_min(sum without (pod) (b_total offset 5m), 1e-3) and on (kind) c > 0.5',
      ),
    ).toEqual(['a_total', 'b_total', 'c']);
  });
});

describe('docs/operations/parley-alerts.yml', () => {
  const rules = (
    parseYaml(fs.readFileSync(path.join(DOCS, 'operations/parley-alerts.yml'), 'utf8')) as {
      groups: {
        name: string;
        rules: {
          alert: string;
          expr: string;
          for: string;
          labels: { severity: string };
          annotations: { summary: string; description: string };
        }[];
      }[];
    }
  ).groups.flatMap((g) => g.rules);

  it('is a Prometheus rule file: named alerts with an expression, a duration, a severity and a summary', () => {
    expect(rules.length).toBeGreaterThanOrEqual(5);
    for (const r of rules) {
      expect(r.alert).toMatch(/^Parley[A-Z]\w+$/);
      expect(r.expr.trim()).not.toBe('');
      expect(r.for).toMatch(/^\d+[smh]$/);
      expect(['page', 'warn', 'ticket']).toContain(r.labels.severity);
      expect(r.annotations.summary).toBeTruthy();
    }
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
  });

  it('has the alerts worth having: error rate, p95 latency, webhook backlog, job backlog, fallback rate', () => {
    const names = rules.map((r) => r.alert);
    for (const name of [
      'ParleyHighErrorRate',
      'ParleyChatLatencyHigh',
      'ParleyWebhookBacklog',
      'ParleyJobBacklog',
      'ParleyFallbackRateHigh',
    ])
      expect(names).toContain(name);
  });

  it('selects only metrics this server exposes (read from a live scrape)', () => {
    const unknown = rules.flatMap((r) =>
      metricNamesIn(r.expr)
        .filter((n) => !exposed.has(n))
        .map((n) => `${r.alert}: ${n}`),
    );
    expect(unknown).toEqual([]);
    expect(rules.every((r) => metricNamesIn(r.expr).length > 0)).toBe(true);
  });
});

describe('docs/operations/grafana-dashboard.json', () => {
  const dashboard = JSON.parse(fs.readFileSync(path.join(DOCS, 'operations/grafana-dashboard.json'), 'utf8')) as {
    title: string;
    uid: string;
    panels: { id: number; type: string; title: string; gridPos: object; targets?: { expr: string; refId: string }[] }[];
  };
  const graphs = dashboard.panels.filter((p) => p.type !== 'row');

  it('is a dashboard: unique panel ids, every graph placed and querying something', () => {
    expect(dashboard.uid).toBe('parley-overview');
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
    for (const p of graphs) {
      expect(p.gridPos).toBeDefined();
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
    }
  });

  it('has the panels an operator looks at first', () => {
    const titles = graphs.map((p) => p.title);
    for (const t of [
      'Request rate by route',
      'Error rate (5xx share)',
      'p95 latency',
      'Chat outcomes',
      'Chat stage latency (p95)',
      'Backlogs',
    ])
      expect(titles).toContain(t);
  });

  it('queries only metrics this server exposes (read from a live scrape)', () => {
    const unknown = graphs.flatMap((p) =>
      (p.targets ?? []).flatMap((t) =>
        metricNamesIn(t.expr)
          .filter((n) => !exposed.has(n))
          .map((n) => `${p.title}: ${n}`),
      ),
    );
    expect(unknown).toEqual([]);
  });
});
