import { computed, signal } from '@preact/signals';
import { api, ApiError } from './api.js';
import type { ApiData } from '../api/types.js';

// Who is signed in, in which organization, with which role: loaded once from
// GET /v1/auth/me, cleared on sign-out or on any 401.

export type Role = 'owner' | 'admin' | 'editor' | 'viewer';

export type Me = ApiData<'getAuthMe'>;

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

/**
 * Never rejects: the buttons that call it go to the sign-in page next, whatever happened. If the
 * logout request itself failed (offline), the page still forgets the session; the cookie is
 * httpOnly and expires on its own.
 */
export async function signOut(): Promise<void> {
  try {
    await api.post('/auth/logout', undefined, { quiet401: true });
  } catch {
    // Signed out here either way (see above).
  } finally {
    me.value = null;
    sessionState.value = 'signed-out';
  }
}
