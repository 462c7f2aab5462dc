import { useLocation, useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { can } from '../lib/session.js';
import { EmptyState, ErrorNotice, formatDate, Loading, PageHeader, Pager } from '../ui/common.js';
import { SelectField, TextArea, TextField } from '../ui/field.js';
import {
  CAUSE_LABELS,
  createKnowledgeGapsModel,
  pairReplays,
  type Gap,
  type KnowledgeGapsModel,
  type Replay,
  type SourceDoc,
} from './knowledge-gaps.model.js';

// Knowledge gaps: what users asked that the assistants could not answer, grouped. Expand a gap
// to its questions and the closest passages; answer it once (template or snippet) and watch the
// server replay every question; or dismiss it with a reason. Then: which sources are used.

export default function KnowledgeGapsPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const m = useModel(() => createKnowledgeGapsModel(api));
  useEffect(() => {
    void m.load();
  }, []);
  useEffect(() => {
    void m.open(params.gapId ?? null);
  }, [params.gapId]);
  const list = m.gaps.data.value;
  const names = new Map((m.assistants.data.value ?? []).map((a) => [a.id, a.name]));
  const toggle = (id: string) => route(m.openId.value === id ? to('/gaps') : to(`/gaps/${encodeURIComponent(id)}`));

  return (
    <div>
      <PageHeader
        title="Knowledge gaps"
        description="Questions your assistants could not answer well, grouped. Answer one once; every question in the group is asked again."
      />
      <div class="row">
        <SelectField
          label="Assistant"
          value={m.assistantId.value}
          onValue={(v) => m.setAssistant(v)}
          options={[
            { value: '', label: 'All assistants' },
            ...(m.assistants.data.value ?? []).map((a) => ({ value: a.id, label: a.name })),
          ]}
        />
        <p class="stat" role="status">
          <strong>{m.unanswered.data.value ?? '…'}</strong> unanswered question{m.unanswered.data.value === 1 ? '' : 's'}
        </p>
      </div>
      <ResolutionView model={m} />
      {m.dismissed.value && (
        <p class="notice notice-ok" role="status">
          <span>Dismissed “{m.dismissed.value.question}”.</span>
        </p>
      )}
      <LinkedGap model={m} onDone={() => route(to('/gaps'))} />
      <ErrorNotice error={m.gaps.error.value} onRetry={() => m.gaps.load()} />
      {!list ? (
        m.gaps.loading.value && <Loading />
      ) : list.total === 0 ? (
        <EmptyState title="No open knowledge gaps">
          <p class="muted">Every question was answered with enough confidence.</p>
        </EmptyState>
      ) : (
        <>
          <div class="table-wrap">
            <table class="gaps-table">
              <caption class="visually-hidden">Open knowledge gaps, most asked first</caption>
              <thead>
                <tr>
                  <th scope="col">Question</th>
                  <th scope="col" class="num">
                    Asked
                  </th>
                  <th scope="col">Last asked</th>
                  <th scope="col" class="num">
                    Best confidence
                  </th>
                  <th scope="col">Assistant</th>
                  <th scope="col">Cause</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((g) => {
                  const open = m.openId.value === g.id;
                  return [
                    <tr key={g.id} class={open ? 'row-open' : undefined}>
                      <td>
                        <button
                          type="button"
                          class="link-button"
                          aria-expanded={open}
                          aria-controls={`gap-${g.id}`}
                          onClick={() => toggle(g.id)}
                        >
                          <span aria-hidden="true">{open ? '▾ ' : '▸ '}</span>
                          {g.question}
                        </button>
                      </td>
                      <td class="num">{g.count}</td>
                      <td>{formatDate(g.lastAskedAt)}</td>
                      <td class="num">{g.bestConfidence === null ? '—' : g.bestConfidence.toFixed(2)}</td>
                      <td>{names.get(g.assistantId) ?? g.assistantId}</td>
                      <td>
                        <span class={`pill ${g.cause === 'rated_down' ? 'danger' : 'warn'}`}>{CAUSE_LABELS[g.cause] ?? g.cause}</span>
                      </td>
                    </tr>,
                    open && (
                      <tr key={`${g.id}-detail`} class="gap-detail-row">
                        <td colSpan={6} id={`gap-${g.id}`}>
                          <GapDetailView model={m} gap={g} onDone={() => route(to('/gaps'))} />
                        </td>
                      </tr>
                    ),
                  ];
                })}
              </tbody>
            </table>
          </div>
          <Pager page={list.page} pages={list.pages} onPage={(p) => m.setPage(p)} />
        </>
      )}
      <SourceUsePanel model={m} />
    </div>
  );
}

