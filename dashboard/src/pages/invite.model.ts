import { signal, type Signal } from '@preact/signals';
import type { ApiClient } from '../lib/api.js';
import { loadable, submission, type Loadable, type Submission } from '../lib/model.js';
import type { Role } from '../lib/session.js';

// Accepting an invitation link (public): shows the organization and role, then either makes a
// new account or signs an existing one in; either way the user joins with that role.

export interface InvitationInfo {
  organization: { id: string; name: string };
  role: Exclude<Role, 'owner'>;
  email: string | null;
  expiresAt: string;
}

/** Accepting an invitation: what it offers, and joining with a new account or an existing one. */
export interface InviteModel {
  /** The invitation: organization, role, and the email it is for, if any. */
  info: Loadable<InvitationInfo>;
  /** A new account, or one the person has already. */
  mode: Signal<'new' | 'existing'>;
  email: Signal<string>;
  password: Signal<string>;
  /** A new account's name. */
  name: Signal<string>;
  submit: Submission;
  /** Loads the invitation; an invitation for one email fixes the email field. */
  load(): Promise<void>;
  /** Joins; the server answers with the session (a cookie in the browser). */
  accept(): Promise<{ user: { id: string; email: string }; organization: { id: string; name: string }; role: Role } | undefined>;
}

export function createInviteModel(api: ApiClient, token: string): InviteModel {
  const path = `/invitations/${encodeURIComponent(token)}`;
  const info = loadable(() => api.get<InvitationInfo>(path, { quiet401: true }));
  const mode = signal<'new' | 'existing'>('new');
  const email = signal('');
  const password = signal('');
  const name = signal('');
  const submit = submission();
  return {
    info,
    mode,
    email,
    password,
    name,
    submit,
    async load() {
      await info.load();
      const fixed = info.data.value?.email;
      if (fixed) email.value = fixed;
    },
    accept() {
      return submit.run(() =>
        api.post<{ user: { id: string; email: string }; organization: { id: string; name: string }; role: Role }>(
          `${path}/accept`,
          {
            email: email.value,
            password: password.value,
            ...(mode.value === 'new' && name.value.trim() ? { name: name.value.trim() } : {}),
          },
          { quiet401: true },
        ),
      );
    },
  };
}
