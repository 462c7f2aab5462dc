import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { can } from '../lib/session.js';
import { EmptyState, ErrorNotice, Loading, PageHeader, Pager } from '../ui/common.js';
import { Dialog } from '../ui/dialog.js';
import { SelectField, TextField } from '../ui/field.js';
import { createAssistantsModel } from './assistants.model.js';
import { ASSISTANT_TYPES, TYPE_LABELS, type AssistantType } from './assistants.types.js';

const TYPE_OPTIONS = ASSISTANT_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }));

export default function AssistantsPage() {
  const m = useModel(() => createAssistantsModel(api));
  const { route } = useLocation();
  const creating = useSignal(false);
  useEffect(() => {
    void m.load();
  }, []);
  const writable = can('assistants:write');
  const data = m.assistants.data.value;
  const s = m.creation;
  const openCreate = () => {
    s.error.value = null;
    creating.value = true;
  };

  return (
    <>
      <PageHeader
        title="Assistants"
        description="Each assistant answers from its knowledge bases on a website, through the API or in a chat app."
        actions={
          writable ? (
            <button type="button" class="button primary" onClick={openCreate}>
              Create assistant
            </button>
          ) : undefined
        }
      />
      {!writable && (
        <p class="notice" role="status">
          You can view assistants; creating and changing them needs the editor role.
        </p>
      )}
      <ErrorNotice error={m.assistants.error.value} onRetry={() => void m.load()} />
      {!data && m.assistants.loading.value && <Loading />}
      {data && data.total === 0 && (
        <EmptyState title="No assistants yet">
          <p>Create one, connect a knowledge base, and try it in the playground.</p>
          {writable && (
            <button type="button" class="button primary" onClick={openCreate}>
              Create your first assistant
            </button>
          )}
        </EmptyState>
      )}
      {data && data.items.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Assistants</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Knowledge bases</th>
                <th scope="col" class="num">
                  Conversations, last 7 days
                </th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((a) => (
                <tr key={a.id}>
                  <td>
                    <a href={to(`/assistants/${a.id}`)}>{a.name}</a>
                    {a.description && <div class="muted small">{a.description}</div>}
                  </td>
                  <td>{TYPE_LABELS[a.type] ?? a.type}</td>
                  <td>
                    {a.knowledgeBases.length ? a.knowledgeBases.map((k) => m.kbName(k.id)).join(', ') : <span class="muted">None</span>}
                  </td>
                  <td class="num">{a.stats?.conversations7d ?? '—'}</td>
                  <td>
                    <a class="button small" href={to(`/playground/${a.id}`)} aria-label={`Try ${a.name} in the playground`}>
                      Try
                    </a>
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
        title="Create an assistant"
        onClose={() => {
          creating.value = false;
        }}
        footer={
          <>
            <button
              type="button"
              class="button"
              onClick={() => {
                creating.value = false;
              }}
            >
              Cancel
            </button>
            <button type="submit" form="create-assistant" class="button primary" disabled={s.busy.value}>
              {s.busy.value ? 'Creating…' : 'Create'}
            </button>
          </>
        }
      >
        <form
          id="create-assistant"
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            const created = await m.create();
            if (created) {
              creating.value = false;
              route(to(`/assistants/${created.id}`));
            }
          }}
        >
          <ErrorNotice error={s.error.value && !Object.keys(s.error.value.fields).length ? s.error.value : null} />
          <TextField
            label="Name"
            required
            maxLength={100}
            autoFocus
            value={m.draft.name.value}
            onValue={(v) => {
              m.draft.name.value = v;
            }}
            error={s.fieldError('name')}
          />
          <SelectField<AssistantType>
            label="Type"
            hint="Where it will answer. It is set now and cannot change later."
            value={m.draft.type.value}
            options={TYPE_OPTIONS}
            onValue={(v) => {
              m.draft.type.value = v;
            }}
            error={s.fieldError('type')}
          />
        </form>
      </Dialog>
    </>
  );
}
