import { useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { EmptyState, ErrorNotice, Loading, PageHeader, Pager, formatBytes, formatDate } from '../ui/common.js';
import { CHUNKS_PAGE_SIZE, createDocumentModel, headingPath } from './document.model.js';
import { describeProgress } from './knowledge-base.model.js';

export default function DocumentPage() {
  const { params } = useRoute();
  const m = useModel(() => createDocumentModel(api, params.kbId!, params.docId!), [params.kbId, params.docId]);
  useEffect(() => {
    void m.load();
  }, [m]);
  const doc = m.doc.data.value;
  const kb = m.kb.data.value;
  const chunks = m.chunks.data.value;

  if (!doc) {
    return m.doc.error.value ? (
      <div>
        <PageHeader title="Document" />
        <ErrorNotice error={m.doc.error.value} onRetry={() => void m.load()} />
        <p>
          <a href={to(`/knowledge/${m.kbId}`)}>Back to the knowledge base</a>
        </p>
      </div>
    ) : (
      <Loading />
    );
  }
  const progress = describeProgress(doc);
  return (
    <div>
      <p class="crumbs">
        <a href={to('/knowledge')}>Knowledge</a> / <a href={to(`/knowledge/${m.kbId}`)}>{kb?.name ?? 'Knowledge base'}</a> /{' '}
        <span aria-current="page">{doc.title}</span>
      </p>
      <PageHeader title={doc.title} />
      <section class="card" aria-labelledby="meta-heading">
        <h2 id="meta-heading">Details</h2>
        <dl class="meta">
          <dt>Status</dt>
          <dd>
            <span class={`pill ${doc.status === 'ready' ? 'ok' : doc.status === 'failed' ? 'danger' : 'warn'}`}>{doc.status}</span>
            {progress && <span class="hint"> {progress}</span>}
          </dd>
          <dt>Source</dt>
          <dd>
            {doc.source} ({doc.format})
          </dd>
          {doc.url && (
            <>
              <dt>URL</dt>
              <dd>
                <a href={doc.url} rel="noreferrer noopener" target="_blank">
                  {doc.url}
                </a>
              </dd>
            </>
          )}
          <dt>Chunks</dt>
          <dd>{doc.chunkCount}</dd>
          <dt>Size</dt>
          <dd>{formatBytes(doc.bytes)}</dd>
          <dt>Added</dt>
          <dd>{formatDate(doc.createdAt)}</dd>
          <dt>Updated</dt>
          <dd>{formatDate(doc.updatedAt)}</dd>
          {doc.syncedAt && (
            <>
              <dt>Last fetched</dt>
              <dd>{formatDate(doc.syncedAt)}</dd>
            </>
          )}
        </dl>
      </section>

      <section aria-labelledby="chunks-heading">
        <h2 id="chunks-heading">Chunks</h2>
        <p class="muted">The passages retrieval searches, in document order, each with the heading it sits under.</p>
        <ErrorNotice error={m.chunks.error.value} onRetry={() => void m.chunks.load()} />
        {!chunks && m.chunks.loading.value && <Loading />}
        {chunks && chunks.items.length === 0 && (
          <EmptyState title="No chunks">
            <p class="muted">This document has no indexed text yet.</p>
          </EmptyState>
        )}
        {chunks && chunks.items.length > 0 && (
          <ol class="chunks" start={(chunks.page - 1) * CHUNKS_PAGE_SIZE + 1} aria-label="Chunks">
            {chunks.items.map((c) => {
              const path = headingPath(c.heading);
              return (
                <li key={c.id} class="chunk">
                  <div class="chunk-head">
                    {path.length > 0 ? (
                      <span class="heading-path" aria-label="Heading path">
                        {path.map((h, i) => (
                          <span key={i}>
                            {i > 0 && <span aria-hidden="true"> › </span>}
                            {h}
                          </span>
                        ))}
                      </span>
                    ) : (
                      <span class="hint">No heading</span>
                    )}
                    {c.page ? <span class="pill">page {c.page}</span> : null}
                  </div>
                  <p class="chunk-text">{c.text}</p>
                  {c.url && c.url !== doc.url && <p class="hint url">{c.url}</p>}
                </li>
              );
            })}
          </ol>
        )}
        {chunks && <Pager page={chunks.page} pages={chunks.pages} onPage={(p) => void m.goTo(p)} />}
      </section>
    </div>
  );
}
