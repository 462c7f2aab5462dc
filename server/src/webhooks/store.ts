import type { Creator } from '../api-keys/service.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import type { Queryable, Storage } from '../storage/port.js';
import { newWebhookSecret } from './signing.js';

export type DisabledReason = 'manual' | 'gone' | 'failing';

/** The wire shape of a webhook endpoint; `secret` only in the answer to its creation. */
export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  assistantId: string | null;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabledReason: DisabledReason | null;
  disabledAt: string | null;
  failingSince: string | null;
  pendingDeliveries: number;
  createdAt: string;
  updatedAt: string;
  /** Who created it (an API key: the key's creator); null when unknown (before migration 029). */
  createdBy: Creator | null;
}

export interface DeliveryAttempt {
  id: string;
  webhookId: string;
  event: string;
  attempt: number;
  attemptedAt: string;
  status: 'succeeded' | 'failed';
  responseCode: number | null;
  latencyMs: number;
  error: string | null;
  nextRetryAt: string | null;
  /** The dashboard's names: the delivery (what redeliver takes), the event's webhook-id, when the next attempt is due, when this one ran. */
  deliveryId: string;
  eventId: string;
  nextAttemptAt: string | null;
  createdAt: string;
}

interface EndpointRow {
  id: string;
  organization_id: string;
  assistant_id: string | null;
  url: string;
  description: string | null;
  events: string;
  secret: string;
  enabled: number;
  disabled_reason: DisabledReason | null;
  disabled_at: string | null;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
  pending: number;
  created_by: string | null;
  creator_email: string | null;
  creator_name: string | null;
}
interface AttemptRow {
  id: number;
  delivery_id: number;
  webhook_id: string;
  event_type: string;
  attempt: number;
  attempted_at: string;
  succeeded: number;
  response_code: number | null;
  latency_ms: number;
  error: string | null;
  next_retry_at: string | null;
}

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  organizationId: r.organization_id,
  assistantId: r.assistant_id,
  url: r.url,
  description: r.description,
  events: parseJson(r.events, []),
  enabled: r.enabled === 1,
  disabledReason: r.disabled_reason,
  disabledAt: r.disabled_at,
  failingSince: r.failing_since,
  pendingDeliveries: r.pending,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  createdBy: r.created_by ? { userId: r.created_by, email: r.creator_email, name: r.creator_name } : null,
});

const SELECT = `SELECT e.*, (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending') AS pending,
  u.email AS creator_email, u.name AS creator_name FROM webhook_endpoints e LEFT JOIN users u ON u.id = e.created_by`;

/** Endpoints per organization, so one tenant cannot make every event fan out without bound. */
export const MAX_ENDPOINTS_PER_ORG = 50;

export interface EndpointInput {
  url: string;
  events: string[];
  assistantId: string | null;
  description: string | null;
}

/** The endpoints a member created in an organization, for the removal flow. */
export async function webhooksCreatedBy(
  q: Queryable,
  organizationId: string,
  userId: string,
): Promise<Array<{ id: string; url: string; enabled: number }>> {
  return q.all('SELECT id, url, enabled FROM webhook_endpoints WHERE organization_id = ? AND created_by = ? ORDER BY created_at, id', [
    organizationId,
    userId,
  ]);
}

/** Webhook endpoints of organizations, and their delivery log. */
export interface WebhookStore {
  /** One endpoint of the organization (with its pending count and creator), or null. */
  get(organizationId: string, id: string): Promise<WebhookEndpoint | null>;
  /** How many endpoints the organization has (checked against MAX_ENDPOINTS_PER_ORG). */
  count(organizationId: string): Promise<number>;
  /** A new endpoint with a fresh signing secret, returned this once. */
  create(
    organizationId: string,
    input: EndpointInput & { createdBy?: string | null },
    at: string,
  ): Promise<WebhookEndpoint & { secret: string }>;
  /** A page of endpoints, newest first; `onlyAssistantId`: keys bound to one assistant see that assistant's endpoints alone. */
  list(
    organizationId: string,
    onlyAssistantId: string | null,
    page: { limit: number; offset: number },
  ): Promise<{ items: WebhookEndpoint[]; total: number }>;
  /** Applies a patch; re-enabling clears the failure streak, disabling by hand records 'manual'. */
  update(current: WebhookEndpoint, patch: Partial<EndpointInput> & { enabled?: boolean | undefined }, at: string): Promise<WebhookEndpoint>;
  /** Deletes an endpoint; false when the organization had none with this id. */
  remove(organizationId: string, id: string): Promise<boolean>;
  /** The delivery log: every attempt, newest first. */
  attempts(endpointId: string, page: { limit: number; offset: number }): Promise<{ items: DeliveryAttempt[]; total: number }>;
}

