import { useLocation, useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { loadSession } from '../lib/session.js';
import { ErrorNotice, Loading, formatDate } from '../ui/common.js';
import { TextField } from '../ui/field.js';
import { createInviteModel } from './invite.model.js';
import { ROLE_HINTS, ROLE_LABELS } from './settings.model.js';

export default function InvitePage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const m = useModel(() => createInviteModel(api, params.token!), [params.token]);
  useEffect(() => {
    void m.load();
  }, [m]);
  const info = m.info.data.value;
  const s = m.submit;
  const isNew = m.mode.value === 'new';

  return (
    <main class="auth-page">
      <div class="auth-card">
        <p class="brand">Parley</p>
        <h1>Join an organization</h1>
        {!info && !m.info.error.value && <Loading />}
        {m.info.error.value && (
          <>
            <ErrorNotice error={m.info.error.value} onRetry={() => void m.load()} />
            <p class="muted">
              Ask whoever invited you for a new link. <a href={to('/login')}>Sign in</a>
            </p>
          </>
        )}
        {info && (
          <>
            <p>
              You are invited to <strong>{info.organization.name}</strong> as <strong>{ROLE_LABELS[info.role]}</strong> (
              {ROLE_HINTS[info.role]}).
            </p>
            <p class="hint">The link works once, until {formatDate(info.expiresAt)}.</p>
            <fieldset class="choice">
              <legend>Do you already have a Parley account?</legend>
              <label>
                <input
                  type="radio"
                  name="mode"
                  checked={isNew}
                  onChange={() => {
                    m.mode.value = 'new';
                    s.error.value = null;
                  }}
                />{' '}
                No, create one
              </label>
              <label>
                <input
                  type="radio"
                  name="mode"
                  checked={!isNew}
                  onChange={() => {
                    m.mode.value = 'existing';
                    s.error.value = null;
                  }}
                />{' '}
                Yes, sign in with it
              </label>
            </fieldset>
            <form
              onSubmit={async (e) => {
                e.preventDefault();
                if (!(await m.accept())) return;
                await loadSession();
                route(to('/'), true);
              }}
            >
              {isNew && (
                <TextField
                  label="Your name"
                  autoComplete="name"
                  value={m.name.value}
                  onValue={(v) => {
                    m.name.value = v;
                  }}
                  error={s.fieldError('name')}
                />
              )}
              <TextField
                label="Email"
                type="email"
                autoComplete="username"
                required
                readOnly={!!info.email}
                value={m.email.value}
                hint={info.email ? 'This invitation is for this address.' : undefined}
                onValue={(v) => {
                  m.email.value = v;
                }}
                error={s.fieldError('email')}
              />
              <TextField
                label="Password"
                type="password"
                autoComplete={isNew ? 'new-password' : 'current-password'}
                required
                minLength={isNew ? 10 : undefined}
                hint={isNew ? 'At least 10 characters.' : undefined}
                value={m.password.value}
                onValue={(v) => {
                  m.password.value = v;
                }}
                error={s.fieldError('password')}
              />
              <ErrorNotice
                error={s.error.value && !Object.keys(s.error.value.fields).length ? s.error.value : null}
                onRetry={() => void m.accept()}
              />
              <button type="submit" class="button primary wide" disabled={s.busy.value}>
                {s.busy.value
                  ? 'Joining…'
                  : isNew
                    ? `Create account and join ${info.organization.name}`
                    : `Sign in and join ${info.organization.name}`}
              </button>
            </form>
          </>
        )}
      </div>
    </main>
  );
}
