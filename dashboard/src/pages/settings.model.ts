import { signal, type Signal } from '@preact/signals';
import { ApiError, type ApiClient, type Page } from '../lib/api.js';
import { loadable, submission, type Loadable, type Submission } from '../lib/model.js';
import type { Me, Role } from '../lib/session.js';
import type { ApiData, ApiItem } from '../api/types.js';

// Settings: the organization (name, plan and its limits), members and invitations
// (docs/api-spec.md §11, the dashboard contract), and the signed-in user's own account.

export type Plan = 'free' | 'pro' | 'enterprise';

/** docs/api-spec.md §5: requests per API key or session. */
export const PLAN_LIMITS: Record<Plan, { perMinute: number; perDay: number }> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  enterprise: { perMinute: 1_000, perDay: 100_000 },
};

export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', admin: 'Admin', editor: 'Editor', viewer: 'Viewer' };
export const ROLE_HINTS: Record<Role, string> = {
  owner: 'everything, including the plan and transferring ownership',
  admin: 'editors’ rights plus API keys, webhooks and members',
  editor: 'changes assistants, knowledge and conversations',
  viewer: 'reads everything, changes nothing',
};

export type Member = ApiItem<'getOrganizationsIdMembers'>;
export type Invitation = ApiItem<'getOrganizationsIdInvitations'>;
export type CreatedInvitation = ApiData<'postOrganizationsIdInvitations'>;
/** What a member created here (GET …/members/:userId/created): what removing them settles. */
export interface MemberCreated {
  keys: Array<{ id: string; name: string; last4: string }>;
  webhooks: Array<{ id: string; url: string; enabled: boolean }>;
  invitations: Array<{ id: string; role: string; email: string | null; expiresAt: string }>;
}
/** Removing a member: their keys revoked and webhooks disabled, or both transferred to the remover. */
export type CreatedChoice = 'revoke' | 'transfer';

/** The roles `actor` may give: only the owner hands out admin; nobody hands out owner (that is a transfer). */
export function assignableRoles(actor: Role | null): Array<Exclude<Role, 'owner'>> {
  if (actor === 'owner') return ['admin', 'editor', 'viewer'];
  if (actor === 'admin') return ['editor', 'viewer'];
  return [];
}

export const formatLimit = (n: number): string => n.toLocaleString('en-US');

/** The settings page: the organization, its members and invitations, and the signed-in user's account. */
export interface SettingsModel {
  /** The signed-in user, their organization and role. */
  me: Me;
  orgId: string;
  /** Owner or admin: may change the organization, members and invitations. */
  manages: boolean;
  /** The organization form. */
  org: { name: Signal<string>; plan: Signal<Plan>; submit: Submission };
  /** One page of members (50 a page). */
  members: Loadable<Page<Member>>;
  membersPage: Signal<number>;
  /** Pending invitations (managers only). */
  invitations: Loadable<Page<Invitation>>;
  /** Role changes, removals, transfers and revocations. */
  memberAction: Submission;
  /** The invitation form, and the invitation just made (its link is shown once). */
  invite: { role: Signal<Exclude<Role, 'owner'>>; email: Signal<string>; submit: Submission; created: Signal<CreatedInvitation | null> };
  /** The user's name form. */
  account: { name: Signal<string>; submit: Submission };
  /** The password form. */
  password: { current: Signal<string>; next: Signal<string>; confirm: Signal<string>; submit: Submission };
  /** The removal being confirmed: what the member created, and what the remover chose for it. */
  removal: { created: Signal<MemberCreated | null>; choice: Signal<CreatedChoice>; preview: Submission };
  /** Loads the members, and the invitations for managers. */
  loadMembers(): Promise<void>;
  /** Saves the organization's name and plan. */
  saveOrganization(): Promise<{ id: string; name: string; plan: Plan } | undefined>;
  /** Changes a member's role, then reloads the members. */
  changeRole(userId: string, role: Role): Promise<Member | undefined>;
  /** Loads what the member created, for the confirmation (managers only; leaving needs no preview). */
  previewRemoval(userId: string): Promise<void>;
  /** Removes a member (or leaves), their creations revoked or transferred as chosen; true when done. */
  removeMember(userId: string): Promise<boolean>;
  /** Makes another member the owner; true when done. */
  transferOwnership(userId: string): Promise<boolean>;
  /** Makes an invitation with the form's role and optional email. */
  createInvitation(): Promise<CreatedInvitation | undefined>;
  /** Revokes a pending invitation; true when done. */
  revokeInvitation(id: string): Promise<boolean>;
  /** Saves the user's name (empty: none). */
  saveName(): Promise<{ id: string; email: string; name: string | null } | undefined>;
  /** Changes the password; other sessions of the user are signed out by the server. */
  changePassword(): Promise<{ changed: boolean; revokedSessions: number } | undefined>;
}

