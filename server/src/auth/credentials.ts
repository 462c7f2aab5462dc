import { isoAt } from '../lib/clock.js';
import { parseIpRule, type IpRule } from '../lib/ip.js';
import { parseJson } from '../lib/json.js';
import { isRole, PLAN_LIMITS, ROLE_PERMISSIONS, type Permission, type Plan, type Principal } from './permissions.js';
import type { Queryable } from '../storage/port.js';
import { hashToken } from './tokens.js';

interface KeyRow {
  id: string; organization_id: string; plan: Plan; permissions: string; assistant_id: string | null;
  allowed_ips: string; rate_per_minute: number | null; rate_per_day: number | null;
  expires_at: string | null; revoked_at: string | null; last_used_at: string | null;
}
interface SessionRow { id: string; user_id: string; organization_id: string; plan: Plan; expires_at: string; revoked_at: string | null; role: string | null }

export interface ResolvedCredential { principal: Principal; allowedIps: IpRule[] }

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Floor of the limits of a dashboard (cookie) session: one person clicking around (the analytics
 * page alone makes 8 calls per filter change) must not hit a free plan's 60/min meant for
 * integrations. Still per session, still exact; a higher plan keeps its own figures. Bearer
 * session tokens keep the plan's limits (API.md §5).
 */
export const DASHBOARD_SESSION_LIMITS = { perMinute: 600, perDay: 20_000 } as const;

/** How the credential came: the dashboard's session cookie (passed the CSRF guard) or a bearer token. */
export interface PresentedVia { dashboardCookie?: boolean }

const SQL = {
  keyByHash: `SELECT k.id, k.organization_id, o.plan, k.permissions, k.assistant_id, k.allowed_ips, k.rate_per_minute,
      k.rate_per_day, k.expires_at, k.revoked_at, k.last_used_at
    FROM api_keys k JOIN organizations o ON o.id = k.organization_id WHERE k.key_hash = ?`,
  sessionByHash: `SELECT s.id, s.user_id, s.organization_id, o.plan, s.expires_at, s.revoked_at, m.role
    FROM user_sessions s JOIN organizations o ON o.id = s.organization_id
    LEFT JOIN memberships m ON m.user_id = s.user_id AND m.organization_id = s.organization_id
    WHERE s.token_hash = ?`,
  // Conditional: requests of one key racing (or on other instances) write it once per minute, not once each.
  touchKey: 'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
} as const;

/**
 * Resolves bearer tokens to principals, reading the credential on every request (no cache: a
 * revocation, a role change or a removal applies at once). One read per request; an API key
 * also writes last_used_at, at most once a minute.
 */
export function createCredentialResolver(q: Queryable) {
  async function resolveKey(hash: string, nowMs: number): Promise<ResolvedCredential | null> {
    const row = await q.get<KeyRow>(SQL.keyByHash, [hash]);
    if (!row || row.revoked_at !== null) return null;
    if (row.expires_at !== null && Date.parse(row.expires_at) <= nowMs) return null;
    // last_used_at is advisory: writing it at most once a minute keeps the hot path read-only.
    if (row.last_used_at === null || nowMs - Date.parse(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
      await q.run(SQL.touchKey, [isoAt(nowMs), row.id, isoAt(nowMs - LAST_USED_RESOLUTION_MS)]);
    }
    const plan = PLAN_LIMITS[row.plan];
    return {
      principal: {
        kind: 'api_key', credentialId: row.id, organizationId: row.organization_id, plan: row.plan, userId: null,
        permissions: new Set(parseJson<Permission[]>(row.permissions, [])), assistantId: row.assistant_id,
        limits: { perMinute: Math.min(plan.perMinute, row.rate_per_minute ?? Infinity), perDay: Math.min(plan.perDay, row.rate_per_day ?? Infinity) },
      },
      allowedIps: parseJson<string[]>(row.allowed_ips, []).flatMap((r) => parseIpRule(r) ?? []),
    };
  }

  async function resolveSession(hash: string, nowMs: number, via: PresentedVia): Promise<ResolvedCredential | null> {
    const row = await q.get<SessionRow>(SQL.sessionByHash, [hash]);
    if (!row || row.revoked_at !== null || Date.parse(row.expires_at) <= nowMs) return null;
    // The role is read per request: a role change or a removal applies to live sessions at once.
    if (!isRole(row.role)) return null;
    const plan = PLAN_LIMITS[row.plan];
    const limits = via.dashboardCookie
      ? { perMinute: Math.max(plan.perMinute, DASHBOARD_SESSION_LIMITS.perMinute), perDay: Math.max(plan.perDay, DASHBOARD_SESSION_LIMITS.perDay) }
      : { ...plan };
    return {
      principal: {
        kind: 'user', credentialId: row.id, organizationId: row.organization_id, plan: row.plan, userId: row.user_id, role: row.role,
        permissions: ROLE_PERMISSIONS[row.role], assistantId: null, limits,
      },
      allowedIps: [],
    };
  }

  return {
    resolve(token: string, nowMs: number, via: PresentedVia = {}): Promise<ResolvedCredential | null> {
      const hash = hashToken(token);
      return token.startsWith('sk_') ? resolveKey(hash, nowMs) : resolveSession(hash, nowMs, via);
    },
  };
}

export type CredentialResolver = ReturnType<typeof createCredentialResolver>;
