import { isoAt } from '../lib/clock.js';
import { parseIpRule, type IpRule } from '../lib/ip.js';
import { parseJson } from '../lib/json.js';
import { createTtlCache } from '../lib/ttl-cache.js';
import { isRole, PLAN_LIMITS, ROLE_PERMISSIONS, type Permission, type Plan, type Principal } from './permissions.js';
import type { Queryable } from '../storage/port.js';
import { hashToken } from './tokens.js';

interface KeyRow {
  id: string;
  organization_id: string;
  plan: Plan;
  permissions: string;
  assistant_id: string | null;
  allowed_ips: string;
  rate_per_minute: number | null;
  rate_per_day: number | null;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}
interface SessionRow {
  id: string;
  user_id: string;
  organization_id: string;
  plan: Plan;
  expires_at: string;
  revoked_at: string | null;
  role: string | null;
}

export interface ResolvedCredential {
  principal: Principal;
  allowedIps: IpRule[];
}

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Floor of the limits of a dashboard (cookie) session: one person clicking around (the analytics
 * page alone makes 8 calls per filter change) must not hit a free plan's 60/min meant for
 * integrations. Still per session, still exact; a higher plan keeps its own figures. Bearer
 * session tokens keep the plan's limits (docs/api-spec.md §5).
 */
export const DASHBOARD_SESSION_LIMITS = { perMinute: 600, perDay: 20_000 } as const;

/** How the credential came: the dashboard's session cookie (passed the CSRF guard) or a bearer token. */
export interface PresentedVia {
  dashboardCookie?: boolean;
}

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
 * How long this process trusts an API key it read (revoked, expiry moved, plan changed by
 * another instance): the bound on how stale a key may be here. Changes made through this
 * process (revoke, rotate, plan) drop its entries at once (forgetOrganization). The key read and
 * its JSON parsing were the largest single statement of a chat request (issue 14).
 */
export const CREDENTIAL_CACHE_TTL_MS = 5_000;
/** Keys held at most; the oldest read goes first (a burst of distinct keys cannot grow memory). */
const CREDENTIAL_CACHE_MAX = 10_000;

/** An API key as read, resolved once: what a request needs besides the time checks. */
interface CachedKey {
  resolved: ResolvedCredential;
  organizationId: string;
  expiresAtMs: number | null;
  lastUsedMs: number | null;
}

export interface CredentialResolverOptions {
  /** 0 turns the API key cache off (every request reads its key). */
  cacheTtlMs?: number;
}

/** Bearer tokens to principals (see createCredentialResolver for what is cached and for how long). */
export interface CredentialResolver {
  /**
   * Drops this process's keys of an organization: call it after a write that changes one of its
   * keys (revoke, rotate) or its plan has committed, so the next request reads it again.
   */
  forgetOrganization(organizationId: string): void;
  /** The principal a token (`sk_…` API key or session token) stands for; null when unknown, revoked or expired. */
  resolve(token: string, nowMs: number, via?: PresentedVia): Promise<ResolvedCredential | null>;
}

/**
 * Resolves bearer tokens to principals. User sessions are read on every request (a role change
 * or a removal applies at once; dashboard traffic is light). API keys, the integration hot path,
 * are kept for `cacheTtlMs` after a read: a change made through this process applies at once
 * (its routes call forgetOrganization), one made through another instance within the TTL.
 * An API key writes last_used_at at most once a minute.
 */
export function createCredentialResolver(q: Queryable, opts: CredentialResolverOptions = {}): CredentialResolver {
  const keys = createTtlCache<string, CachedKey>({
    ttlMs: opts.cacheTtlMs ?? CREDENTIAL_CACHE_TTL_MS,
    maxEntries: CREDENTIAL_CACHE_MAX,
    groupOf: (key) => key.organizationId,
  });

  async function readKey(hash: string): Promise<CachedKey | null> {
    const row = await q.get<KeyRow>(SQL.keyByHash, [hash]);
    if (!row || row.revoked_at !== null) return null;
    const plan = PLAN_LIMITS[row.plan];
    // Frozen: one resolved key serves many requests.
    return {
      resolved: {
        principal: Object.freeze({
          kind: 'api_key',
          credentialId: row.id,
          organizationId: row.organization_id,
          plan: row.plan,
          userId: null,
          permissions: new Set(parseJson<Permission[]>(row.permissions, [])),
          assistantId: row.assistant_id,
          limits: Object.freeze({
            perMinute: Math.min(plan.perMinute, row.rate_per_minute ?? Infinity),
            perDay: Math.min(plan.perDay, row.rate_per_day ?? Infinity),
          }),
        }),
        allowedIps: parseJson<string[]>(row.allowed_ips, []).flatMap((r) => parseIpRule(r) ?? []),
      },
      organizationId: row.organization_id,
      expiresAtMs: row.expires_at === null ? null : Date.parse(row.expires_at),
      lastUsedMs: row.last_used_at === null ? null : Date.parse(row.last_used_at),
    };
  }

  async function resolveKey(hash: string, nowMs: number): Promise<ResolvedCredential | null> {
    const entry = await keys.get(hash, nowMs, () => readKey(hash));
    if (!entry) return null;
    if (entry.expiresAtMs !== null && entry.expiresAtMs <= nowMs) return null;
    // last_used_at is advisory: writing it at most once a minute keeps the hot path read-only.
    if (entry.lastUsedMs === null || nowMs - entry.lastUsedMs >= LAST_USED_RESOLUTION_MS) {
      entry.lastUsedMs = nowMs;
      await q.run(SQL.touchKey, [isoAt(nowMs), entry.resolved.principal.credentialId, isoAt(nowMs - LAST_USED_RESOLUTION_MS)]);
    }
    return entry.resolved;
  }

  async function resolveSession(hash: string, nowMs: number, via: PresentedVia): Promise<ResolvedCredential | null> {
    const row = await q.get<SessionRow>(SQL.sessionByHash, [hash]);
    if (!row || row.revoked_at !== null || Date.parse(row.expires_at) <= nowMs) return null;
    // The role is read per request: a role change or a removal applies to live sessions at once.
    if (!isRole(row.role)) return null;
    const plan = PLAN_LIMITS[row.plan];
    const limits = via.dashboardCookie
      ? {
          perMinute: Math.max(plan.perMinute, DASHBOARD_SESSION_LIMITS.perMinute),
          perDay: Math.max(plan.perDay, DASHBOARD_SESSION_LIMITS.perDay),
        }
      : { ...plan };
    return {
      principal: {
        kind: 'user',
        credentialId: row.id,
        organizationId: row.organization_id,
        plan: row.plan,
        userId: row.user_id,
        role: row.role,
        permissions: ROLE_PERMISSIONS[row.role],
        assistantId: null,
        limits,
      },
      allowedIps: [],
    };
  }

  return {
    forgetOrganization(organizationId: string): void {
      keys.forgetGroup(organizationId);
    },
    resolve(token: string, nowMs: number, via: PresentedVia = {}): Promise<ResolvedCredential | null> {
      const hash = hashToken(token);
      return token.startsWith('sk_') ? resolveKey(hash, nowMs) : resolveSession(hash, nowMs, via);
    },
  };
}
