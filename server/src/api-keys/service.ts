import type { Permission } from '../auth/permissions.js';
import { hashToken, newApiKeyToken } from '../auth/tokens.js';
import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';

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

/** Inserts a key; the plaintext token exists only in the return value. */
export function insertApiKey(db: Db, organizationId: string, input: NewApiKey, at: string): { record: ApiKeyRecord; key: string } {
  const key = newApiKeyToken();
  const id = newId('key');
  db.prepare(`INSERT INTO api_keys (id, organization_id, name, key_hash, last4, permissions, assistant_id, allowed_ips, rate_per_minute, rate_per_day, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
    id, organizationId, input.name, hashToken(key), key.slice(-4), JSON.stringify(input.permissions), input.assistantId,
    JSON.stringify(input.allowedIps), input.rateLimit.perMinute, input.rateLimit.perDay, at, input.expiresAt,
  );
  const record = getApiKey(db, organizationId, id);
  if (!record) throw new Error('inserted key vanished');
  return { record, key };
}

export function getApiKey(db: Db, organizationId: string, id: string): ApiKeyRecord | null {
  const row = db.prepare<[string, string], KeyRow>('SELECT * FROM api_keys WHERE id = ? AND organization_id = ?').get(id, organizationId);
  return row ? toRecord(row) : null;
}

export function listApiKeys(db: Db, organizationId: string, assistantId: string | null, page: { limit: number; offset: number }) {
  const where = 'organization_id = ? AND revoked_at IS NULL AND (? IS NULL OR assistant_id = ?)';
  const args = [organizationId, assistantId, assistantId] as const;
  const total = (db.prepare(`SELECT count(*) AS n FROM api_keys WHERE ${where}`).get(...args) as { n: number }).n;
  const rows = db.prepare(`SELECT * FROM api_keys WHERE ${where} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`).all(...args, page.limit, page.offset) as KeyRow[];
  return { items: rows.map(toRecord), total };
}

export function revokeApiKey(db: Db, organizationId: string, id: string, at: string): boolean {
  return db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND organization_id = ? AND revoked_at IS NULL').run(at, id, organizationId).changes > 0;
}

/**
 * Issues a replacement with the same settings; the old key keeps working for `graceSeconds`
 * (0 = revoked now), so deployments can swap keys without downtime.
 */
export function rotateApiKey(db: Db, organizationId: string, id: string, graceSeconds: number, nowMs: number) {
  return db.transaction(() => {
    const old = getApiKey(db, organizationId, id);
    if (!old || old.revokedAt !== null) return null;
    const at = new Date(nowMs).toISOString();
    const created = insertApiKey(db, organizationId, {
      name: old.name, permissions: old.permissions, assistantId: old.assistantId, allowedIps: old.allowedIps,
      rateLimit: old.rateLimit, expiresAt: old.expiresAt,
    }, at);
    if (graceSeconds === 0) {
      db.prepare('UPDATE api_keys SET revoked_at = ?, rotated_to = ? WHERE id = ?').run(at, created.record.id, id);
    } else {
      const graceEnd = nowMs + graceSeconds * 1000;
      const expiresAt = old.expiresAt && Date.parse(old.expiresAt) < graceEnd ? old.expiresAt : new Date(graceEnd).toISOString();
      db.prepare('UPDATE api_keys SET expires_at = ?, rotated_to = ? WHERE id = ?').run(expiresAt, created.record.id, id);
    }
    return created;
  })();
}
