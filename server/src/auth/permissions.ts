/** Every permission an API key can carry (API.md §4). A user session holds them all. */
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
  permissions: ReadonlySet<Permission>;
  /** A key bound to one assistant sees that assistant alone. */
  assistantId: string | null;
  limits: { perMinute: number; perDay: number };
}
