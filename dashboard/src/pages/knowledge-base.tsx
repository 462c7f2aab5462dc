import { useSignal } from '@preact/signals';
import { useLocation, useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { can } from '../lib/session.js';
import { EmptyState, ErrorNotice, Loading, PageHeader, Pager, formatBytes, formatDate } from '../ui/common.js';
import { ConfirmDialog, Dialog } from '../ui/dialog.js';
import { Checkbox, SelectField, TextArea, TextField } from '../ui/field.js';
import { ReadOnlyNote } from '../ui/read-only.js';
import {
  ACCEPTED_FILES,
  MAX_CRAWL_DEPTH,
  MAX_CRAWL_PAGES,
  createKnowledgeBaseModel,
  describeProgress,
  isActive,
  progressFraction,
  type KbDocument,
  type KnowledgeBaseModel,
} from './knowledge-base.model.js';

const SOURCE_LABEL: Record<KbDocument['source'], string> = { inline: 'Text', file: 'File', url: 'Web page', crawl: 'Crawl' };
const STATUS_PILL: Record<KbDocument['status'], string> = { ready: 'ok', queued: 'warn', processing: 'warn', failed: 'danger' };

export default function KnowledgeBasePage() {
  const { params } = useRoute();
  const kbId = params.kbId!;
  const m = useModel(() => createKnowledgeBaseModel(api, kbId), [kbId]);
  const { route } = useLocation();
  const editing = useSignal(false);
  const confirmDelete = useSignal(false);
  const writable = can('knowledge_bases:write');
  useEffect(() => {
    void m.load();
    m.watch();
    return () => m.stop();
  }, [m]);

  const kb = m.kb.data.value;
  if (!kb) {
    return m.kb.error.value ? (
      <div>
        <PageHeader title="Knowledge base" />
        <ErrorNotice error={m.kb.error.value} onRetry={() => void m.load()} />
        <p>
          <a href={to('/knowledge')}>Back to knowledge bases</a>
        </p>
      </div>
    ) : (
      <Loading />
    );
  }

  return (
    <div>
      <p class="crumbs">
        <a href={to('/knowledge')}>Knowledge</a> / <span aria-current="page">{kb.name}</span>
      </p>
      <PageHeader
        title={kb.name}
        description={kb.description || `${kb.documentCount} documents, ${kb.chunkCount} chunks`}
        actions={
          writable && (
            <>
              <button
                type="button"
                class="button"
                onClick={() => {
                  editing.value = true;
                }}
              >
                Rename or describe
              </button>
              <button
                type="button"
                class="button danger"
                onClick={() => {
                  confirmDelete.value = true;
                }}
              >
                Delete knowledge base
              </button>
            </>
          )
        }
      />
      {!writable && <ReadOnlyNote what="this knowledge base" />}

      <Documents m={m} writable={writable} />
      {writable && (
        <section aria-labelledby="add-heading">
          <h2 id="add-heading">Add knowledge</h2>
          <div class="kb-add-grid">
            <UploadCard m={m} />
            <UrlCard m={m} />
            <TextCard m={m} />
          </div>
        </section>
      )}
      <SearchCard m={m} />

      <Dialog
        open={editing.value}
        title="Rename or describe"
        onClose={() => {
          editing.value = false;
        }}
      >
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            if (await m.saveSettings()) editing.value = false;
          }}
        >
          <TextField
            label="Name"
            required
            maxLength={200}
            value={m.settings.name.value}
            onValue={(v) => {
              m.settings.name.value = v;
            }}
            error={m.settings.submit.fieldError('name')}
          />
          <TextArea
            label="Description"
            maxLength={2000}
            value={m.settings.description.value}
            onValue={(v) => {
              m.settings.description.value = v;
            }}
            error={m.settings.submit.fieldError('description')}
          />
          <ErrorNotice
            error={
              m.settings.submit.error.value && !Object.keys(m.settings.submit.error.value.fields).length
                ? m.settings.submit.error.value
                : null
            }
            onRetry={() => void m.saveSettings()}
          />
          <button type="submit" class="button primary" disabled={m.settings.submit.busy.value}>
            Save
          </button>
        </form>
      </Dialog>
      <ConfirmDialog
        open={confirmDelete.value}
        title="Delete this knowledge base?"
        confirmLabel="Delete knowledge base"
        message={
          <p>
            “{kb.name}” and its {kb.documentCount} documents will be deleted. Assistants connected to it stop answering from it. This cannot
            be undone.
          </p>
        }
        busy={m.removeBase.busy.value}
        error={m.removeBase.error.value?.message ?? null}
        onCancel={() => {
          confirmDelete.value = false;
        }}
        onConfirm={async () => {
          if (await m.deleteBase()) {
            confirmDelete.value = false;
            route(to('/knowledge'));
          }
        }}
      />
    </div>
  );
}

