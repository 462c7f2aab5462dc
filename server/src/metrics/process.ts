import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | null = null;

/**
 * Node's standard `process_*` and `nodejs_*` metrics, in a registry of their own made once per
 * process, at the first scrape. They describe the process, not an app, and two of them hold
 * process-wide resources that would leak if each app made its own (tests build hundreds of apps
 * in one process): the GC metric's PerformanceObserver and the event-loop-lag monitor
 * (`monitorEventLoopDelay`). Nothing else is started: prom-client computes the rest when scraped.
 * A process that is never scraped never starts them.
 */
export function processRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
