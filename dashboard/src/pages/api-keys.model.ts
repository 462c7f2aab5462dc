import { signal, type Signal } from '@preact/signals';
import type { ApiClient, Page } from '../lib/api.js';
import { loadable, submission, type Loadable, type Submission } from '../lib/model.js';
import type { ApiItem } from '../api/types.js';

// API keys (docs/api-spec.md §4): list, create (the full key is answered once), rotate with a grace
// period (the new key answered once), revoke.

export const ALL_PERMISSIONS = [
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

export const PERMISSION_LABELS: Record<string, string> = {
  chat: 'Chat with assistants',
  'conversations:read': 'Read conversations',
  'conversations:write': 'Reply in conversations',
  'analytics:read': 'Read analytics',
  'assistants:read': 'Read assistants',
  'assistants:write': 'Change assistants',
  'knowledge_bases:read': 'Read knowledge bases',
  'knowledge_bases:write': 'Change knowledge bases',
  'api_keys:write': 'Manage API keys',
  'webhooks:write': 'Manage webhooks',
  'organizations:write': 'Manage the organization',
};

export type ApiKey = ApiItem<'getApiKeys'>;

export interface Creator {
  userId: string;
  email: string | null;
  name: string | null;
}

/** A creator as the lists show them: their name, else their email; "Unknown" for keys from before creators were recorded. */
export const creatorLabel = (c: Creator | null): string => (c ? (c.name ?? c.email ?? c.userId) : 'Unknown');

export interface AssistantRef {
  id: string;
  name: string;
}

/** The longest grace a rotation allows (7 days, docs/api-spec.md §4). */
export const MAX_GRACE_SECONDS = 604_800;

/** "203.0.113.4, 10.0.0.0/8\n::1" → the list the API takes. */
export const parseIpList = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** A date input's "YYYY-MM-DD" → the end of that day, local time, as ISO 8601. */
export function endOfDayIso(date: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const d = new Date(`${date}T23:59:59`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function graceSeconds(amount: string, unit: 'seconds' | 'hours'): number {
  const n = Number(amount);
  if (!Number.isFinite(n) || n < 0) return NaN;
  return Math.round(unit === 'hours' ? n * 3600 : n);
}

/** The API keys page: the organization's keys, the "new key" form, rotation and revocation. */
export interface ApiKeysModel {
  page: Signal<number>;
  /** One page of keys (20 a page). */
  keys: Loadable<Page<ApiKey>>;
  /** The assistants (first 100) a key may be bound to. */
  assistants: Loadable<AssistantRef[]>;
  /** The new key's form, as typed. */
  form: {
    name: Signal<string>;
    permissions: Signal<string[]>;
    assistantId: Signal<string>;
    allowedIps: Signal<string>;
    perMinute: Signal<string>;
    perDay: Signal<string>;
    expiresOn: Signal<string>;
    submit: Submission;
  };
  /** The full key, shown once after creation or rotation and then forgotten. */
  revealed: Signal<{ title: string; key: string; name: string } | null>;
  /** The rotation being confirmed: the key and the old one's grace period. */
  rotate: { target: Signal<ApiKey | null>; amount: Signal<string>; unit: Signal<'seconds' | 'hours'>; submit: Submission };
  /** The revocation being confirmed. */
  revoke: { target: Signal<ApiKey | null>; submit: Submission };
  /** The permissions the signed-in user may grant. */
  grantable: readonly string[];
  /** Loads the keys and the assistants. */
  load(): Promise<void>;
  /** Shows page `p`. */
  goTo(p: number): Promise<void>;
  /** Adds or removes one permission of the form. */
  togglePermission(permission: string, on: boolean): void;
  /** Creates a key from the form and reveals it. */
  create(): Promise<(ApiKey & { key: string }) | undefined>;
  /** Rotates the key being confirmed and reveals the new one. */
  rotateKey(): Promise<(ApiKey & { key: string }) | undefined>;
  /** Revokes the key being confirmed; true when done. */
  revokeKey(): Promise<boolean>;
  /** Forgets the full key: it is never shown again. */
  dismissRevealed(): void;
}

export function createApiKeysModel(api: ApiClient, grantable: readonly string[]): ApiKeysModel {
  const page = signal(1);
  const keys = loadable(() => api.page<ApiKey>('/api-keys', { page: page.value, limit: 20 }));
  const assistants = loadable(async () => (await api.page<AssistantRef>('/assistants', { limit: 100 })).items);

  const form = {
    name: signal(''),
    permissions: signal<string[]>(grantable.includes('chat') ? ['chat'] : []),
    assistantId: signal(''),
    allowedIps: signal(''),
    perMinute: signal(''),
    perDay: signal(''),
    expiresOn: signal(''),
    submit: submission(),
  };
  /** The full key, shown once after creation or rotation and then forgotten. */
  const revealed = signal<{ title: string; key: string; name: string } | null>(null);

  const rotate = {
    target: signal<ApiKey | null>(null),
    amount: signal('1'),
    unit: signal<'seconds' | 'hours'>('hours'),
    submit: submission(),
  };
  const revoke = { target: signal<ApiKey | null>(null), submit: submission() };

  const resetForm = () => {
    form.name.value = '';
    form.permissions.value = grantable.includes('chat') ? ['chat'] : [];
    form.assistantId.value = '';
    form.allowedIps.value = '';
    form.perMinute.value = '';
    form.perDay.value = '';
    form.expiresOn.value = '';
  };

  return {
    page,
    keys,
    assistants,
    form,
    revealed,
    rotate,
    revoke,
    grantable,
    async load() {
      await Promise.all([keys.load(), assistants.load()]);
    },
    async goTo(p: number) {
      page.value = p;
      await keys.load();
    },
    togglePermission(permission: string, on: boolean) {
      const set = new Set(form.permissions.value);
      if (on) set.add(permission);
      else set.delete(permission);
      form.permissions.value = ALL_PERMISSIONS.filter((p) => set.has(p));
    },
    async create(): Promise<(ApiKey & { key: string }) | undefined> {
      const perMinute = form.perMinute.value.trim();
      const perDay = form.perDay.value.trim();
      const created = await form.submit.run(() =>
        api.post<ApiKey & { key: string }>('/api-keys', {
          name: form.name.value,
          permissions: form.permissions.value,
          ...(form.assistantId.value ? { assistantId: form.assistantId.value } : {}),
          allowedIps: parseIpList(form.allowedIps.value),
          rateLimit: { ...(perMinute ? { perMinute: Number(perMinute) } : {}), ...(perDay ? { perDay: Number(perDay) } : {}) },
          ...(form.expiresOn.value ? { expiresAt: endOfDayIso(form.expiresOn.value) ?? form.expiresOn.value } : {}),
        }),
      );
      if (created) {
        revealed.value = { title: 'Your new API key', key: created.key, name: created.name };
        resetForm();
        await keys.load();
      }
      return created;
    },
    async rotateKey(): Promise<(ApiKey & { key: string }) | undefined> {
      const target = rotate.target.value;
      if (!target) return undefined;
      const seconds = graceSeconds(rotate.amount.value, rotate.unit.value);
      const created = await rotate.submit.run(() =>
        api.post<ApiKey & { key: string }>(`/api-keys/${encodeURIComponent(target.id)}/rotate`, { graceSeconds: seconds }),
      );
      if (created) {
        rotate.target.value = null;
        revealed.value = { title: 'The rotated key', key: created.key, name: created.name };
        await keys.load();
      }
      return created;
    },
    async revokeKey(): Promise<boolean> {
      const target = revoke.target.value;
      if (!target) return false;
      const ok = await revoke.submit.run(() => api.delete(`/api-keys/${encodeURIComponent(target.id)}`));
      if (ok === undefined) return false;
      revoke.target.value = null;
      await keys.load();
      return true;
    },
    dismissRevealed() {
      revealed.value = null;
    },
  };
}
