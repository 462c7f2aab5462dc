import { signal } from '@preact/signals';
import type { ApiClient } from '../lib/api.js';
import { loadable, submission } from '../lib/model.js';
import type { Role } from '../lib/session.js';

// Accepting an invitation link (public): shows the organization and role, then either makes a
// new account or signs an existing one in; either way the user joins with that role.

export interface InvitationInfo { organization: { id: string; name: string }; role: Exclude<Role, 'owner'>; email: string | null; expiresAt: string }

export function createInviteModel(api: ApiClient, token: string) {
  const path = `/invitations/${encodeURIComponent(token)}`;
  const info = loadable(() => api.get<InvitationInfo>(path, { quiet401: true }));
  const mode = signal<'new' | 'existing'>('new');
  const email = signal('');
  const password = signal('');
  const name = signal('');
  const submit = submission();
  return {
    info, mode, email, password, name, submit,
    async load() {
      await info.load();
      const fixed = info.data.value?.email;
      if (fixed) email.value = fixed;
    },
    /** Joins; the server answers with the session (a cookie in the browser). */
    accept() {
      return submit.run(() => api.post<{ user: { id: string; email: string }; organization: { id: string; name: string }; role: Role }>(`${path}/accept`, {
        email: email.value, password: password.value, ...(mode.value === 'new' && name.value.trim() ? { name: name.value.trim() } : {}),
      }, { quiet401: true }));
    },
  };
}

export type InviteModel = ReturnType<typeof createInviteModel>;
