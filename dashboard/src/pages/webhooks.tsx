import { useSignal } from '@preact/signals';
import { useLocation, useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { can } from '../lib/session.js';
import { EmptyState, ErrorNotice, Loading, PageHeader, Pager, formatDate } from '../ui/common.js';
import { ConfirmDialog, Dialog } from '../ui/dialog.js';
import { Checkbox, SelectField, TextField } from '../ui/field.js';
import { SecretReveal } from '../ui/secret-reveal.js';
import { creatorLabel } from './api-keys.model.js';
import {
  WEBHOOK_EVENTS,
  createWebhookDetailModel,
  createWebhooksModel,
  deliveryTime,
  nextRetry,
  type Webhook,
  type WebhooksModel,
} from './webhooks.model.js';

export default function WebhooksPage() {
  const { params } = useRoute();
  if (!can('webhooks:write')) {
    return (
      <div>
        <PageHeader title="Webhooks" />
        <p class="notice" role="note">
          Webhooks are managed by admins and the owner of the organization.
        </p>
      </div>
    );
  }
  return params.id ? <WebhookDetail id={params.id} /> : <WebhookList />;
}

function statusPill(h: Webhook) {
  if (h.enabled) return <span class="pill ok">enabled</span>;
  const why =
    h.disabledReason === 'failing' ? 'disabled: kept failing' : h.disabledReason === 'gone' ? 'disabled: endpoint gone (410)' : 'disabled';
  return <span class="pill danger">{why}</span>;
}

function WebhookList() {
  const m = useModel(() => createWebhooksModel(api));
  const creating = useSignal(false);
  const toDelete = useSignal<Webhook | null>(null);
  useEffect(() => {
    void m.load();
  }, [m]);
  const data = m.hooks.data.value;
  const assistantName = (id: string | null) => (id ? (m.assistants.data.value?.find((a) => a.id === id)?.name ?? id) : 'All assistants');

  return (
    <div>
      <PageHeader
        title="Webhooks"
        description="Parley POSTs signed events (Standard Webhooks) to your URLs when conversations and knowledge change."
        actions={
          <button
            type="button"
            class="button primary"
            onClick={() => {
              creating.value = true;
            }}
          >
            Add webhook
          </button>
        }
      />
      <ErrorNotice error={m.hooks.error.value} onRetry={() => void m.hooks.load()} />
      <ErrorNotice error={m.rowAction.error.value} />
      {!data && m.hooks.loading.value && <Loading />}
      {data && data.items.length === 0 && (
        <EmptyState title="No webhooks yet">
          <p class="muted">Add one to receive events at your own URL.</p>
        </EmptyState>
      )}
      {data && data.items.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Webhooks</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Assistant</th>
                <th scope="col">Created by</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((h) => (
                <tr key={h.id}>
                  <td class="doc-title">
                    <a href={to(`/webhooks/${h.id}`)}>{h.url}</a>
                    {h.description && <div class="hint">{h.description}</div>}
                  </td>
                  <td>{h.events.includes('*') ? 'All events' : h.events.join(', ')}</td>
                  <td>{assistantName(h.assistantId)}</td>
                  <td title={h.createdBy?.email ?? undefined}>{creatorLabel(h.createdBy ?? null)}</td>
                  <td>
                    {statusPill(h)}
                    {h.pendingDeliveries > 0 && <div class="hint">{h.pendingDeliveries} pending</div>}
                  </td>
                  <td class="row-actions">
                    <button
                      type="button"
                      class="button small"
                      aria-label={`${h.enabled ? 'Disable' : 'Enable'} ${h.url}`}
                      disabled={m.rowAction.busy.value}
                      onClick={() => void m.setEnabled(h.id, !h.enabled)}
                    >
                      {h.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <button
                      type="button"
                      class="button small danger"
                      aria-label={`Delete ${h.url}`}
                      onClick={() => {
                        toDelete.value = h;
                      }}
                    >
                      Delete
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
        title="Add webhook"
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
      <Dialog
        open={!!m.secret.value}
        title="Webhook signing secret"
        onClose={() => {
          m.secret.value = null;
        }}
        footer={
          <button
            type="button"
            class="button primary"
            onClick={() => {
              m.secret.value = null;
            }}
          >
            I have copied the secret
          </button>
        }
      >
        {m.secret.value && (
          <>
            <SecretReveal label={`Signing secret for ${m.secret.value.url}`} secret={m.secret.value.secret} what="secret" />
            <p class="hint">
              Verify each request's <code>webhook-signature</code> header with it (Standard Webhooks v1).
            </p>
          </>
        )}
      </Dialog>
      <ConfirmDialog
        open={!!toDelete.value}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        message={<p>No more events will be sent to {toDelete.value?.url}, and its delivery log is deleted.</p>}
        busy={m.rowAction.busy.value}
        error={m.rowAction.error.value?.message ?? null}
        onCancel={() => {
          toDelete.value = null;
        }}
        onConfirm={async () => {
          if (toDelete.value && (await m.remove(toDelete.value.id))) toDelete.value = null;
        }}
      />
    </div>
  );
}

function CreateForm({ m, onCreated }: { m: WebhooksModel; onCreated: () => void }) {
  const f = m.form;
  const s = f.submit;
  const all = f.events.value.includes('*');
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        if (await m.create()) onCreated();
      }}
    >
      <TextField
        label="Endpoint URL"
        type="url"
        required
        placeholder="https://example.com/parley-events"
        value={f.url.value}
        onValue={(v) => {
          f.url.value = v;
        }}
        error={s.fieldError('url')}
      />
      <fieldset>
        <legend>Events</legend>
        <Checkbox label="All events (*), including ones added later" checked={all} onValue={(on) => m.toggleEvent('*', on)} />
        <div class="perm-grid">
          {WEBHOOK_EVENTS.map((ev) => (
            <Checkbox
              key={ev}
              label={ev}
              checked={all || f.events.value.includes(ev)}
              disabled={all}
              onValue={(on) => m.toggleEvent(ev, on)}
            />
          ))}
        </div>
        {s.fieldError('events') && (
          <p class="field-error" role="alert">
            {s.fieldError('events')}
          </p>
        )}
      </fieldset>
      <SelectField
        label="Assistant"
        hint="Only events of this assistant are sent."
        value={f.assistantId.value}
        onValue={(v) => {
          f.assistantId.value = v;
        }}
        error={s.fieldError('assistantId')}
        options={[{ value: '', label: 'All assistants' }, ...(m.assistants.data.value ?? []).map((a) => ({ value: a.id, label: a.name }))]}
      />
      <TextField
        label="Description"
        maxLength={500}
        hint="Optional."
        value={f.description.value}
        onValue={(v) => {
          f.description.value = v;
        }}
        error={s.fieldError('description')}
      />
      <ErrorNotice
        error={s.error.value && !Object.keys(s.error.value.fields).length ? s.error.value : null}
        onRetry={() => void m.create()}
      />
      <button type="submit" class="button primary" disabled={s.busy.value}>
        {s.busy.value ? 'Adding…' : 'Add webhook'}
      </button>
    </form>
  );
}

function WebhookDetail({ id }: { id: string }) {
  const m = useModel(() => createWebhookDetailModel(api, id), [id]);
  const { route } = useLocation();
  const confirmDelete = useSignal(false);
  useEffect(() => {
    void m.load();
    return () => m.stop();
  }, [m]);
  const h = m.hook.data.value;
  const log = m.deliveries.data.value;
  if (!h) {
    return m.hook.error.value ? (
      <div>
        <PageHeader title="Webhook" />
        <ErrorNotice error={m.hook.error.value} onRetry={() => void m.load()} />
        <p>
          <a href={to('/webhooks')}>Back to webhooks</a>
        </p>
      </div>
    ) : (
      <Loading />
    );
  }
  return (
    <div>
      <p class="crumbs">
        <a href={to('/webhooks')}>Webhooks</a> / <span aria-current="page">{h.url}</span>
      </p>
      <PageHeader
        title="Webhook"
        description={h.url}
        actions={
          <>
            <button type="button" class="button" disabled={!h.enabled || m.action.busy.value} onClick={() => void m.sendTest()}>
              Send test event
            </button>
            <button type="button" class="button" disabled={m.action.busy.value} onClick={() => void m.setEnabled(!h.enabled)}>
              {h.enabled ? 'Disable' : 'Enable'}
            </button>
            <button
              type="button"
              class="button danger"
              onClick={() => {
                confirmDelete.value = true;
              }}
            >
              Delete
            </button>
          </>
        }
      />
      {!h.enabled && <p class="hint">Enable the webhook to send a test event.</p>}
      <p class="status-line" role="status">
        {m.notice.value ?? ''}
      </p>
      <ErrorNotice error={m.action.error.value} />
      <section class="card" aria-labelledby="hook-meta">
        <h2 id="hook-meta">Settings</h2>
        <dl class="meta">
          <dt>Status</dt>
          <dd>{statusPill(h)}</dd>
          <dt>Events</dt>
          <dd>{h.events.includes('*') ? 'All events (*)' : h.events.join(', ')}</dd>
          <dt>Assistant</dt>
          <dd>
            {h.assistantId ? (m.assistants.data.value?.find((a) => a.id === h.assistantId)?.name ?? h.assistantId) : 'All assistants'}
          </dd>
          {h.description && (
            <>
              <dt>Description</dt>
              <dd>{h.description}</dd>
            </>
          )}
          <dt>Pending deliveries</dt>
          <dd>{h.pendingDeliveries}</dd>
          {h.failingSince && (
            <>
              <dt>Failing since</dt>
              <dd>{formatDate(h.failingSince)}</dd>
            </>
          )}
          <dt>Created</dt>
          <dd>{formatDate(h.createdAt)}</dd>
        </dl>
      </section>
      <section aria-labelledby="log-heading">
        <div class="section-head">
          <h2 id="log-heading">Delivery log</h2>
          <button type="button" class="button small" onClick={() => void m.load()}>
            Refresh
          </button>
        </div>
        <ErrorNotice error={m.deliveries.error.value} onRetry={() => void m.deliveries.load()} />
        {log && log.items.length === 0 && (
          <EmptyState title="No deliveries yet">
            <p class="muted">Send a test event to check your endpoint.</p>
          </EmptyState>
        )}
        {log && log.items.length > 0 && (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Delivery attempts, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Response
                  </th>
                  <th scope="col" class="num">
                    Latency
                  </th>
                  <th scope="col" class="num">
                    Attempt
                  </th>
                  <th scope="col">Error</th>
                  <th scope="col">Next retry</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {log.items.map((d) => (
                  <tr key={d.id}>
                    <td>{formatDate(deliveryTime(d))}</td>
                    <td>
                      <code>{d.event}</code>
                    </td>
                    <td>
                      <span class={`pill ${d.status === 'succeeded' ? 'ok' : d.status === 'failed' ? 'danger' : 'warn'}`}>{d.status}</span>
                    </td>
                    <td class="num">{d.responseCode ?? '—'}</td>
                    <td class="num">{d.latencyMs !== null && d.latencyMs !== undefined ? `${d.latencyMs} ms` : '—'}</td>
                    <td class="num">{d.attempt}</td>
                    <td class="error-cell">{d.error ?? ''}</td>
                    <td>{nextRetry(d) ? formatDate(nextRetry(d)) : '—'}</td>
                    <td>
                      {d.status === 'failed' && (
                        <button
                          type="button"
                          class="button small"
                          disabled={m.action.busy.value}
                          aria-label={`Redeliver ${d.event} (attempt ${d.attempt})`}
                          onClick={() => void m.redeliver(d.id)}
                        >
                          Redeliver
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {log && <Pager page={log.page} pages={log.pages} onPage={(p) => void m.goTo(p)} />}
      </section>
      <ConfirmDialog
        open={confirmDelete.value}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        message={<p>No more events will be sent to {h.url}, and its delivery log is deleted.</p>}
        busy={m.action.busy.value}
        error={m.action.error.value?.message ?? null}
        onCancel={() => {
          confirmDelete.value = false;
        }}
        onConfirm={async () => {
          if (await m.remove()) {
            confirmDelete.value = false;
            route(to('/webhooks'));
          }
        }}
      />
    </div>
  );
}
