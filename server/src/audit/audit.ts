import type { Principal } from '../auth/permissions.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import type { Queryable, Tx } from '../storage/port.js';

export type AuditAction = 'created' | 'updated' | 'deleted';

export interface AuditEntry {
  id: string;
  assistantId: string;
  userId: string | null;
  userEmail: string | null;
  apiKeyId: string | null;
  action: AuditAction;
  fields: string[];
  createdAt: string;
}

/** Top-level configuration keys whose value differs (prompt, model, knowledgeBases, templates…). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => canonical(before[k]) !== canonical(after[k])).sort();
}

/** JSON with object keys sorted: the same value stored twice may list its keys in another order. */
function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
    ) ?? 'undefined'
  );
}

type AuditEvent = { principal: Principal; assistantId: string; action: AuditAction; fields: string[]; at: string };

const INSERT = `INSERT INTO assistant_audit (id, organization_id, assistant_id, user_id, api_key_id, action, fields, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

/** The row of an entry, or null for an unchanged PATCH (no fields: not an event). */
function auditRow(e: AuditEvent): Array<string | null> | null {
  if (e.action === 'updated' && !e.fields.length) return null;
  return [
    newId('aud'),
    e.principal.organizationId,
    e.assistantId,
    e.principal.userId,
    e.principal.kind === 'api_key' ? e.principal.credentialId : null,
    e.action,
    JSON.stringify(e.fields),
    e.at,
  ];
}

/**
 * Appends one entry with the transaction of the change it records, so the log and the
 * assistant never disagree. An unchanged PATCH (no fields) is not an event.
 */
export async function recordAssistantChange(tx: Tx, e: AuditEvent): Promise<void> {
  const row = auditRow(e);
  if (row) await tx.run(INSERT, row);
}

/** Whether the organization's log holds entries for the assistant (a deleted assistant keeps its log). */
export async function hasAuditEntries(q: Queryable, organizationId: string, assistantId: string): Promise<boolean> {
  return (
    (await q.get('SELECT 1 AS found FROM assistant_audit WHERE organization_id = ? AND assistant_id = ? LIMIT 1', [
      organizationId,
      assistantId,
    ])) !== undefined
  );
}

export interface AuditFilter {
  org: string;
  assistantId: string | null;
  from: string | null;
  to: string | null;
}

/** Newest first. */
export async function listAudit(
  q: Queryable,
  f: AuditFilter,
  page: { limit: number; offset: number },
): Promise<{ items: AuditEntry[]; total: number }> {
  // Only the filters given are in the SQL (PostgreSQL cannot type a parameter first met in `@x IS NULL`).
  const filter: Record<string, string> = { org: f.org };
  const conditions = ['a.organization_id = @org'];
  if (f.assistantId !== null) {
    filter.assistantId = f.assistantId;
    conditions.push('a.assistant_id = @assistantId');
  }
  if (f.from !== null) {
    filter.from = f.from;
    conditions.push('a.created_at >= @from');
  }
  if (f.to !== null) {
    filter.to = f.to;
    conditions.push('a.created_at <= @to');
  }
  const where = conditions.join(' AND ');
  const total = (await q.get<{ n: number }>(`SELECT COUNT(*) AS n FROM assistant_audit a WHERE ${where}`, filter))?.n ?? 0;
  // Lower-case aliases: PostgreSQL folds unquoted identifiers, so camelCase is mapped here.
  const rows = await q.all<{
    id: string;
    assistant_id: string;
    user_id: string | null;
    user_email: string | null;
    api_key_id: string | null;
    action: AuditAction;
    fields: string;
    created_at: string;
  }>(
    `SELECT a.id, a.assistant_id, a.user_id, u.email AS user_email, a.api_key_id, a.action, a.fields, a.created_at
    FROM assistant_audit a LEFT JOIN users u ON u.id = a.user_id WHERE ${where} ORDER BY a.created_at DESC, a.id DESC LIMIT @limit OFFSET @offset`,
    { ...filter, limit: page.limit, offset: page.offset },
  );
  return {
    items: rows.map((r) => ({
      id: r.id,
      assistantId: r.assistant_id,
      userId: r.user_id,
      userEmail: r.user_email,
      apiKeyId: r.api_key_id,
      action: r.action,
      fields: parseJson<string[]>(r.fields, []),
      createdAt: r.created_at,
    })),
    total,
  };
}
