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
  /** Who minted it (a key minted by a key: that key's creator); null when unknown (before migration 029). */
  createdBy: Creator | null;
}

/** A member who created something, as the key and webhook lists show them. */
export interface Creator {
  userId: string;
  email: string | null;
  name: string | null;
}

interface KeyRow {
  id: string;
  name: string;
  last4: string;
  permissions: string;
  assistant_id: string | null;
  allowed_ips: string;
  rate_per_minute: number | null;
  rate_per_day: number | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  created_by: string | null;
  creator_email?: string | null;
  creator_name?: string | null;
}

const toRecord = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  last4: r.last4,
  permissions: parseJson<Permission[]>(r.permissions, []),
  assistantId: r.assistant_id,
  allowedIps: parseJson<string[]>(r.allowed_ips, []),
  rateLimit: { perMinute: r.rate_per_minute, perDay: r.rate_per_day },
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
  createdBy: r.created_by ? { userId: r.created_by, email: r.creator_email ?? null, name: r.creator_name ?? null } : null,
});

/** Key columns with the creator's email and name (a LEFT JOIN: unknown creators stay null). */
const SELECT_KEYS = `SELECT k.*, u.email AS creator_email, u.name AS creator_name FROM api_keys k LEFT JOIN users u ON u.id = k.created_by`;

export interface NewApiKey {
  name: string;
  permissions: Permission[];
  assistantId: string | null;
  allowedIps: string[];
  rateLimit: { perMinute: number | null; perDay: number | null };
  expiresAt: string | null;
  /** The member minting it (see ApiKeyRecord.createdBy); omitted by the demo seed and benches. */
  createdBy?: string | null;
}

const INSERT = `INSERT INTO api_keys (id, organization_id, name, key_hash, last4, permissions, assistant_id, allowed_ips, rate_per_minute,
  rate_per_day, created_at, expires_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`;

/** A new key's plaintext token (returned once) and the row values that store its hash. */
function newKey(organizationId: string, input: NewApiKey, at: string): { key: string; params: Array<string | number | null> } {
  const key = newApiKeyToken();
  return {
    key,
    params: [
      newId('key'),
      organizationId,
      input.name,
      hashToken(key),
      key.slice(-4),
      JSON.stringify(input.permissions),
      input.assistantId,
      JSON.stringify(input.allowedIps),
      input.rateLimit.perMinute,
      input.rateLimit.perDay,
      at,
      input.expiresAt,
      input.createdBy ?? null,
    ],
  };
}

/** Inserts a key; the plaintext token exists only in the return value. */
export function insertApiKey(
  q: Queryable,
  organizationId: string,
  input: NewApiKey,
  at: string,
): Promise<{ record: ApiKeyRecord; key: string }>;
/** @deprecated Sync form for callers still on better-sqlite3 (demo seed, benches); pass the storage or a `Tx`. */
export function insertApiKey(db: Db, organizationId: string, input: NewApiKey, at: string): { record: ApiKeyRecord; key: string };
export function insertApiKey(
  q: Queryable | Db,
  organizationId: string,
  input: NewApiKey,
  at: string,
): Promise<{ record: ApiKeyRecord; key: string }> | { record: ApiKeyRecord; key: string } {
  const { key, params } = newKey(organizationId, input, at);
  const inserted = (row: KeyRow | undefined) => {
    if (!row) throw new Error('inserted key vanished');
    return { record: toRecord(row), key };
  };
  if (!('dialect' in q)) return inserted(q.prepare<unknown[], KeyRow>(INSERT).get(...params));
  // RETURNING has no creator email or name (SQLite cannot join an INSERT): read the row back.
  return q
    .get<KeyRow>(INSERT, params)
    .then(async (row) => inserted(row?.created_by ? await q.get<KeyRow>(`${SELECT_KEYS} WHERE k.id = ?`, [row.id]) : row));
}

export async function getApiKey(q: Queryable, organizationId: string, id: string): Promise<ApiKeyRecord | null> {
  const row = await q.get<KeyRow>(`${SELECT_KEYS} WHERE k.id = ? AND k.organization_id = ?`, [id, organizationId]);
  return row ? toRecord(row) : null;
}

