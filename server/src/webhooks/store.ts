import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { newWebhookSecret } from './signing.js';

export type DisabledReason = 'manual' | 'gone' | 'failing';

/** The wire shape of a webhook endpoint; `secret` only in the answer to its creation. */
export interface WebhookEndpoint {
  id: string; organizationId: string; assistantId: string | null; url: string; description: string | null; events: string[];
  enabled: boolean; disabledReason: DisabledReason | null; disabledAt: string | null; failingSince: string | null;
  pendingDeliveries: number; createdAt: string; updatedAt: string;
}

export interface DeliveryAttempt {
  id: string; webhookId: string; event: string; attempt: number; attemptedAt: string; status: 'succeeded' | 'failed';
  responseCode: number | null; latencyMs: number; error: string | null; nextRetryAt: string | null;
  /** The dashboard's names: the delivery (what redeliver takes), the event's webhook-id, when the next attempt is due, when this one ran. */
  deliveryId: string; eventId: string; nextAttemptAt: string | null; createdAt: string;
}

interface EndpointRow {
  id: string; organization_id: string; assistant_id: string | null; url: string; description: string | null; events: string; secret: string;
  enabled: number; disabled_reason: DisabledReason | null; disabled_at: string | null; failing_since: string | null; created_at: string; updated_at: string;
  pending: number;
}
interface AttemptRow {
  id: number; delivery_id: number; webhook_id: string; event_type: string; attempt: number; attempted_at: string; succeeded: number; response_code: number | null;
  latency_ms: number; error: string | null; next_retry_at: string | null;
}

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id, organizationId: r.organization_id, assistantId: r.assistant_id, url: r.url, description: r.description, events: parseJson(r.events, []),
  enabled: r.enabled === 1, disabledReason: r.disabled_reason, disabledAt: r.disabled_at, failingSince: r.failing_since,
  pendingDeliveries: r.pending, createdAt: r.created_at, updatedAt: r.updated_at,
});

const SELECT = `SELECT e.*, (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending') AS pending FROM webhook_endpoints e`;

/** Endpoints per organization, so one tenant cannot make every event fan out without bound. */
export const MAX_ENDPOINTS_PER_ORG = 50;

export interface EndpointInput { url: string; events: string[]; assistantId: string | null; description: string | null }

export function createWebhookStore(db: Db) {
  const byId = db.prepare<[string, string], EndpointRow>(`${SELECT} WHERE e.id = ? AND e.organization_id = ?`);

  return {
    get(organizationId: string, id: string): WebhookEndpoint | null {
      const row = byId.get(id, organizationId);
      return row ? toEndpoint(row) : null;
    },
    count(organizationId: string): number {
      return (db.prepare('SELECT count(*) AS n FROM webhook_endpoints WHERE organization_id = ?').get(organizationId) as { n: number }).n;
    },
    create(organizationId: string, input: EndpointInput, at: string): WebhookEndpoint & { secret: string } {
      const id = newId('wh');
      const secret = newWebhookSecret();
      db.prepare(`INSERT INTO webhook_endpoints (id, organization_id, assistant_id, url, description, events, secret, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(id, organizationId, input.assistantId, input.url, input.description, JSON.stringify(input.events), secret, at, at);
      return { ...(this.get(organizationId, id) as WebhookEndpoint), secret };
    },
    /** `onlyAssistantId`: keys bound to one assistant see that assistant's endpoints alone. */
    list(organizationId: string, onlyAssistantId: string | null, page: { limit: number; offset: number }) {
      const where = 'e.organization_id = ? AND (? IS NULL OR e.assistant_id = ?)';
      const total = (db.prepare(`SELECT count(*) AS n FROM webhook_endpoints e WHERE ${where}`).get(organizationId, onlyAssistantId, onlyAssistantId) as { n: number }).n;
      const rows = db.prepare(`${SELECT} WHERE ${where} ORDER BY e.created_at DESC, e.rowid DESC LIMIT ? OFFSET ?`)
        .all(organizationId, onlyAssistantId, onlyAssistantId, page.limit, page.offset) as EndpointRow[];
      return { items: rows.map(toEndpoint), total };
    },
    update(current: WebhookEndpoint, patch: Partial<EndpointInput> & { enabled?: boolean | undefined }, at: string): WebhookEndpoint {
      const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as WebhookEndpoint;
      // Re-enabling starts afresh: no failure streak, no reason; disabling by hand says so.
      const reenabled = patch.enabled === true && !current.enabled;
      const disabled = patch.enabled === false && current.enabled;
      db.prepare(`UPDATE webhook_endpoints SET url = ?, events = ?, assistant_id = ?, description = ?, enabled = ?,
          disabled_reason = ?, disabled_at = ?, failing_since = ?, updated_at = ? WHERE id = ?`).run(
        next.url, JSON.stringify(next.events), next.assistantId, next.description, next.enabled ? 1 : 0,
        reenabled ? null : disabled ? 'manual' : current.disabledReason,
        reenabled ? null : disabled ? at : current.disabledAt,
        reenabled ? null : current.failingSince,
        at, current.id,
      );
      return this.get(current.organizationId, current.id) as WebhookEndpoint;
    },
    remove(organizationId: string, id: string): boolean {
      return db.prepare('DELETE FROM webhook_endpoints WHERE id = ? AND organization_id = ?').run(id, organizationId).changes > 0;
    },
    /** The delivery log: every attempt, newest first. */
    attempts(endpointId: string, page: { limit: number; offset: number }): { items: DeliveryAttempt[]; total: number } {
      const total = (db.prepare('SELECT count(*) AS n FROM webhook_attempts WHERE endpoint_id = ?').get(endpointId) as { n: number }).n;
      const rows = db.prepare<[string, number, number], AttemptRow>('SELECT * FROM webhook_attempts WHERE endpoint_id = ? ORDER BY id DESC LIMIT ? OFFSET ?')
        .all(endpointId, page.limit, page.offset);
      return {
        total,
        items: rows.map((r) => ({
          id: `att_${r.id}`, webhookId: r.webhook_id, event: r.event_type, attempt: r.attempt, attemptedAt: r.attempted_at,
          status: r.succeeded ? 'succeeded' : 'failed', responseCode: r.response_code, latencyMs: r.latency_ms, error: r.error, nextRetryAt: r.next_retry_at,
          deliveryId: `dlv_${r.delivery_id}`, eventId: r.webhook_id, nextAttemptAt: r.next_retry_at, createdAt: r.attempted_at,
        })),
      };
    },
  };
}

export type WebhookStore = ReturnType<typeof createWebhookStore>;