/** A gap opened by its link that is not on the list's current page (or no longer open): shown on its own. */
function LinkedGap({ model: m, onDone }: { model: KnowledgeGapsModel; onDone: () => void }) {
  const id = m.openId.value;
  const list = m.gaps.data.value;
  const d = m.detail.data.value;
  if (!id || !list || list.items.some((g) => g.id === id)) return null;
  if (m.detail.error.value) return <ErrorNotice error={m.detail.error.value} onRetry={() => m.detail.load()} />;
  if (!d || d.id !== id) return <Loading />;
  return (
    <section class="card" aria-labelledby="linked-gap">
      <h2 id="linked-gap">“{d.question}”</h2>
      <p class="muted">
        Asked {d.count} time{d.count === 1 ? '' : 's'}, last {formatDate(d.lastAskedAt)} · {CAUSE_LABELS[d.cause] ?? d.cause}
        {d.status !== 'open' && (
          <>
            {' '}
            · <strong>{d.status}</strong>
          </>
        )}
      </p>
      {d.status === 'open' ? (
        <GapDetailView model={m} gap={d} onDone={onDone} />
      ) : (
        <p>
          <a href={to('/gaps')}>Back to the open gaps</a>
        </p>
      )}
    </section>
  );
}

function GapDetailView({ model: m, gap, onDone }: { model: KnowledgeGapsModel; gap: Gap; onDone: () => void }) {
  const d = m.detail.data.value;
  const draft = m.draft.value;
  const set = (patch: Partial<typeof draft>) => {
    m.draft.value = { ...m.draft.value, ...patch };
  };
  const kbs = m.knowledgeBases.data.value ?? [];
  const canTemplate = can('assistants:write');
  const canSnippet = can('knowledge_bases:write');
  if (m.detail.error.value) return <ErrorNotice error={m.detail.error.value} onRetry={() => m.detail.load()} />;
  if (!d || d.id !== gap.id) return <Loading />;
  return (
    <div class="gap-detail">
      <div class="gap-columns">
        <section>
          <h3>Questions ({d.questions.length})</h3>
          <ul class="gap-questions">
            {d.questions.map((q, i) => (
              <li key={i}>
                “{q.question}”{' '}
                <span class="muted">
                  · {formatDate(q.askedAt)} · {CAUSE_LABELS[q.cause] ?? q.cause}
                  {q.confidence !== null ? ` · ${q.confidence.toFixed(2)}` : ''}
                </span>
                {q.sessionId && (
                  <>
                    {' '}
                    · <a href={to(`/conversations/${encodeURIComponent(q.sessionId)}`)}>conversation</a>
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
        <section>
          <h3>Closest passages</h3>
          {!d.passages.length ? (
            <p class="muted">Nothing in the knowledge bases comes close.</p>
          ) : (
            <ul class="gap-passages">
              {d.passages.map((p) => (
                <li key={String(p.chunkId)}>
                  <details>
                    <summary>
                      {p.title}
                      {p.heading ? ` › ${p.heading}` : ''} <span class="muted">· score {p.score.toFixed(2)}</span>
                    </summary>
                    <p class="source-text">{p.text}</p>
                    {p.url && (
                      <a href={p.url} target="_blank" rel="noopener noreferrer">
                        Open {p.title}
                      </a>
                    )}
                  </details>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      {canTemplate || canSnippet ? (
        <div class="gap-actions">
          <form
            class="card"
            aria-labelledby={`answer-${gap.id}`}
            onSubmit={async (e) => {
              e.preventDefault();
              if (await m.resolve()) onDone();
            }}
          >
            <h3 id={`answer-${gap.id}`}>Answer it</h3>
            <TextArea
              label="Answer"
              value={draft.answer}
              onValue={(answer) => set({ answer })}
              rows={5}
              required
              error={m.resolving.fieldError('answer')}
            />
            <div class="row">
              <SelectField
                label="Store as"
                value={draft.as}
                onValue={(as) => set({ as })}
                options={[
                  ...(canTemplate ? [{ value: 'template' as const, label: 'A response template' }] : []),
                  ...(canSnippet ? [{ value: 'snippet' as const, label: 'A knowledge snippet' }] : []),
                ]}
              />
              {draft.as === 'template' ? (
                <SelectField
                  label="Template match"
                  value={draft.match}
                  onValue={(match) => set({ match })}
                  options={[
                    { value: 'exact', label: 'Exactly these questions' },
                    { value: 'contains', label: 'Messages containing them' },
                  ]}
                />
              ) : (
                <SelectField
                  label="Knowledge base"
                  value={draft.knowledgeBaseId}
                  onValue={(knowledgeBaseId) => set({ knowledgeBaseId })}
                  error={m.resolving.fieldError('knowledgeBaseId')}
                  options={kbs.map((k) => ({ value: k.id, label: k.name }))}
                />
              )}
            </div>
            <ErrorNotice
              error={m.resolving.error.value && !Object.keys(m.resolving.error.value.fields).length ? m.resolving.error.value : null}
              onRetry={() => m.resolve()}
            />
            <button type="submit" class="button primary" disabled={m.resolving.busy.value || !draft.answer.trim()}>
              {m.resolving.busy.value ? 'Saving and asking again…' : 'Save and replay the questions'}
            </button>
          </form>
          <form
            class="card"
            aria-labelledby={`dismiss-${gap.id}`}
            onSubmit={async (e) => {
              e.preventDefault();
              if (await m.dismiss()) onDone();
            }}
          >
            <h3 id={`dismiss-${gap.id}`}>Dismiss</h3>
            <TextField
              label="Reason"
              value={m.dismissReason.value}
              onValue={(v) => {
                m.dismissReason.value = v;
              }}
              required
              maxLength={500}
              hint="For example: out of scope, spam, a test."
              error={m.dismissing.fieldError('reason')}
            />
            <ErrorNotice
              error={m.dismissing.error.value && !m.dismissing.fieldError('reason') ? m.dismissing.error.value : null}
              onRetry={() => m.dismiss()}
            />
            <button type="submit" class="button danger" disabled={m.dismissing.busy.value || !m.dismissReason.value.trim()}>
              Dismiss this gap
            </button>
          </form>
        </div>
      ) : (
        <p class="muted">Answering or dismissing a gap needs the assistants:write or knowledge_bases:write permission.</p>
      )}
    </div>
  );
}

function ReplayCell({ r }: { r: Replay | null }) {
  if (!r) return <td>—</td>;
  return (
    <td>
      <p class="replay-text">{r.response}</p>
      <span class={`pill ${r.fallback ? 'warn' : r.fallback === false ? 'ok' : ''}`}>
        Confidence {r.confidence.toFixed(2)}
        {r.fallback ? ' · fallback' : ''}
      </span>
    </td>
  );
}

function ResolutionView({ model: m }: { model: KnowledgeGapsModel }) {
  const r = m.resolution.value;
  if (!r) return null;
  const rows = pairReplays(r.result);
  const fixed = r.result.after.filter((a) => a.fallback === false).length;
  return (
    <section class="card resolution" aria-labelledby="resolution-heading">
      <h2 id="resolution-heading">Resolved: “{r.gap.question}”</h2>
      <p role="status">
        Stored as {r.result.as === 'template' ? 'a response template' : 'a knowledge snippet'}. {fixed} of {r.result.after.length} question
        {r.result.after.length === 1 ? '' : 's'} now answered.
      </p>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Every question of the gap, answered before and after</caption>
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.question}>
                <th scope="row">{row.question}</th>
                <ReplayCell r={row.before} />
                <ReplayCell r={row.after} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button
        type="button"
        class="button small"
        onClick={() => {
          m.resolution.value = null;
        }}
      >
        Close
      </button>
    </section>
  );
}

function DocLink({ doc }: { doc: SourceDoc }) {
  return <a href={to(`/knowledge/${doc.knowledgeBaseId}/documents/${doc.id}`)}>{doc.title}</a>;
}

function SourceUsePanel({ model: m }: { model: KnowledgeGapsModel }) {
  const s = m.sources.data.value;
  return (
    <section aria-labelledby="sources-heading">
      <h2 id="sources-heading">Source use</h2>
      <ErrorNotice error={m.sources.error.value} onRetry={() => m.sources.load()} />
      {!s ? (
        m.sources.loading.value && <Loading />
      ) : (
        <div class="source-use">
          <section class="card">
            <h3>Most cited</h3>
            {!s.mostCited.length ? (
              <p class="muted">No answer cited a document yet.</p>
            ) : (
              <ol>
                {s.mostCited.slice(0, 10).map((x) => (
                  <li key={x.doc.id}>
                    <DocLink doc={x.doc} />{' '}
                    <span class="muted">
                      · {x.count} answer{x.count === 1 ? '' : 's'}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section class="card">
            <h3>Cited in answers rated down</h3>
            {!s.citedInDownrated.length ? (
              <p class="muted">None.</p>
            ) : (
              <ol>
                {s.citedInDownrated.slice(0, 10).map((x) => (
                  <li key={x.doc.id}>
                    <DocLink doc={x.doc} /> <span class="muted">· {x.count} rated down</span>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section class="card">
            <h3>Never retrieved</h3>
            {!s.neverRetrieved.length ? (
              <p class="muted">Every document was used.</p>
            ) : (
              <ul>
                {s.neverRetrieved.slice(0, 10).map((d) => (
                  <li key={d.id}>
                    <DocLink doc={d} />
                  </li>
                ))}
              </ul>
            )}
            {s.neverRetrieved.length > 10 && <p class="muted">and {s.neverRetrieved.length - 10} more</p>}
          </section>
        </div>
      )}
    </section>
  );
}
