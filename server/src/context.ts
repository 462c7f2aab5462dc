import type { CredentialResolver } from './auth/credentials.js';
import type { Config } from './config.js';
import type { Storage } from './storage/port.js';
import type { FailureTracker } from './limits/port.js';
import type { Embeddings } from './knowledge/embeddings/index.js';
import type { LimitStore } from './limits/port.js';
import type { Clock } from './lib/clock.js';
import type { Logger } from './lib/logger.js';
import type { AnswerProviders } from './answer/providers/types.js';
import type { WebhookEvents } from './webhooks/events.js';
import type { Metrics } from './metrics/metrics.js';

/** What every router and service may use: the side effects, passed in (ARCHITECTURE.md §3). */
export interface AppContext {
  /** The async storage port (storage/README.md): SQLite or PostgreSQL behind one interface. */
  storage: Storage;
  config: Config;
  clock: Clock;
  logger: Logger;
  /** Rate, abuse and failed-attempt limits: this process, or Redis shared by all instances. */
  limiter: LimitStore;
  credentials: CredentialResolver;
  authFailures: FailureTracker;
  providers: AnswerProviders;
  /** Webhook events: written to the outbox inside the transaction of their cause. */
  webhooks: WebhookEvents;
  /** Prometheus instruments of this app (metrics/): counted always, served at GET /metrics with METRICS_TOKEN. */
  metrics: Metrics;
  /** Dense retrieval (vectors + backlog worker) when an embedding model is configured; else absent. */
  embeddings?: Embeddings | null;
  /** Where the built widget lives; tests may point elsewhere. */
  widgetFile: string;
  /** The built dashboard (index.html + assets/); tests may point elsewhere. */
  dashboardDir: string;
  demoDir: string;
}

export function nowIso(ctx: Pick<AppContext, 'clock'>): string {
  return new Date(ctx.clock.now()).toISOString();
}