export async function listApiKeys(
  q: Queryable,
  organizationId: string,
  assistantId: string | null,
  page: { limit: number; offset: number },
) {
  // Optional filters are left out of the SQL, not written `@x IS NULL OR …`: PostgreSQL cannot type
  // a parameter it first meets in `IS NULL`.
  const where = `k.organization_id = @org AND k.revoked_at IS NULL${assistantId === null ? '' : ' AND k.assistant_id = @assistantId'}`;
  const args: Record<string, string> = assistantId === null ? { org: organizationId } : { org: organizationId, assistantId };
  const total = (await q.get<{ n: number }>(`SELECT COUNT(*) AS n FROM api_keys k WHERE ${where}`, args))?.n ?? 0;
  // Ids are time-ordered (lib/ids.ts): the tie-break on equal created_at is the creation order.
  const rows = await q.all<KeyRow>(`${SELECT_KEYS} WHERE ${where} ORDER BY k.created_at DESC, k.id DESC LIMIT @limit OFFSET @offset`, {
    ...args,
    limit: page.limit,
    offset: page.offset,
  });
  return { items: rows.map(toRecord), total };
}

export async function revokeApiKey(q: Queryable, organizationId: string, id: string, at: string): Promise<boolean> {
  return (
    (
      await q.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND organization_id = ? AND revoked_at IS NULL', [
        at,
        id,
        organizationId,
      ])
    ).changes > 0
  );
}

/**
 * Issues a replacement with the same settings; the old key keeps working for `graceSeconds`
 * (0 = revoked now), so deployments can swap keys without downtime.
 */
export async function rotateApiKey(
  tx: Tx,
  organizationId: string,
  id: string,
  graceSeconds: number,
  nowMs: number,
  rotatedBy: string | null,
) {
  const old = await getApiKey(tx, organizationId, id);
  if (!old || old.revokedAt !== null) return null;
  const at = new Date(nowMs).toISOString();
  const created = await insertApiKey(
    tx,
    organizationId,
    {
      name: old.name,
      permissions: old.permissions,
      assistantId: old.assistantId,
      allowedIps: old.allowedIps,
      rateLimit: old.rateLimit,
      expiresAt: old.expiresAt,
      createdBy: rotatedBy,
    },
    at,
  );
  if (graceSeconds === 0) {
    await tx.run('UPDATE api_keys SET revoked_at = ?, rotated_to = ? WHERE id = ?', [at, created.record.id, id]);
  } else {
    const graceEnd = nowMs + graceSeconds * 1000;
    const expiresAt = old.expiresAt && Date.parse(old.expiresAt) < graceEnd ? old.expiresAt : new Date(graceEnd).toISOString();
    await tx.run('UPDATE api_keys SET expires_at = ?, rotated_to = ? WHERE id = ?', [expiresAt, created.record.id, id]);
  }
  return created;
}

/**
 * The user a new key or webhook is recorded as created by: the signed-in member, or for an API
 * key the member who created that key (null when unknown), so removing a member reaches every
 * key their keys minted.
 */
export async function creatorOf(
  q: Queryable,
  p: { kind: 'user' | 'api_key'; userId: string | null; credentialId: string },
): Promise<string | null> {
  if (p.kind === 'user') return p.userId;
  return (await q.get<{ created_by: string | null }>('SELECT created_by FROM api_keys WHERE id = ?', [p.credentialId]))?.created_by ?? null;
}

/** The keys (not revoked) a member created in an organization, for the removal flow. */
export async function keysCreatedBy(
  q: Queryable,
  organizationId: string,
  userId: string,
): Promise<Array<{ id: string; name: string; last4: string }>> {
  return q.all(
    `SELECT id, name, last4 FROM api_keys WHERE organization_id = ? AND created_by = ? AND revoked_at IS NULL
    ORDER BY created_at, id`,
    [organizationId, userId],
  );
}
