import type { Permission } from '../auth/permissions.js';
import { hashToken, newApiKeyToken } from '../auth/tokens.js';
import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import type { Queryable, Tx } from '../storage/port.js';

export interface ApiKeyRecord {
  id: string;
  name: string;
  last4: string;
  permissions: Permission[];
  assistantId: string | null;
  allowedIps: string[];
  rateLimit: { perMinute: number | null; perDay: number | null };
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface KeyRow {
  id: string; name: string; last4: string; permissions: string; assistant_id: string | null; allowed_ips: string;
  rate_per_minute: number | null; rate_per_day: number | null; created_at: string; expires_at: string | null;
  last_used_at: string | null; revoked_at: string | null;
}

const toRecord = (r: KeyRow): ApiKeyRecord => ({
  id: r.id, name: r.name, last4: r.last4, permissions: parseJson<Permission[]>(r.permissions, []), assistantId: r.assistant_id,
  allowedIps: parseJson<string[]>(r.allowed_ips, []), rateLimit: { perMinute: r.rate_per_minute, perDay: r.rate_per_day },
  createdAt: r.created_at, expiresAt: r.expires_at, lastUsedAt: r.last_used_at, revokedAt: r.revoked_at,
});

export interface NewApiKey {
  name: string;
  permissions: Permission[];
  assistantId: string | null;
  allowedIps: string[];
  rateLimit: { perMinute: number | null; perDay: number | null };
  expiresAt: string | null;
}

const INSERT = `INSERT INTO api_keys (id, organization_id, name, key_hash, last4, permissions, assistant_id, allowed_ips, rate_per_minute, rate_per_day, created_at, expires_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`;

/** A new key's plaintext token (returned once) and the row values that store its hash. */
function newKey(organizationId: string, input: NewApiKey, at: string): { key: string; params: Array<string | number | null> } {
  const key = newApiKeyToken();
  return {
    key,
    params: [newId('key'), organizationId, input.name, hashToken(key), key.slice(-4), JSON.stringify(input.permissions), input.assistantId,
      JSON.stringify(input.allowedIps), input.rateLimit.perMinute, input.rateLimit.perDay, at, input.expiresAt],
  };
}

/** Inserts a key; the plaintext token exists only in the return value. */
export function insertApiKey(q: Queryable, organizationId: string, input: NewApiKey, at: string): Promise<{ record: ApiKeyRecord; key: string }>;
/** @deprecated Sync form for callers still on better-sqlite3 (demo seed, benches); pass the storage or a `Tx`. */
export function insertApiKey(db: Db, organizationId: string, input: NewApiKey, at: string): { record: ApiKeyRecord; key: string };
export function insertApiKey(q: Queryable | Db, organizationId: string, input: NewApiKey, at: string): Promise<{ record: ApiKeyRecord; key: string }> | { record: ApiKeyRecord; key: string } {
  const { key, params } = newKey(organizationId, input, at);
  const inserted = (row: KeyRow | undefined) => {
    if (!row) throw new Error('inserted key vanished');
    return { record: toRecord(row), key };
  };
  if (!('dialect' in q)) return inserted(q.prepare<unknown[], KeyRow>(INSERT).get(...params));
  return q.get<KeyRow>(INSERT, params).then(inserted);
}

export async function getApiKey(q: Queryable, organizationId: string, id: string): Promise<ApiKeyRecord | null> {
  const row = await q.get<KeyRow>('SELECT * FROM api_keys WHERE id = ? AND organization_id = ?', [id, organizationId]);
  return row ? toRecord(row) : null;
}

export async function listApiKeys(q: Queryable, organizationId: string, assistantId: string | null, page: { limit: number; offset: number }) {
  // Optional filters are left out of the SQL, not written `@x IS NULL OR …`: PostgreSQL cannot type
  // a parameter it first meets in `IS NULL`.
  const where = `organization_id = @org AND revoked_at IS NULL${assistantId === null ? '' : ' AND assistant_id = @assistantId'}`;
  const args: Record<string, string> = assistantId === null ? { org: organizationId } : { org: organizationId, assistantId };
  const total = (await q.get<{ n: number }>(`SELECT COUNT(*) AS n FROM api_keys WHERE ${where}`, args))?.n ?? 0;
  // Ids are time-ordered (lib/ids.ts): the tie-break on equal created_at is the creation order.
  const rows = await q.all<KeyRow>(`SELECT * FROM api_keys WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
    { ...args, limit: page.limit, offset: page.offset });
  return { items: rows.map(toRecord), total };
}

export async function revokeApiKey(q: Queryable, organizationId: string, id: string, at: string): Promise<boolean> {
  return (await q.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND organization_id = ? AND revoked_at IS NULL', [at, id, organizationId])).changes > 0;
}

/**
 * Issues a replacement with the same settings; the old key keeps working for `graceSeconds`
 * (0 = revoked now), so deployments can swap keys without downtime.
 */
export async function rotateApiKey(tx: Tx, organizationId: string, id: string, graceSeconds: number, nowMs: number) {
  const old = await getApiKey(tx, organizationId, id);
  if (!old || old.revokedAt !== null) return null;
  const at = new Date(nowMs).toISOString();
  const created = await insertApiKey(tx, organizationId, {
    name: old.name, permissions: old.permissions, assistantId: old.assistantId, allowedIps: old.allowedIps,
    rateLimit: old.rateLimit, expiresAt: old.expiresAt,
  }, at);
  if (graceSeconds === 0) {
    await tx.run('UPDATE api_keys SET revoked_at = ?, rotated_to = ? WHERE id = ?', [at, created.record.id, id]);
  } else {
    const graceEnd = nowMs + graceSeconds * 1000;
    const expiresAt = old.expiresAt && Date.parse(old.expiresAt) < graceEnd ? old.expiresAt : new Date(graceEnd).toISOString();
    await tx.run('UPDATE api_keys SET expires_at = ?, rotated_to = ? WHERE id = ?', [expiresAt, created.record.id, id]);
  }
  return created;
}