export function createWebhookStore(storage: Storage): WebhookStore {
  const get = async (organizationId: string, id: string): Promise<WebhookEndpoint | null> => {
    const row = await storage.get<EndpointRow>(`${SELECT} WHERE e.id = ? AND e.organization_id = ?`, [id, organizationId]);
    return row ? toEndpoint(row) : null;
  };

  return {
    get,
    async count(organizationId: string): Promise<number> {
      return (
        (await storage.get<{ n: number }>('SELECT count(*) AS n FROM webhook_endpoints WHERE organization_id = ?', [organizationId]))?.n ??
        0
      );
    },
    async create(
      organizationId: string,
      input: EndpointInput & { createdBy?: string | null },
      at: string,
    ): Promise<WebhookEndpoint & { secret: string }> {
      const id = newId('wh');
      const secret = newWebhookSecret();
      await storage.run(
        `INSERT INTO webhook_endpoints (id, organization_id, assistant_id, url, description, events, secret, created_at, updated_at,
        created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          organizationId,
          input.assistantId,
          input.url,
          input.description,
          JSON.stringify(input.events),
          secret,
          at,
          at,
          input.createdBy ?? null,
        ],
      );
      return { ...((await get(organizationId, id)) as WebhookEndpoint), secret };
    },
    async list(organizationId: string, onlyAssistantId: string | null, page: { limit: number; offset: number }) {
      // Built in TypeScript rather than `? IS NULL OR …`: PostgreSQL cannot type a parameter that is only tested for NULL.
      const where = onlyAssistantId === null ? 'e.organization_id = ?' : 'e.organization_id = ? AND e.assistant_id = ?';
      const params = onlyAssistantId === null ? [organizationId] : [organizationId, onlyAssistantId];
      const total = (await storage.get<{ n: number }>(`SELECT count(*) AS n FROM webhook_endpoints e WHERE ${where}`, params))?.n ?? 0;
      // Newest first; the id breaks ties between endpoints created in the same millisecond.
      const rows = await storage.all<EndpointRow>(`${SELECT} WHERE ${where} ORDER BY e.created_at DESC, e.id DESC LIMIT ? OFFSET ?`, [
        ...params,
        page.limit,
        page.offset,
      ]);
      return { items: rows.map(toEndpoint), total };
    },
    async update(
      current: WebhookEndpoint,
      patch: Partial<EndpointInput> & { enabled?: boolean | undefined },
      at: string,
    ): Promise<WebhookEndpoint> {
      const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as WebhookEndpoint;
      // Re-enabling starts afresh: no failure streak, no reason; disabling by hand says so.
      const reenabled = patch.enabled === true && !current.enabled;
      const disabled = patch.enabled === false && current.enabled;
      await storage.run(
        `UPDATE webhook_endpoints SET url = ?, events = ?, assistant_id = ?, description = ?, enabled = ?,
          disabled_reason = ?, disabled_at = ?, failing_since = ?, updated_at = ? WHERE id = ?`,
        [
          next.url,
          JSON.stringify(next.events),
          next.assistantId,
          next.description,
          next.enabled ? 1 : 0,
          reenabled ? null : disabled ? 'manual' : current.disabledReason,
          reenabled ? null : disabled ? at : current.disabledAt,
          reenabled ? null : current.failingSince,
          at,
          current.id,
        ],
      );
      return (await get(current.organizationId, current.id)) as WebhookEndpoint;
    },
    async remove(organizationId: string, id: string): Promise<boolean> {
      return (await storage.run('DELETE FROM webhook_endpoints WHERE id = ? AND organization_id = ?', [id, organizationId])).changes > 0;
    },
    async attempts(endpointId: string, page: { limit: number; offset: number }): Promise<{ items: DeliveryAttempt[]; total: number }> {
      const total =
        (await storage.get<{ n: number }>('SELECT count(*) AS n FROM webhook_attempts WHERE endpoint_id = ?', [endpointId]))?.n ?? 0;
      const rows = await storage.all<AttemptRow>('SELECT * FROM webhook_attempts WHERE endpoint_id = ? ORDER BY id DESC LIMIT ? OFFSET ?', [
        endpointId,
        page.limit,
        page.offset,
      ]);
      return {
        total,
        items: rows.map((r) => ({
          id: `att_${r.id}`,
          webhookId: r.webhook_id,
          event: r.event_type,
          attempt: r.attempt,
          attemptedAt: r.attempted_at,
          status: r.succeeded ? 'succeeded' : 'failed',
          responseCode: r.response_code,
          latencyMs: r.latency_ms,
          error: r.error,
          nextRetryAt: r.next_retry_at,
          deliveryId: `dlv_${r.delivery_id}`,
          eventId: r.webhook_id,
          nextAttemptAt: r.next_retry_at,
          createdAt: r.attempted_at,
        })),
      };
    },
  };
}