function Documents({ m, writable }: { m: KnowledgeBaseModel; writable: boolean }) {
  const toDelete = useSignal<KbDocument | null>(null);
  const data = m.docs.data.value;
  return (
    <section aria-labelledby="docs-heading">
      <div class="section-head">
        <h2 id="docs-heading">Documents</h2>
        <span class="muted" role="status">
          {m.active.value ? 'Updating live while documents are being fetched…' : ''}
        </span>
      </div>
      <ErrorNotice error={m.docs.error.value} onRetry={() => void m.refresh()} />
      <ErrorNotice error={m.rowAction.error.value} />
      {!data && m.docs.loading.value && <Loading />}
      {data && data.items.length === 0 && (
        <EmptyState title="No documents yet">
          <p class="muted">Upload files, add a web page or crawl a site, or paste text below.</p>
        </EmptyState>
      )}
      {data && data.items.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Documents</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Source</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Chunks
                </th>
                <th scope="col" class="num">
                  Size
                </th>
                <th scope="col">Updated</th>
                {writable && (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.items.map((d) => {
                const fraction = progressFraction(d);
                const line = describeProgress(d);
                return (
                  <tr key={d.id}>
                    <td class="doc-title">
                      <a href={to(`/knowledge/${m.kbId}/documents/${d.id}`)}>{d.title}</a>
                      {d.url && d.url !== d.title && <div class="hint url">{d.url}</div>}
                    </td>
                    <td>
                      {SOURCE_LABEL[d.source] ?? d.source}
                      <div class="hint">{d.format}</div>
                    </td>
                    <td>
                      <span class={`pill ${STATUS_PILL[d.status]}`}>{d.status}</span>
                      {isActive(d) && fraction !== null && (
                        <progress class="doc-progress" max={1} value={fraction} aria-label={`${d.title}: crawl progress`} />
                      )}
                      {line && <div class={d.status === 'failed' ? 'field-error' : 'hint'}>{line}</div>}
                    </td>
                    <td class="num">{d.chunkCount}</td>
                    <td class="num">{formatBytes(d.bytes)}</td>
                    <td>{formatDate(d.updatedAt)}</td>
                    {writable && (
                      <td class="row-actions">
                        {(d.source === 'url' || d.source === 'crawl') && (
                          <button
                            type="button"
                            class="button small"
                            disabled={isActive(d) || m.rowAction.busy.value}
                            aria-label={`Re-sync ${d.title}`}
                            onClick={() => void m.resync(d.id)}
                          >
                            Re-sync
                          </button>
                        )}
                        <button
                          type="button"
                          class="button small danger"
                          aria-label={`Delete ${d.title}`}
                          onClick={() => {
                            toDelete.value = d;
                          }}
                        >
                          Delete
                        </button>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {data && <Pager page={data.page} pages={data.pages} onPage={(p) => void m.goTo(p)} />}
      <ConfirmDialog
        open={!!toDelete.value}
        title="Delete this document?"
        confirmLabel="Delete document"
        message={
          <p>
            “{toDelete.value?.title}” and its {toDelete.value?.chunkCount} chunks will be removed from this knowledge base.
          </p>
        }
        busy={m.rowAction.busy.value}
        error={m.rowAction.error.value?.message ?? null}
        onCancel={() => {
          toDelete.value = null;
        }}
        onConfirm={async () => {
          if (toDelete.value && (await m.deleteDocument(toDelete.value.id))) toDelete.value = null;
        }}
      />
    </section>
  );
}

function UploadCard({ m }: { m: KnowledgeBaseModel }) {
  const over = useSignal(false);
  const uploads = m.uploads.value;
  const send = (list: FileList | null | undefined) => {
    const files = Array.from(list ?? []);
    if (files.length) void m.uploadFiles(files);
  };
  return (
    <div class="card">
      <h3>Upload files</h3>
      <div
        class={`dropzone${over.value ? ' dropzone-over' : ''}`}
        role="group"
        aria-label="Drop files to upload"
        onDragOver={(e) => {
          e.preventDefault();
          over.value = true;
        }}
        onDragLeave={() => {
          over.value = false;
        }}
        onDrop={(e) => {
          e.preventDefault();
          over.value = false;
          send(e.dataTransfer?.files);
        }}
      >
        <p>Drop files here, or</p>
        <label class="button">
          Choose files
          <input
            type="file"
            class="visually-hidden"
            multiple
            accept={ACCEPTED_FILES}
            onChange={(e) => {
              send(e.currentTarget.files);
              e.currentTarget.value = '';
            }}
          />
        </label>
        <p class="hint">PDF, DOCX, Markdown, HTML or text; up to 25 MB each.</p>
      </div>
      {uploads.length > 0 && (
        <>
          <ul class="uploads" aria-label="Uploads">
            {uploads.map((u) => (
              <li key={u.key}>
                <div class="upload-line">
                  <span class="upload-name">{u.name}</span>
                  <span class="hint">{formatBytes(u.size)}</span>
                  <span class={`pill ${u.state === 'done' ? 'ok' : u.state === 'failed' ? 'danger' : ''}`}>
                    {u.state === 'uploading' ? `${Math.round(u.progress * 100)} %` : u.state === 'done' ? 'added' : u.state}
                  </span>
                </div>
                {(u.state === 'uploading' || u.state === 'waiting') && (
                  <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />
                )}
                {u.error && (
                  <p class="field-error" role="alert">
                    {u.name}: {u.error}
                  </p>
                )}
              </li>
            ))}
          </ul>
          <button type="button" class="button small" onClick={() => m.clearFinishedUploads()}>
            Clear finished
          </button>
        </>
      )}
    </div>
  );
}

function UrlCard({ m }: { m: KnowledgeBaseModel }) {
  const f = m.urlForm;
  const s = f.submit;
  return (
    <form
      class="card"
      onSubmit={async (e) => {
        e.preventDefault();
        await m.addUrl();
      }}
    >
      <h3>Add a web page or crawl a site</h3>
      <TextField
        label="URL"
        type="url"
        required
        placeholder="https://example.com/help"
        value={f.url.value}
        onValue={(v) => {
          f.url.value = v;
        }}
        error={s.fieldError('url')}
      />
      <TextField
        label="Title (optional)"
        value={f.title.value}
        onValue={(v) => {
          f.title.value = v;
        }}
        error={s.fieldError('title')}
      />
      <Checkbox
        label="Crawl the site from this page"
        checked={f.crawl.value}
        onValue={(v) => {
          f.crawl.value = v;
        }}
        hint="Follows links on the same site, respecting robots.txt."
      />
      {f.crawl.value && (
        <div class="row">
          <TextField
            label="Max pages"
            type="number"
            min={1}
            max={MAX_CRAWL_PAGES}
            value={f.maxPages.value}
            onValue={(v) => {
              f.maxPages.value = v;
            }}
            error={s.fieldError('crawl.maxPages')}
          />
          <TextField
            label="Max depth"
            type="number"
            min={0}
            max={MAX_CRAWL_DEPTH}
            value={f.maxDepth.value}
            onValue={(v) => {
              f.maxDepth.value = v;
            }}
            error={s.fieldError('crawl.maxDepth')}
          />
        </div>
      )}
      <ErrorNotice
        error={s.error.value && !Object.keys(s.error.value.fields).length ? s.error.value : null}
        onRetry={() => void m.addUrl()}
      />
      <button type="submit" class="button primary" disabled={s.busy.value}>
        {s.busy.value ? 'Adding…' : f.crawl.value ? 'Start crawl' : 'Add page'}
      </button>
    </form>
  );
}

function TextCard({ m }: { m: KnowledgeBaseModel }) {
  const f = m.textForm;
  const s = f.submit;
  return (
    <form
      class="card"
      onSubmit={async (e) => {
        e.preventDefault();
        await m.addText();
      }}
    >
      <h3>Add text or Markdown</h3>
      <TextField
        label="Document title"
        required
        maxLength={500}
        value={f.title.value}
        onValue={(v) => {
          f.title.value = v;
        }}
        error={s.fieldError('title')}
      />
      <SelectField
        label="Format"
        value={f.format.value}
        onValue={(v) => {
          f.format.value = v;
        }}
        options={[
          { value: 'markdown', label: 'Markdown' },
          { value: 'text', label: 'Plain text' },
        ]}
        error={s.fieldError('format')}
      />
      <TextArea
        label="Content"
        required
        rows={6}
        value={f.content.value}
        onValue={(v) => {
          f.content.value = v;
        }}
        error={s.fieldError('content')}
      />
      <ErrorNotice
        error={s.error.value && !Object.keys(s.error.value.fields).length ? s.error.value : null}
        onRetry={() => void m.addText()}
      />
      <button type="submit" class="button primary" disabled={s.busy.value}>
        {s.busy.value ? 'Adding…' : 'Add text'}
      </button>
    </form>
  );
}

function SearchCard({ m }: { m: KnowledgeBaseModel }) {
  const s = m.search;
  const results = s.results.value;
  return (
    <section class="card" aria-labelledby="search-heading">
      <h2 id="search-heading">Test retrieval</h2>
      <p class="muted">Ask a question the way a visitor would: these are the passages an assistant would answer from, best first.</p>
      <form
        class="row"
        onSubmit={async (e) => {
          e.preventDefault();
          await m.runSearch();
        }}
      >
        <TextField
          label="Question"
          type="search"
          required
          value={s.query.value}
          onValue={(v) => {
            s.query.value = v;
          }}
          error={s.submit.fieldError('query')}
        />
        <SelectField
          label="Passages"
          value={s.limit.value}
          onValue={(v) => {
            s.limit.value = v;
          }}
          options={['5', '10', '20'].map((v) => ({ value: v, label: v }))}
        />
        <div class="field">
          <button type="submit" class="button primary" disabled={s.submit.busy.value}>
            Search
          </button>
        </div>
      </form>
      <ErrorNotice
        error={s.submit.error.value && !Object.keys(s.submit.error.value.fields).length ? s.submit.error.value : null}
        onRetry={() => void m.runSearch()}
      />
      {results && results.length === 0 && <p role="status">No passage matches this question.</p>}
      {results && results.length > 0 && (
        <ol class="passages" aria-label="Ranked passages">
          {results.map((h) => (
            <li key={h.chunkId} class="passage">
              <div class="passage-head">
                <a href={to(`/knowledge/${m.kbId}/documents/${h.documentId}`)}>{h.title}</a>
                {h.page ? <span class="hint">page {h.page}</span> : null}
                <span class="pill">score {h.score.toFixed(3)}</span>
              </div>
              <p class="passage-text">{h.text}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
