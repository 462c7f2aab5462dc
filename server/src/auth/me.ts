import { getOrganization } from '../organizations/service.js';
import type { Queryable } from '../storage/port.js';
import { PERMISSIONS, PLAN_LIMITS, type Principal, type Role } from './permissions.js';
import { findUserById, type PublicUser } from './service.js';

export interface CallerDescription {
  user: PublicUser | null;
  organization: { id: string; name: string; plan: string; limits: { perMinute: number; perDay: number } };
  /** The credential's own limits: a key may lower the plan's, a dashboard session has interactive ones. */
  limits: { perMinute: number; perDay: number };
  role: Role | null;
  permissions: string[];
}

/**
 * `GET /v1/auth/me`: who the credential acts as. A user session: the user, its role and the
 * role's permissions; an API key: no user, no role, the key's permissions.
 * `organization.limits` are the plan's (what the settings page shows); `limits` the credential's.
 */
export async function describeCaller(q: Queryable, p: Principal): Promise<CallerDescription> {
  const [org, user] = await Promise.all([getOrganization(q, p.organizationId), p.userId ? findUserById(q, p.userId) : undefined]);
  return {
    user: user ? { id: user.id, email: user.email, name: user.name } : null,
    organization: { id: p.organizationId, name: org?.name ?? '', plan: p.plan, limits: { ...PLAN_LIMITS[p.plan] } },
    limits: { perMinute: p.limits.perMinute, perDay: p.limits.perDay },
    role: p.role ?? null,
    // In the canonical order, so the answer is stable.
    permissions: PERMISSIONS.filter((perm) => p.permissions.has(perm)),
  };
}
