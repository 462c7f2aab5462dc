import type { FailureTracker, LimitStore } from '../limits/port.js';
import type { Metrics } from './metrics.js';

/**
 * The limit store, counting every refusal into `parley_rate_limited_total{scope}` where it is
 * decided, so each caller (API rate limit, widget limits, login and registration throttles,
 * bad-token throttle) is counted without a call of its own. Scopes: `credential` (the per-key
 * or per-session API limit), `widget` (the widget's per-visitor limits) and each failure
 * tracker's name (`auth`, `login-email`, `login-ip`, `register-ip`). A tracker's `blocked` is
 * counted when true: its callers answer 429 then.
 */
export function countingRefusals(store: LimitStore, metrics: Pick<Metrics, 'rateLimited'>): LimitStore {
  return {
    async take(key, limits) {
      const decision = await store.take(key, limits);
      if (!decision.allowed) metrics.rateLimited(key.startsWith('widget:') ? 'widget' : 'credential');
      return decision;
    },
    failureTracker(name, limit, windowMs): FailureTracker {
      const tracker = store.failureTracker(name, limit, windowMs);
      return {
        async blocked(key) {
          const blocked = await tracker.blocked(key);
          if (blocked) metrics.rateLimited(name);
          return blocked;
        },
        record: (key) => tracker.record(key),
        async attempt(key) {
          const result = await tracker.attempt(key);
          if (result === 'blocked') metrics.rateLimited(name);
          return result;
        },
      };
    },
    sweep: () => store.sweep(),
    close: () => store.close(),
  };
}