export function createSettingsModel(api: ApiClient, me: Me): SettingsModel {
  const orgId = me.organization.id;
  const orgPath = `/organizations/${encodeURIComponent(orgId)}`;
  const manages = me.role === 'owner' || me.role === 'admin';

  const org = { name: signal(me.organization.name), plan: signal<Plan>((me.organization.plan as Plan) ?? 'free'), submit: submission() };
  const membersPage = signal(1);
  const members = loadable(() => api.page<Member>(`${orgPath}/members`, { page: membersPage.value, limit: 50 }));
  const invitations = loadable(() => api.page<Invitation>(`${orgPath}/invitations`, { limit: 100 }));
  const memberAction = submission();
  /** The removal being confirmed: what the member created, and what the remover chose for it. */
  const removal = { created: signal<MemberCreated | null>(null), choice: signal<CreatedChoice>('revoke'), preview: submission() };
  const invite = {
    role: signal<Exclude<Role, 'owner'>>('viewer'),
    email: signal(''),
    submit: submission(),
    created: signal<CreatedInvitation | null>(null),
  };
  const account = { name: signal(me.user?.name ?? ''), submit: submission() };
  const password = { current: signal(''), next: signal(''), confirm: signal(''), submit: submission() };

  return {
    me,
    orgId,
    manages,
    org,
    members,
    membersPage,
    invitations,
    memberAction,
    invite,
    account,
    password,
    removal,

    async loadMembers() {
      await Promise.all([members.load(), manages ? invitations.load() : Promise.resolve()]);
    },
    async saveOrganization() {
      return org.submit.run(() =>
        api.patch<{ id: string; name: string; plan: Plan }>(orgPath, { name: org.name.value, plan: org.plan.value }),
      );
    },
    async changeRole(userId: string, role: Role) {
      const updated = await memberAction.run(() => api.patch<Member>(`${orgPath}/members/${encodeURIComponent(userId)}`, { role }));
      if (updated) await members.load();
      return updated;
    },
    async previewRemoval(userId: string) {
      removal.created.value = null;
      removal.choice.value = 'revoke';
      if (!manages || userId === me.user?.id) return;
      const created = await removal.preview.run(() => api.get<MemberCreated>(`${orgPath}/members/${encodeURIComponent(userId)}/created`));
      if (created) removal.created.value = created;
    },
    async removeMember(userId: string) {
      const query = removal.choice.value === 'transfer' && userId !== me.user?.id ? '?created=transfer' : '';
      const ok = await memberAction.run(() => api.delete(`${orgPath}/members/${encodeURIComponent(userId)}${query}`));
      if (ok !== undefined) invitations.load().catch(() => undefined);
      if (ok !== undefined) await members.load();
      return ok !== undefined;
    },
    async transferOwnership(userId: string) {
      const ok = await memberAction.run(() => api.post(`${orgPath}/transfer`, { userId }));
      if (ok !== undefined) await members.load();
      return ok !== undefined;
    },
    async createInvitation() {
      const created = await invite.submit.run(() =>
        api.post<CreatedInvitation>(`${orgPath}/invitations`, {
          role: invite.role.value,
          ...(invite.email.value.trim() ? { email: invite.email.value.trim() } : {}),
        }),
      );
      if (created) {
        invite.created.value = created;
        invite.email.value = '';
        await invitations.load();
      }
      return created;
    },
    async revokeInvitation(id: string) {
      const ok = await memberAction.run(() => api.delete(`${orgPath}/invitations/${encodeURIComponent(id)}`));
      if (ok !== undefined) await invitations.load();
      return ok !== undefined;
    },
    async saveName() {
      return account.submit.run(() =>
        api.patch<{ id: string; email: string; name: string | null }>('/auth/me', { name: account.name.value.trim() || null }),
      );
    },
    async changePassword() {
      if (password.next.value !== password.confirm.value) {
        password.submit.saved.value = false;
        password.submit.error.value = new ApiError('validation', 'confirm: the two new passwords differ', 400, 'validation_error');
        return undefined;
      }
      const done = await password.submit.run(() =>
        api.post<{ changed: boolean; revokedSessions: number }>('/auth/password', {
          currentPassword: password.current.value,
          newPassword: password.next.value,
        }),
      );
      if (done) {
        password.current.value = '';
        password.next.value = '';
        password.confirm.value = '';
      }
      return done;
    },
  };
}
