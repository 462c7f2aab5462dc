import { signal } from '@preact/signals';
import { useLocation } from 'preact-iso';
import { api } from '../lib/api.js';
import { submission, useModel } from '../lib/model.js';
import { safeNext, to } from '../lib/paths.js';
import { loadSession } from '../lib/session.js';
import { ErrorNotice } from '../ui/common.js';
import { TextField } from '../ui/field.js';

// Sign in and register. The server answers with an httpOnly session cookie (the CSRF header
// the api module sends marks the request as the dashboard's); no token reaches JavaScript.

function createAuthModel() {
  return {
    email: signal(''),
    password: signal(''),
    name: signal(''),
    organizationName: signal(''),
    submit: submission(),
  };
}

function AuthCard({ title, children }: { title: string; children: preact.ComponentChildren }) {
  return (
    <main class="auth-page">
      <div class="auth-card">
        <p class="brand">Parley</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

export function LoginPage() {
  const { query, route } = useLocation();
  const m = useModel(createAuthModel);
  const s = m.submit;
  const expired = !!query.next;
  return (
    <AuthCard title="Sign in">
      {expired && !s.error.value && (
        <p class="notice" role="status">
          Please sign in to continue.
        </p>
      )}
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const ok = await s.run(() => api.post('/auth/login', { email: m.email.value, password: m.password.value }, { quiet401: true }));
          if (ok === undefined) return;
          await loadSession();
          route(safeNext(query.next), true);
        }}
      >
        <TextField
          label="Email"
          type="email"
          autoComplete="username"
          required
          value={m.email.value}
          onValue={(v) => {
            m.email.value = v;
          }}
          error={s.fieldError('email')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={m.password.value}
          onValue={(v) => {
            m.password.value = v;
          }}
          error={s.fieldError('password')}
        />
        <ErrorNotice error={s.error.value && !Object.keys(s.error.value.fields).length ? s.error.value : null} />
        <button type="submit" class="button primary wide" disabled={s.busy.value}>
          {s.busy.value ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p class="muted">
        New to Parley? <a href={to('/register')}>Create an account</a>
      </p>
    </AuthCard>
  );
}

export function RegisterPage() {
  const { route } = useLocation();
  const m = useModel(createAuthModel);
  const s = m.submit;
  return (
    <AuthCard title="Create your account">
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const ok = await s.run(() =>
            api.post(
              '/auth/register',
              {
                email: m.email.value,
                password: m.password.value,
                name: m.name.value || undefined,
                organizationName: m.organizationName.value,
              },
              { quiet401: true },
            ),
          );
          if (ok === undefined) return;
          await loadSession();
          route(to('/'), true);
        }}
      >
        <TextField
          label="Your name"
          autoComplete="name"
          value={m.name.value}
          onValue={(v) => {
            m.name.value = v;
          }}
          error={s.fieldError('name')}
        />
        <TextField
          label="Organization name"
          required
          value={m.organizationName.value}
          onValue={(v) => {
            m.organizationName.value = v;
          }}
          error={s.fieldError('organizationName')}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="username"
          required
          value={m.email.value}
          onValue={(v) => {
            m.email.value = v;
          }}
          error={s.fieldError('email')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          hint="At least 10 characters."
          value={m.password.value}
          onValue={(v) => {
            m.password.value = v;
          }}
          error={s.fieldError('password')}
        />
        <ErrorNotice error={s.error.value && !Object.keys(s.error.value.fields).length ? s.error.value : null} />
        <button type="submit" class="button primary wide" disabled={s.busy.value}>
          {s.busy.value ? 'Creating…' : 'Create account'}
        </button>
      </form>
      <p class="muted">
        Already have an account? <a href={to('/login')}>Sign in</a>
      </p>
    </AuthCard>
  );
}
