import { signal, type Signal } from '@preact/signals';
import type { ApiClient, Page } from '../lib/api.js';
import { loadable, submission, type Loadable, type Submission } from '../lib/model.js';
import type { Creator } from './api-keys.model.js';

// Webhooks (docs/api-spec.md §9): endpoints, the signing secret answered once, enable/disable, a test
// event, and each endpoint's delivery log with "redeliver" on failed attempts.

/** docs/api-spec.md §9: both seed lists; "*" means all of them. */
export const WEBHOOK_EVENTS = [
  'conversation.started',
  'conversation.ended',
  'message.received',
  'message.sent',
  'conversation.created',
  'conversation.message.created',
  'knowledge_base.updated',
  'app.deployment.updated',
] as const;

export interface Webhook {
  id: string;
  assistantId: string | null;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabledReason: 'manual' | 'gone' | 'failing' | null;
  disabledAt: string | null;
  failingSince: string | null;
  pendingDeliveries: number;
  /** Who created it; null when unknown. Removing that member disables it unless it is transferred. */
  createdBy?: Creator | null;
  createdAt: string;
  updatedAt: string;
  secret?: string;
}

/** One delivery attempt (the server's log; field names as it sends them, with the contract's aliases). */
export interface Delivery {
  id: string;
  event: string;
  status: 'succeeded' | 'failed' | 'pending' | string;
  responseCode: number | null;
  latencyMs: number | null;
  error: string | null;
  attempt: number;
  attemptedAt?: string;
  createdAt?: string;
  nextRetryAt?: string | null;
  nextAttemptAt?: string | null;
  webhookId?: string;
  eventId?: string;
}

export interface AssistantRef {
  id: string;
  name: string;
}

export const deliveryTime = (d: Delivery): string | null => d.attemptedAt ?? d.createdAt ?? null;
export const nextRetry = (d: Delivery): string | null => d.nextRetryAt ?? d.nextAttemptAt ?? null;

/** The webhooks list and the "new webhook" form. */
export interface WebhooksModel {
  page: Signal<number>;
  /** One page of endpoints (20 a page). */
  hooks: Loadable<Page<Webhook>>;
  /** The assistants (first 100) an endpoint may be limited to. */
  assistants: Loadable<AssistantRef[]>;
  /** The new endpoint's form. */
  form: { url: Signal<string>; events: Signal<string[]>; assistantId: Signal<string>; description: Signal<string>; submit: Submission };
  /** The new endpoint's signing secret, shown once. */
  secret: Signal<{ url: string; secret: string } | null>;
  /** Enabling, disabling and deleting from the list. */
  rowAction: Submission;
  /** Loads the endpoints and the assistants. */
  load(): Promise<void>;
  /** Shows page `p`. */
  goTo(p: number): Promise<void>;
  /** "*" and single events exclude each other: picking one clears the other kind. */
  toggleEvent(event: string, on: boolean): void;
  /** Creates the endpoint from the form and shows its secret. */
  create(): Promise<Webhook | undefined>;
  /** Enables or disables an endpoint. */
  setEnabled(id: string, enabled: boolean): Promise<Webhook | undefined>;
  /** Deletes an endpoint; true when done. */
  remove(id: string): Promise<boolean>;
}

export function createWebhooksModel(api: ApiClient): WebhooksModel {
  const page = signal(1);
  const hooks = loadable(() => api.page<Webhook>('/webhooks', { page: page.value, limit: 20 }));
  const assistants = loadable(async () => (await api.page<AssistantRef>('/assistants', { limit: 100 })).items);
  const form = {
    url: signal(''),
    events: signal<string[]>(['*']),
    assistantId: signal(''),
    description: signal(''),
    submit: submission(),
  };
  const secret = signal<{ url: string; secret: string } | null>(null);
  const rowAction = submission();

  return {
    page,
    hooks,
    assistants,
    form,
    secret,
    rowAction,
    async load() {
      await Promise.all([hooks.load(), assistants.load()]);
    },
    async goTo(p: number) {
      page.value = p;
      await hooks.load();
    },
    toggleEvent(event: string, on: boolean) {
      if (event === '*') {
        form.events.value = on ? ['*'] : [];
        return;
      }
      const set = new Set(form.events.value.filter((e) => e !== '*'));
      if (on) set.add(event);
      else set.delete(event);
      form.events.value = WEBHOOK_EVENTS.filter((e) => set.has(e));
    },
    async create(): Promise<Webhook | undefined> {
      const created = await form.submit.run(() =>
        api.post<Webhook>('/webhooks', {
          url: form.url.value.trim(),
          events: form.events.value,
          ...(form.assistantId.value ? { assistantId: form.assistantId.value } : {}),
          ...(form.description.value.trim() ? { description: form.description.value.trim() } : {}),
        }),
      );
      if (created) {
        if (created.secret) secret.value = { url: created.url, secret: created.secret };
        form.url.value = '';
        form.events.value = ['*'];
        form.assistantId.value = '';
        form.description.value = '';
        await hooks.load();
      }
      return created;
    },
    async setEnabled(id: string, enabled: boolean) {
      const updated = await rowAction.run(() => api.patch<Webhook>(`/webhooks/${encodeURIComponent(id)}`, { enabled }));
      if (updated) await hooks.load();
      return updated;
    },
    async remove(id: string) {
      const ok = await rowAction.run(() => api.delete(`/webhooks/${encodeURIComponent(id)}`));
      if (ok !== undefined) await hooks.load();
      return ok !== undefined;
    },
  };
}

