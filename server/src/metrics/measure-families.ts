/**
 * Cost of recording one HTTP request's count and duration: prom-client's Counter and Histogram
 * (through cached child handles, the cheapest way it offers) against this module's families.
 * `npx tsx server/src/metrics/measure-families.ts`. Prints nanoseconds per request recorded.
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { CounterFamily, HistogramFamily } from './families.js';
import { HTTP_BUCKETS } from './metrics.js';

const N = 1_000_000;
const labels = ['POST', '/v1/integrations/:id/chat', '200'] as const;

function time(name: string, record: (i: number) => void): void {
  for (let i = 0; i < N / 10; i++) record(i); // warm-up
  const t0 = performance.now();
  for (let i = 0; i < N; i++) record(i);
  process.stdout.write(`${name}: ${Math.round(((performance.now() - t0) * 1e6) / N)} ns\n`);
}

const registry = new Registry();
const counter = new Counter({ name: 'a_total', help: 'a', labelNames: ['method', 'route', 'status'], registers: [registry] });
const histogram = new Histogram({
  name: 'a_seconds',
  help: 'a',
  labelNames: ['method', 'route', 'status'],
  buckets: HTTP_BUCKETS,
  registers: [registry],
});
const countChild = counter.labels(...labels);
const timeChild = histogram.labels(...labels);
const requests = new CounterFamily('b_total', 'b', ['method', 'route', 'status']);
const duration = new HistogramFamily('b_seconds', 'b', ['method', 'route', 'status'], HTTP_BUCKETS);
const countSeries = requests.labels(...labels);
const timeSeries = duration.labels(...labels);

for (let round = 0; round < 3; round++) {
  time('prom-client child handles (inc + observe)', (i) => {
    countChild.inc();
    timeChild.observe((i % 50) / 1000);
  });
  time('families.ts series (inc + observe)       ', (i) => {
    countSeries.inc();
    timeSeries.observe((i % 50) / 1000);
  });
}
