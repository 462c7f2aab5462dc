import type { Principal } from '../auth/permissions.js';
import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';

export type AuditAction = 'created' | 'updated' | 'deleted';

export interface AuditEntry {
  id: string; assistantId: string; userId: string | null; userEmail: string | null; apiKeyId: string | null;
  action: AuditAction; fields: string[]; createdAt: string;
}

/** Top-level configuration keys whose value differs (prompt, model, knowledgeBases, templates…). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => canonical(before[k]) !== canonical(after[k])).sort();
}

/** JSON with object keys sorted: the same value stored twice may list its keys in another order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v)) ?? 'undefined';
}

/**
 * Appends one entry; call it inside the transaction of the change it records, so the log and
 * the assistant never disagree. An unchanged PATCH (no fields) is not an event.
 */
export function recordAssistantChange(db: Db, e: { principal: Principal; assistantId: string; action: AuditAction; fields: string[]; at: string }): void {
  if (e.action === 'updated' && !e.fields.length) return;
  db.prepare(`INSERT INTO assistant_audit (id, organization_id, assistant_id, user_id, api_key_id, action, fields, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(newId('aud'), e.principal.organizationId, e.assistantId, e.principal.userId,
    e.principal.kind === 'api_key' ? e.principal.credentialId : null, e.action, JSON.stringify(e.fields), e.at);
}

export interface AuditFilter { org: string; assistantId: string | null; from: string | null; to: string | null }

/** Newest first. */
export function listAudit(db: Db, f: AuditFilter, page: { limit: number; offset: number }): { items: AuditEntry[]; total: number } {
  const where = `a.organization_id = @org AND (@assistantId IS NULL OR a.assistant_id = @assistantId)
    AND (@from IS NULL OR a.created_at >= @from) AND (@to IS NULL OR a.created_at <= @to)`;
  const total = (db.prepare(`SELECT count(*) AS n FROM assistant_audit a WHERE ${where}`).get(f) as { n: number }).n;
  const rows = db.prepare(`SELECT a.id, a.assistant_id AS assistantId, a.user_id AS userId, u.email AS userEmail, a.api_key_id AS apiKeyId,
      a.action, a.fields, a.created_at AS createdAt
    FROM assistant_audit a LEFT JOIN users u ON u.id = a.user_id WHERE ${where} ORDER BY a.created_at DESC, a.id DESC LIMIT @limit OFFSET @offset`)
    .all({ ...f, limit: page.limit, offset: page.offset }) as (Omit<AuditEntry, 'fields'> & { fields: string })[];
  return { items: rows.map((r) => ({ ...r, fields: parseJson<string[]>(r.fields, []) })), total };
}