/** How often the log is read again while deliveries are on their way. */
export const DELIVERY_POLL_MS = 1000;
/**
 * How long the log is followed after a test or redelivery before giving up waiting for its
 * attempt. A time, not a number of reads: how soon an attempt shows depends on the server
 * (its outbox poll, its load), not on how often the page looks.
 */
export const DELIVERY_FOLLOW_MS = 20_000;

/** One webhook endpoint: its delivery log, followed live after a test or a redelivery. */
export interface WebhookDetailModel {
  id: string;
  /** The log's page. */
  page: Signal<number>;
  hook: Loadable<Webhook>;
  /** One page of the delivery log. */
  deliveries: Loadable<Page<Delivery>>;
  /** The assistants (first 100), for the endpoint's filter. */
  assistants: Loadable<AssistantRef[]>;
  /** Tests, redeliveries, enabling and deletion. */
  action: Submission;
  /** What the last action did, for the page to say. */
  notice: Signal<string | null>;
  /** Loads the endpoint, the log and the assistants. */
  load(): Promise<void>;
  /** Shows page `p` of the log. */
  goTo(p: number): Promise<void>;
  /** Stops following the log (the page unmounts). */
  stop(): void;
  /** Sends a test event and follows the log until its attempt shows. */
  sendTest(): Promise<{ webhookId: string } | undefined>;
  /** Sends a delivery again and follows the log; true when queued. */
  redeliver(deliveryId: string): Promise<boolean>;
  /** Enables or disables the endpoint. */
  setEnabled(enabled: boolean): Promise<Webhook | undefined>;
  /** Deletes the endpoint; true when done. */
  remove(): Promise<boolean>;
}

export function createWebhookDetailModel(api: ApiClient, id: string, opts: { pollMs?: number } = {}): WebhookDetailModel {
  const path = `/webhooks/${encodeURIComponent(id)}`;
  const page = signal(1);
  const hook = loadable(() => api.get<Webhook>(path));
  const assistants = loadable(async () => (await api.page<AssistantRef>('/assistants', { limit: 100 })).items);
  const deliveries = loadable(() => api.page<Delivery>(`${path}/deliveries`, { page: page.value, limit: 20 }));
  const action = submission();
  const notice = signal<string | null>(null);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  /** Reads the log again until an attempt beyond `seen` shows up (or the follow time runs out). */
  function follow(seen: number, until = Date.now() + DELIVERY_FOLLOW_MS) {
    if (timer) clearTimeout(timer);
    if (stopped || Date.now() > until) return;
    // load() never rejects (a failure lands in the loadable's error signal).
    timer = setTimeout(
      () =>
        void Promise.all([deliveries.load(), hook.load()]).then(() => {
          const total = deliveries.data.value?.total ?? 0;
          if (total <= seen || (hook.data.value?.pendingDeliveries ?? 0) > 0) follow(seen, until);
        }),
      opts.pollMs ?? DELIVERY_POLL_MS,
    );
  }

  return {
    id,
    page,
    hook,
    deliveries,
    assistants,
    action,
    notice,
    async load() {
      await Promise.all([hook.load(), deliveries.load(), assistants.load()]);
    },
    async goTo(p: number) {
      page.value = p;
      await deliveries.load();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    async sendTest() {
      const seen = deliveries.data.value?.total ?? 0;
      const ok = await action.run(() => api.post<{ webhookId: string }>(`${path}/test`));
      if (ok) {
        notice.value = 'Test event queued: its delivery appears in the log below.';
        follow(seen);
      }
      return ok;
    },
    async redeliver(deliveryId: string) {
      const seen = deliveries.data.value?.total ?? 0;
      const ok = await action.run(() => api.post(`${path}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`));
      if (ok !== undefined) {
        notice.value = 'Redelivery queued.';
        follow(seen);
      }
      return ok !== undefined;
    },
    async setEnabled(enabled: boolean) {
      const updated = await action.run(() => api.patch<Webhook>(path, { enabled }));
      if (updated) {
        hook.data.value = updated;
        notice.value = enabled ? 'Enabled.' : 'Disabled: no events are sent until you enable it again.';
      }
      return updated;
    },
    async remove() {
      const ok = await action.run(() => api.delete(path));
      return ok !== undefined;
    },
  };
}
