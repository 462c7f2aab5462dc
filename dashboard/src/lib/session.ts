import { computed, signal } from '@preact/signals';
import { api, ApiError } from './api.js';

// Who is signed in, in which organization, with which role: loaded once from
// GET /v1/auth/me, cleared on sign-out or on any 401.

export type Role = 'owner' | 'admin' | 'editor' | 'viewer';

export interface Me {
  user: { id: string; email: string; name: string | null } | null;
  organization: { id: string; name: string; plan: string; limits?: { perMinute: number; perDay: number } };
  role: Role | null;
  permissions: string[];
}

export const me = signal<Me | null>(null);
/** 'unknown' until the first /auth/me answers. */
export const sessionState = signal<'unknown' | 'signed-in' | 'signed-out'>('unknown');

export const permissions = computed(() => new Set(me.value?.permissions ?? []));
/** The UI hides or disables what the API would refuse; the API stays the authority. */
export const can = (permission: string): boolean => permissions.value.has(permission);
export const isAdmin = computed(() => me.value?.role === 'owner' || me.value?.role === 'admin');

export async function loadSession(): Promise<Me | null> {
  try {
    me.value = await api.get<Me>('/auth/me', { quiet401: true });
    sessionState.value = 'signed-in';
  } catch (err) {
    if (!(err instanceof ApiError) || err.kind !== 'auth') throw err;
    me.value = null;
    sessionState.value = 'signed-out';
  }
  return me.value;
}

export async function signOut(): Promise<void> {
  try {
    await api.post('/auth/logout', undefined, { quiet401: true });
  } finally {
    me.value = null;
    sessionState.value = 'signed-out';
  }
}
