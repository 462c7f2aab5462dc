import { useSignal } from '@preact/signals';
import { useLocation, useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { can, loadSession, me, signOut, type Me, type Role } from '../lib/session.js';
import { CopyButton, ErrorNotice, Loading, PageHeader, SavedNotice, formatDate } from '../ui/common.js';
import { ConfirmDialog } from '../ui/dialog.js';
import { SelectField, TextField } from '../ui/field.js';
import {
  PLAN_LIMITS,
  ROLE_HINTS,
  ROLE_LABELS,
  assignableRoles,
  createSettingsModel,
  formatLimit,
  type Member,
  type Plan,
  type SettingsModel,
} from './settings.model.js';

const SECTIONS = [
  { id: 'organization', label: 'Organization' },
  { id: 'members', label: 'Members' },
  { id: 'account', label: 'Your account' },
] as const;

export default function SettingsPage() {
  const session = me.value;
  if (!session) return <Loading />;
  return <Settings session={session} />;
}

function Settings({ session }: { session: Me }) {
  const { params } = useRoute();
  const section = SECTIONS.find((s) => s.id === params.section)?.id ?? 'organization';
  const m = useModel(() => createSettingsModel(api, session), [session.organization.id, session.user?.id, session.role]);
  return (
    <div>
      <PageHeader title="Settings" />
      <nav class="tabs" aria-label="Settings sections">
        {SECTIONS.map((s) => (
          <a
            key={s.id}
            href={to(s.id === 'organization' ? '/settings' : `/settings/${s.id}`)}
            aria-current={s.id === section ? 'page' : undefined}
          >
            {s.label}
          </a>
        ))}
      </nav>
      {section === 'organization' && <Organization m={m} />}
      {section === 'members' && <Members m={m} />}
      {section === 'account' && <Account m={m} />}
    </div>
  );
}

function Organization({ m }: { m: SettingsModel }) {
  const writable = can('organizations:write');
  const o = m.org;
  const current = (me.value?.organization.plan ?? 'free') as Plan;
  const limits = me.value?.organization.limits ?? PLAN_LIMITS[current] ?? PLAN_LIMITS.free;
  return (
    <>
      <section class="card" aria-labelledby="org-heading">
        <h2 id="org-heading">Organization</h2>
        {!writable && (
          <p class="notice" role="note">
            Only the owner changes the organization’s name and plan.
          </p>
        )}
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            if (await m.saveOrganization()) await loadSession();
          }}
        >
          <TextField
            label="Organization name"
            required
            maxLength={200}
            disabled={!writable}
            value={o.name.value}
            onValue={(v) => {
              o.name.value = v;
            }}
            error={o.submit.fieldError('name')}
          />
          <SelectField
            label="Plan"
            disabled={!writable}
            value={o.plan.value}
            onValue={(v) => {
              o.plan.value = v;
            }}
            error={o.submit.fieldError('plan')}
            options={(Object.keys(PLAN_LIMITS) as Plan[]).map((p) => ({
              value: p,
              label: `${p[0]!.toUpperCase()}${p.slice(1)}: ${formatLimit(PLAN_LIMITS[p].perMinute)}/min, ${formatLimit(PLAN_LIMITS[p].perDay)}/day`,
            }))}
          />
          <ErrorNotice
            error={o.submit.error.value && !Object.keys(o.submit.error.value.fields).length ? o.submit.error.value : null}
            onRetry={() => void m.saveOrganization()}
          />
          {writable && (
            <div class="actions">
              <button type="submit" class="button primary" disabled={o.submit.busy.value}>
                Save organization
              </button>
              <SavedNotice show={o.submit.saved.value} />
            </div>
          )}
        </form>
      </section>
      <section class="card" aria-labelledby="limits-heading">
        <h2 id="limits-heading">Rate limits</h2>
        <p>
          Your plan is <strong>{current}</strong>: each API key or session may make up to <strong>{formatLimit(limits.perMinute)}</strong>{' '}
          requests a minute and <strong>{formatLimit(limits.perDay)}</strong> a day (UTC).
        </p>
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Plans and their limits</caption>
            <thead>
              <tr>
                <th scope="col">Plan</th>
                <th scope="col" class="num">
                  Per minute
                </th>
                <th scope="col" class="num">
                  Per day
                </th>
              </tr>
            </thead>
            <tbody>
              {(Object.keys(PLAN_LIMITS) as Plan[]).map((p) => (
                <tr key={p} aria-current={p === current ? 'true' : undefined}>
                  <td>
                    {p}
                    {p === current && <span class="pill ok pill-after">current</span>}
                  </td>
                  <td class="num">{formatLimit(PLAN_LIMITS[p].perMinute)}</td>
                  <td class="num">{formatLimit(PLAN_LIMITS[p].perDay)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

/**
 * What the member created and what becomes of it (issue 24): keys revoked and webhooks disabled
 * by default, or both transferred to the remover; pending invitations always revoked.
 */
function RemovalDetails({ m, leaving }: { m: SettingsModel; leaving: boolean }) {
  if (leaving) return <p>Your API keys here are revoked, your webhooks disabled and your pending invitations revoked.</p>;
  const created = m.removal.created.value;
  if (m.removal.preview.busy.value) return <Loading />;
  if (m.removal.preview.error.value) return <ErrorNotice error={m.removal.preview.error.value} />;
  if (!created) return null;
  const transfer = m.removal.choice.value === 'transfer';
  const { keys, webhooks, invitations } = created;
  if (!keys.length && !webhooks.length && !invitations.length)
    return <p>They created no API keys, webhooks or pending invitations here.</p>;
  return (
    <div>
      <p>What they created here:</p>
      <ul>
        {keys.map((k) => (
          <li key={k.id}>
            API key “{k.name}” (sk_…{k.last4}): <strong>{transfer ? 'transferred to you' : 'revoked'}</strong>
          </li>
        ))}
        {webhooks.map((w) => (
          <li key={w.id}>
            Webhook <span class="break">{w.url}</span>: <strong>{transfer ? 'transferred to you' : 'disabled'}</strong>
          </li>
        ))}
        {invitations.map((i) => (
          <li key={i.id}>
            Invitation {i.email ? `for ${i.email}` : 'link'} ({i.role}): <strong>revoked</strong>
          </li>
        ))}
      </ul>
      {(keys.length > 0 || webhooks.length > 0) && (
        <fieldset class="choice">
          <legend>Their API keys and webhooks</legend>
          <label>
            <input
              type="radio"
              name="removal-choice"
              checked={!transfer}
              onChange={() => {
                m.removal.choice.value = 'revoke';
              }}
            />{' '}
            Revoke the keys and disable the webhooks (recommended)
          </label>
          <label>
            <input
              type="radio"
              name="removal-choice"
              checked={transfer}
              onChange={() => {
                m.removal.choice.value = 'transfer';
              }}
            />{' '}
            Keep them working: transfer them to me (recorded in the audit log)
          </label>
        </fieldset>
      )}
    </div>
  );
}

function Members({ m }: { m: SettingsModel }) {
  const actor = m.me.role;
  const myId = m.me.user?.id;
  const removing = useSignal<Member | null>(null);
  const transferring = useSignal<Member | null>(null);
  const { route } = useLocation();
  useEffect(() => {
    void m.loadMembers();
  }, [m]);
  const data = m.members.data.value;
  const roles = assignableRoles(actor);
  const canEditRole = (t: Member) => m.manages && t.userId !== myId && t.role !== 'owner' && (actor === 'owner' || t.role !== 'admin');
  const canRemove = (t: Member) => t.role !== 'owner' && (t.userId === myId || canEditRole(t));

  return (
    <>
      <section aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        {!m.manages && (
          <p class="notice" role="note">
            Admins and the owner manage members; you can see who is here.
          </p>
        )}
        <ErrorNotice error={m.members.error.value} onRetry={() => void m.members.load()} />
        <ErrorNotice error={m.memberAction.error.value} />
        {!data && m.members.loading.value && <Loading />}
        {data && (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Members</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Joined</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((t) => (
                  <tr key={t.userId}>
                    <td>
                      {t.name || '—'}
                      {t.userId === myId && <span class="hint"> (you)</span>}
                    </td>
                    <td>{t.email}</td>
                    <td>
                      {canEditRole(t) ? (
                        <label class="inline-select">
                          <span class="visually-hidden">Role of {t.email}</span>
                          <select
                            value={t.role}
                            disabled={m.memberAction.busy.value}
                            onChange={(e) => void m.changeRole(t.userId, e.currentTarget.value as Role)}
                          >
                            {[...new Set([t.role, ...roles])].map((r) => (
                              <option key={r} value={r}>
                                {ROLE_LABELS[r]}
                              </option>
                            ))}
                          </select>
                        </label>
                      ) : (
                        ROLE_LABELS[t.role]
                      )}
                    </td>
                    <td>{formatDate(t.createdAt)}</td>
                    <td class="row-actions">
                      {actor === 'owner' && t.userId !== myId && (
                        <button
                          type="button"
                          class="button small"
                          aria-label={`Make owner: ${t.email}`}
                          onClick={() => {
                            transferring.value = t;
                          }}
                        >
                          Make owner
                        </button>
                      )}
                      {canRemove(t) && (
                        <button
                          type="button"
                          class="button small danger"
                          aria-label={t.userId === myId ? 'Leave the organization' : `Remove ${t.email}`}
                          onClick={() => {
                            removing.value = t;
                            void m.previewRemoval(t.userId);
                          }}
                        >
                          {t.userId === myId ? 'Leave' : 'Remove'}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <details class="roles-help">
          <summary>What each role can do</summary>
          <ul>
            {(Object.keys(ROLE_LABELS) as Role[]).map((r) => (
              <li key={r}>
                <strong>{ROLE_LABELS[r]}</strong>: {ROLE_HINTS[r]}
              </li>
            ))}
          </ul>
        </details>
      </section>
      {m.manages && <Invitations m={m} />}

      <ConfirmDialog
        open={!!removing.value}
        title={removing.value?.userId === myId ? 'Leave this organization?' : 'Remove this member?'}
        confirmLabel={removing.value?.userId === myId ? 'Leave organization' : 'Remove member'}
        message={
          <>
            <p>
              {removing.value?.userId === myId
                ? 'You lose access to this organization at once.'
                : `${removing.value?.email} loses access at once; their sessions in this organization end.`}
            </p>
            {removing.value && <RemovalDetails m={m} leaving={removing.value.userId === myId} />}
          </>
        }
        busy={m.memberAction.busy.value}
        error={m.memberAction.error.value?.message ?? null}
        onCancel={() => {
          removing.value = null;
        }}
        onConfirm={async () => {
          const target = removing.value;
          if (!target || !(await m.removeMember(target.userId))) return;
          removing.value = null;
          if (target.userId === myId) {
            await signOut();
            route(to('/login'));
          }
        }}
      />
      <ConfirmDialog
        open={!!transferring.value}
        title="Transfer ownership?"
        confirmLabel="Transfer ownership"
        message={
          <p>{transferring.value?.email} becomes the owner. You become an admin and can no longer change the plan or transfer ownership.</p>
        }
        busy={m.memberAction.busy.value}
        error={m.memberAction.error.value?.message ?? null}
        onCancel={() => {
          transferring.value = null;
        }}
        onConfirm={async () => {
          if (transferring.value && (await m.transferOwnership(transferring.value.userId))) {
            transferring.value = null;
            await loadSession();
          }
        }}
      />
    </>
  );
}

function Invitations({ m }: { m: SettingsModel }) {
  const inv = m.invite;
  const created = inv.created.value;
  const pending = m.invitations.data.value;
  const revoking = useSignal<string | null>(null);
  return (
    <section class="card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite someone</h2>
      <p class="muted">
        Create a link and send it yourself (chat, email): whoever opens it can join with the role you pick. It works once and expires after
        7 days.
      </p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          await m.createInvitation();
        }}
      >
        <div class="row row-top">
          <SelectField
            label="Role"
            value={inv.role.value}
            onValue={(v) => {
              inv.role.value = v;
            }}
            error={inv.submit.fieldError('role')}
            hint={`${ROLE_LABELS[inv.role.value]}: ${ROLE_HINTS[inv.role.value]}.`}
            options={assignableRoles(m.me.role).map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          />
          <TextField
            label="Only for this email (optional)"
            type="email"
            value={inv.email.value}
            onValue={(v) => {
              inv.email.value = v;
            }}
            error={inv.submit.fieldError('email')}
          />
        </div>
        <button type="submit" class="button primary" disabled={inv.submit.busy.value}>
          Create invitation link
        </button>
      </form>
      <ErrorNotice
        error={inv.submit.error.value && !Object.keys(inv.submit.error.value.fields).length ? inv.submit.error.value : null}
        onRetry={() => void m.createInvitation()}
      />
      {created && (
        <div class="notice notice-ok invite-link" role="status">
          <div>
            <p>
              Invitation link for a new <strong>{ROLE_LABELS[created.role]}</strong>
              {created.email ? ` (${created.email})` : ''}, valid until {formatDate(created.expiresAt)}. It is shown only now.
            </p>
            <code class="wrap" aria-label="Invitation link">
              {created.url}
            </code>
          </div>
          <CopyButton text={created.url} label="Copy link" />
        </div>
      )}
      <h3>Pending invitations</h3>
      <ErrorNotice error={m.invitations.error.value} onRetry={() => void m.invitations.load()} />
      {pending && pending.items.length === 0 && <p class="muted">None.</p>}
      {pending && pending.items.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Pending invitations</caption>
            <thead>
              <tr>
                <th scope="col">Role</th>
                <th scope="col">For</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {pending.items.map((i) => (
                <tr key={i.id}>
                  <td>{ROLE_LABELS[i.role]}</td>
                  <td>{i.email ?? 'Anyone with the link'}</td>
                  <td>{formatDate(i.createdAt)}</td>
                  <td>{formatDate(i.expiresAt)}</td>
                  <td>
                    <button
                      type="button"
                      class="button small danger"
                      aria-label={`Revoke the ${i.role} invitation created ${formatDate(i.createdAt)}`}
                      onClick={() => {
                        revoking.value = i.id;
                      }}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={!!revoking.value}
        title="Revoke this invitation?"
        confirmLabel="Revoke invitation"
        message={<p>The link stops working at once.</p>}
        busy={m.memberAction.busy.value}
        error={m.memberAction.error.value?.message ?? null}
        onCancel={() => {
          revoking.value = null;
        }}
        onConfirm={async () => {
          if (revoking.value && (await m.revokeInvitation(revoking.value))) revoking.value = null;
        }}
      />
    </section>
  );
}

function Account({ m }: { m: SettingsModel }) {
  const { route } = useLocation();
  const a = m.account;
  const p = m.password;
  return (
    <>
      <section class="card" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <p class="muted">
          Signed in as {m.me.user?.email}
          {m.me.role ? `, ${ROLE_LABELS[m.me.role].toLowerCase()} of ${m.me.organization.name}` : ''}.
        </p>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            if (await m.saveName()) await loadSession();
          }}
        >
          <TextField
            label="Your name"
            autoComplete="name"
            maxLength={100}
            value={a.name.value}
            onValue={(v) => {
              a.name.value = v;
            }}
            error={a.submit.fieldError('name')}
          />
          <ErrorNotice
            error={a.submit.error.value && !Object.keys(a.submit.error.value.fields).length ? a.submit.error.value : null}
            onRetry={() => void m.saveName()}
          />
          <div class="actions">
            <button type="submit" class="button primary" disabled={a.submit.busy.value}>
              Save name
            </button>
            <SavedNotice show={a.submit.saved.value} />
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="password-heading">
        <h2 id="password-heading">Change password</h2>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            await m.changePassword();
          }}
        >
          <input
            type="text"
            class="visually-hidden"
            autoComplete="username"
            value={m.me.user?.email ?? ''}
            readOnly
            tabIndex={-1}
            aria-hidden="true"
          />
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            required
            value={p.current.value}
            onValue={(v) => {
              p.current.value = v;
            }}
            error={p.submit.fieldError('currentPassword')}
          />
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            hint="At least 10 characters."
            value={p.next.value}
            onValue={(v) => {
              p.next.value = v;
            }}
            error={p.submit.fieldError('newPassword')}
          />
          <TextField
            label="New password again"
            type="password"
            autoComplete="new-password"
            required
            value={p.confirm.value}
            onValue={(v) => {
              p.confirm.value = v;
            }}
            error={p.submit.fieldError('confirm')}
          />
          <ErrorNotice
            error={p.submit.error.value && !Object.keys(p.submit.error.value.fields).length ? p.submit.error.value : null}
            onRetry={() => void m.changePassword()}
          />
          <div class="actions">
            <button type="submit" class="button primary" disabled={p.submit.busy.value}>
              Change password
            </button>
            <SavedNotice show={p.submit.saved.value}>Password changed; your other sessions were signed out.</SavedNotice>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="signout-heading">
        <h2 id="signout-heading">Sign out</h2>
        <p class="muted">Ends this session on the server.</p>
        <button
          type="button"
          class="button"
          onClick={async () => {
            await signOut();
            route(to('/login'));
          }}
        >
          Sign out of Parley
        </button>
      </section>
    </>
  );
}
