import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { can, me } from '../lib/session.js';
import { EmptyState, ErrorNotice, Loading, PageHeader, Pager, formatDate } from '../ui/common.js';
import { ConfirmDialog, Dialog } from '../ui/dialog.js';
import { Checkbox, SelectField, TextArea, TextField } from '../ui/field.js';
import { SecretReveal } from '../ui/secret-reveal.js';
import {
  ALL_PERMISSIONS,
  MAX_GRACE_SECONDS,
  PERMISSION_LABELS,
  createApiKeysModel,
  creatorLabel,
  type ApiKeysModel,
} from './api-keys.model.js';

export default function ApiKeysPage() {
  const allowed = can('api_keys:write');
  if (!allowed) {
    return (
      <div>
        <PageHeader title="API keys" />
        <p class="notice" role="note">
          API keys are managed by admins and the owner of the organization. Ask one of them for a key.
        </p>
      </div>
    );
  }
  return <ApiKeys />;
}

function ApiKeys() {
  const grantable = ALL_PERMISSIONS.filter((p) => me.value?.permissions.includes(p));
  const m = useModel(() => createApiKeysModel(api, grantable));
  const creating = useSignal(false);
  useEffect(() => {
    void m.load();
  }, [m]);
  const data = m.keys.data.value;
  const assistantName = (id: string | null) => (id ? (m.assistants.data.value?.find((a) => a.id === id)?.name ?? id) : 'All assistants');

  return (
    <div>
      <PageHeader
        title="API keys"
        description="Keys let your own code call the Parley API: chat, conversations, analytics and more."
        actions={
          <button
            type="button"
            class="button primary"
            onClick={() => {
              creating.value = true;
            }}
          >
            Create API key
          </button>
        }
      />
      <ErrorNotice error={m.keys.error.value} onRetry={() => void m.keys.load()} />
      {!data && m.keys.loading.value && <Loading />}
      {data && data.items.length === 0 && (
        <EmptyState title="No API keys yet">
          <p class="muted">Create one to call the API from your own code.</p>
        </EmptyState>
      )}
      {data && data.items.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Permissions</th>
                <th scope="col">Assistant</th>
                <th scope="col">Created by</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((k) => (
                <tr key={k.id}>
                  <td>
                    {k.name}
                    {(k.allowedIps.length > 0 || k.rateLimit.perMinute || k.rateLimit.perDay) && (
                      <div class="hint">
                        {k.allowedIps.length > 0 && `IPs: ${k.allowedIps.join(', ')}`}
                        {k.allowedIps.length > 0 && (k.rateLimit.perMinute || k.rateLimit.perDay) && ' · '}
                        {(k.rateLimit.perMinute || k.rateLimit.perDay) &&
                          `limits: ${k.rateLimit.perMinute ?? '—'}/min, ${k.rateLimit.perDay ?? '—'}/day`}
                      </div>
                    )}
                  </td>
                  <td>
                    <code>sk_…{k.last4}</code>
                  </td>
                  <td>
                    {k.permissions.length === ALL_PERMISSIONS.length ? (
                      <span class="pill" title={k.permissions.join(', ')}>
                        all permissions
                      </span>
                    ) : (
                      <ul class="perm-list">
                        {k.permissions.map((p) => (
                          <li key={p}>
                            <span class="pill">{p}</span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td>{assistantName(k.assistantId)}</td>
                  <td title={k.createdBy?.email ?? undefined}>{creatorLabel(k.createdBy ?? null)}</td>
                  <td>{k.lastUsedAt ? formatDate(k.lastUsedAt) : 'Never'}</td>
                  <td>{k.expiresAt ? formatDate(k.expiresAt) : 'Never'}</td>
                  <td class="row-actions">
                    <button
                      type="button"
                      class="button small"
                      aria-label={`Rotate ${k.name}`}
                      onClick={() => {
                        m.rotate.submit.error.value = null;
                        m.rotate.target.value = k;
                      }}
                    >
                      Rotate
                    </button>
                    <button
                      type="button"
                      class="button small danger"
                      aria-label={`Revoke ${k.name}`}
                      onClick={() => {
                        m.revoke.submit.error.value = null;
                        m.revoke.target.value = k;
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
      {data && <Pager page={data.page} pages={data.pages} onPage={(p) => void m.goTo(p)} />}

      <Dialog
        open={creating.value}
        wide
        title="Create API key"
        onClose={() => {
          creating.value = false;
        }}
      >
        <CreateForm
          m={m}
          onCreated={() => {
            creating.value = false;
          }}
        />
      </Dialog>
      <RotateDialog m={m} />
      <ConfirmDialog
        open={!!m.revoke.target.value}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        message={
          <p>
            “{m.revoke.target.value?.name}” (sk_…{m.revoke.target.value?.last4}) stops working at once. Code still using it will get 401
            errors.
          </p>
        }
        busy={m.revoke.submit.busy.value}
        error={m.revoke.submit.error.value?.message ?? null}
        onCancel={() => {
          m.revoke.target.value = null;
        }}
        onConfirm={() => void m.revokeKey()}
      />
      <Dialog
        open={!!m.revealed.value}
        title={m.revealed.value?.title ?? ''}
        onClose={() => m.dismissRevealed()}
        footer={
          <button type="button" class="button primary" onClick={() => m.dismissRevealed()}>
            I have copied the key
          </button>
        }
      >
        {m.revealed.value && <SecretReveal label={`API key “${m.revealed.value.name}”`} secret={m.revealed.value.key} what="key" />}
      </Dialog>
    </div>
  );
}

function CreateForm({ m, onCreated }: { m: ApiKeysModel; onCreated: () => void }) {
  const f = m.form;
  const s = f.submit;
  const limits = me.value?.organization.limits;
  const generic = s.error.value && !Object.keys(s.error.value.fields).length ? s.error.value : null;
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        if (await m.create()) onCreated();
      }}
    >
      <TextField
        label="Name"
        required
        maxLength={100}
        hint="Where the key is used, e.g. “Website backend”."
        value={f.name.value}
        onValue={(v) => {
          f.name.value = v;
        }}
        error={s.fieldError('name')}
      />
      <fieldset>
        <legend>Permissions</legend>
        <p class="hint">You can grant only what your own role allows.</p>
        <div class="perm-grid">
          {m.grantable.map((p) => (
            <Checkbox
              key={p}
              label={`${PERMISSION_LABELS[p] ?? p} (${p})`}
              checked={f.permissions.value.includes(p)}
              onValue={(on) => m.togglePermission(p, on)}
            />
          ))}
        </div>
        {s.fieldError('permissions') && (
          <p class="field-error" role="alert">
            {s.fieldError('permissions')}
          </p>
        )}
      </fieldset>
      <SelectField
        label="Assistant"
        hint="A key bound to one assistant sees and acts on that assistant only."
        value={f.assistantId.value}
        onValue={(v) => {
          f.assistantId.value = v;
        }}
        error={s.fieldError('assistantId')}
        options={[{ value: '', label: 'All assistants' }, ...(m.assistants.data.value ?? []).map((a) => ({ value: a.id, label: a.name }))]}
      />
      <TextArea
        label="Allowed IP addresses"
        rows={2}
        hint="Optional: addresses or CIDR blocks, separated by commas or new lines. Empty allows any address."
        value={f.allowedIps.value}
        onValue={(v) => {
          f.allowedIps.value = v;
        }}
        error={s.fieldError('allowedIps')}
      />
      <div class="row">
        <TextField
          label="Requests per minute"
          type="number"
          min={1}
          max={limits?.perMinute}
          placeholder={limits ? `plan: ${limits.perMinute}` : ''}
          hint="Optional; can only lower the plan's limit."
          value={f.perMinute.value}
          onValue={(v) => {
            f.perMinute.value = v;
          }}
          error={s.fieldError('rateLimit.perMinute')}
        />
        <TextField
          label="Requests per day"
          type="number"
          min={1}
          max={limits?.perDay}
          placeholder={limits ? `plan: ${limits.perDay}` : ''}
          hint="Optional; can only lower the plan's limit."
          value={f.perDay.value}
          onValue={(v) => {
            f.perDay.value = v;
          }}
          error={s.fieldError('rateLimit.perDay')}
        />
        <TextField
          label="Expires on"
          type="date"
          hint="Optional; the key stops working at the end of that day."
          value={f.expiresOn.value}
          onValue={(v) => {
            f.expiresOn.value = v;
          }}
          error={s.fieldError('expiresAt')}
        />
      </div>
      <ErrorNotice error={generic} onRetry={() => void m.create()} />
      <button type="submit" class="button primary" disabled={s.busy.value}>
        {s.busy.value ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}

function RotateDialog({ m }: { m: ApiKeysModel }) {
  const r = m.rotate;
  const target = r.target.value;
  return (
    <Dialog
      open={!!target}
      title="Rotate this key?"
      onClose={() => {
        r.target.value = null;
      }}
    >
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          await m.rotateKey();
        }}
      >
        <p>
          A new key with the same settings replaces “{target?.name}” (sk_…{target?.last4}). The old key keeps working during the grace
          period, so you can deploy the new one first.
        </p>
        <div class="row">
          <TextField
            label="Grace period"
            type="number"
            min={0}
            max={r.unit.value === 'hours' ? MAX_GRACE_SECONDS / 3600 : MAX_GRACE_SECONDS}
            step="any"
            value={r.amount.value}
            onValue={(v) => {
              r.amount.value = v;
            }}
            error={r.submit.fieldError('graceSeconds')}
          />
          <SelectField
            label="Unit"
            value={r.unit.value}
            onValue={(v) => {
              r.unit.value = v;
            }}
            options={[
              { value: 'hours', label: 'hours' },
              { value: 'seconds', label: 'seconds' },
            ]}
          />
        </div>
        <p class="hint">0 ends the old key now; at most 7 days (168 hours).</p>
        <ErrorNotice
          error={r.submit.error.value && !Object.keys(r.submit.error.value.fields).length ? r.submit.error.value : null}
          onRetry={() => void m.rotateKey()}
        />
        <button type="submit" class="button primary" disabled={r.submit.busy.value}>
          {r.submit.busy.value ? 'Rotating…' : 'Rotate key'}
        </button>
      </form>
    </Dialog>
  );
}
