import { useSignal } from '@preact/signals';
import { useLocation } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { can } from '../lib/session.js';
import { EmptyState, ErrorNotice, Loading, PageHeader, Pager, formatDate } from '../ui/common.js';
import { Dialog } from '../ui/dialog.js';
import { TextArea, TextField } from '../ui/field.js';
import { ReadOnlyNote } from '../ui/read-only.js';
import { createKnowledgeBasesModel } from './knowledge-bases.model.js';

// Knowledge: every base of the organization, and a form to make a new one.
export default function KnowledgeBasesPage() {
  const m = useModel(() => createKnowledgeBasesModel(api));
  const { route } = useLocation();
  const creating = useSignal(false);
  const writable = can('knowledge_bases:write');
  useEffect(() => {
    void m.list.load();
  }, [m]);
  const data = m.list.data.value;

  return (
    <div>
      <PageHeader
        title="Knowledge"
        description="Knowledge bases hold the documents your assistants answer from."
        actions={
          writable && (
            <button
              type="button"
              class="button primary"
              onClick={() => {
                creating.value = true;
              }}
            >
              New knowledge base
            </button>
          )
        }
      />
      {!writable && <ReadOnlyNote what="knowledge bases" />}
      <ErrorNotice error={m.list.error.value} onRetry={() => void m.list.load()} />
      {!data && m.list.loading.value && <Loading />}
      {data && data.items.length === 0 && (
        <EmptyState title="No knowledge bases yet">
          <p class="muted">Create one, then add files, web pages or text to it.</p>
        </EmptyState>
      )}
      {data && data.items.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Knowledge bases</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col" class="num">
                  Documents
                </th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((kb) => (
                <tr key={kb.id}>
                  <td>
                    <a href={to(`/knowledge/${kb.id}`)}>{kb.name}</a>
                  </td>
                  <td class="muted">{kb.description || '—'}</td>
                  <td class="num">{kb.documentCount}</td>
                  <td>{formatDate(kb.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && <Pager page={data.page} pages={data.pages} onPage={(p) => void m.goTo(p)} />}

      <Dialog
        open={creating.value}
        title="New knowledge base"
        onClose={() => {
          creating.value = false;
        }}
      >
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            const kb = await m.createBase();
            if (kb) {
              creating.value = false;
              route(to(`/knowledge/${kb.id}`));
            }
          }}
        >
          <TextField
            label="Name"
            required
            maxLength={200}
            value={m.name.value}
            onValue={(v) => {
              m.name.value = v;
            }}
            error={m.create.fieldError('name')}
          />
          <TextArea
            label="Description"
            hint="Optional: what this knowledge is about."
            maxLength={2000}
            value={m.description.value}
            onValue={(v) => {
              m.description.value = v;
            }}
            error={m.create.fieldError('description')}
          />
          <ErrorNotice
            error={m.create.error.value && !Object.keys(m.create.error.value.fields).length ? m.create.error.value : null}
            onRetry={() => void m.createBase()}
          />
          <div class="actions">
            <button type="submit" class="button primary" disabled={m.create.busy.value}>
              {m.create.busy.value ? 'Creating…' : 'Create knowledge base'}
            </button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}
