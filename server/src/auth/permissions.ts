/** Every permission an API key can carry (docs/api-spec.md §4). A user session holds its role's (ROLE_PERMISSIONS). */
export const PERMISSIONS = [
  'chat',
  'conversations:read',
  'conversations:write',
  'analytics:read',
  'assistants:read',
  'assistants:write',
  'knowledge_bases:read',
  'knowledge_bases:write',
  'api_keys:write',
  'webhooks:write',
  'organizations:write',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export type Plan = 'free' | 'pro' | 'enterprise';

/** Member roles (docs/api-spec.md §11), from least to most. */
export const ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

const VIEWER: readonly Permission[] = ['chat', 'conversations:read', 'analytics:read', 'assistants:read', 'knowledge_bases:read'];
const EDITOR: readonly Permission[] = [...VIEWER, 'assistants:write', 'knowledge_bases:write', 'conversations:write'];
const ADMIN: readonly Permission[] = [...EDITOR, 'api_keys:write', 'webhooks:write'];

/**
 * What a user session may do, by the member's role: exactly the API-key permissions of the
 * matching key, never more (a viewer's key could hold no write permission, so the viewer holds
 * none). Members management is not a key permission: admins and owners (roleManagesMembers),
 * or a key with `organizations:write`.
 */
export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  viewer: new Set(VIEWER),
  editor: new Set(EDITOR),
  admin: new Set(ADMIN),
  owner: new Set(PERMISSIONS),
};

export function roleManagesMembers(role: Role | null | undefined): boolean {
  return role === 'admin' || role === 'owner';
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export const PLAN_LIMITS: Record<Plan, { perMinute: number; perDay: number }> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  enterprise: { perMinute: 1_000, perDay: 100_000 },
};

/** Who is calling: resolved once per request by the auth middleware. */
export interface Principal {
  kind: 'user' | 'api_key';
  /** The credential rate limits are counted against: the session or the key. */
  credentialId: string;
  organizationId: string;
  plan: Plan;
  userId: string | null;
  /** The member's role for a user session; null for an API key. */
  role?: Role | null;
  permissions: ReadonlySet<Permission>;
  /** A key bound to one assistant sees that assistant alone. */
  assistantId: string | null;
  limits: { perMinute: number; perDay: number };
}
