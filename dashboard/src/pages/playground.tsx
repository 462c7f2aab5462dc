import { useEffect, useRef } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { can } from '../lib/session.js';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../ui/common.js';
import { createPlaygroundModel, type Explain, type Turn } from './playground.model.js';
// The widget's own renderer (safe markdown as Preact nodes): the owner sees the answer as visitors do.
import { Markdown } from '../../../widget/src/markdown.js';

const pct = (n: number) => `${Math.round(n * 100)}%`;
const ms = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
/** The heading path without the document title it starts with (the title is already shown). */
export function sectionOf(title: string, heading: string | null): string {
  if (!heading) return '';
  const parts = heading.split(' › ');
  return (parts[0] === title ? parts.slice(1) : parts).join(' › ');
}
const OUTCOME: Record<Explain['outcome'], string> = {
  answered: 'Answered from knowledge',
  fallback: 'Fallback message',
  template: 'Template response',
};

function WhyThisAnswer({ x, turn }: { x: Explain; turn: Turn }) {
  const above = x.confidence >= x.threshold;
  return (
    <details class="why">
      <summary>Why this answer</summary>
      <div class="why-body">
        <dl class="why-facts">
          <div>
            <dt>Outcome</dt>
            <dd>
              {OUTCOME[x.outcome] ?? x.outcome}
              {x.reason && x.reason !== `template ${x.templateId}` ? ` (${x.reason})` : ''}
              {x.templateId ? ` · template ${x.templateId}` : ''}
            </dd>
          </div>
          <div>
            <dt>Confidence</dt>
            <dd>
              <span class={`pill ${above ? 'ok' : 'warn'}`}>{pct(x.confidence)}</span> {above ? 'at or above' : 'below'} the threshold of{' '}
              {pct(x.threshold)}
              <meter
                class="confidence-meter"
                min={0}
                max={1}
                low={x.threshold}
                optimum={1}
                value={x.confidence}
                aria-label={`Confidence ${pct(x.confidence)}, threshold ${pct(x.threshold)}`}
              />
            </dd>
          </div>
          <div>
            <dt>Timings</dt>
            <dd>
              retrieval {ms(x.timings.retrievalMs)} · answer {ms(x.timings.answerMs)} · total {ms(x.timings.totalMs)}
            </dd>
          </div>
          <div>
            <dt>Model</dt>
            <dd>
              {x.usage
                ? `${x.usage.provider}${x.usage.model ? ` ${x.usage.model}` : ''}${x.usage.promptTokens !== null ? ` · ${x.usage.promptTokens} prompt + ${x.usage.completionTokens ?? 0} completion tokens` : ''}`
                : 'No model call'}
            </dd>
          </div>
        </dl>
        <h4>Retrieved passages ({x.passages.length})</h4>
        {x.passages.length === 0 ? (
          <p class="muted">No passage matched the question.</p>
        ) : (
          <ol class="passages">
            {x.passages.map((p) => (
              <li key={p.chunkId}>
                <div class="passage-head">
                  <strong>
                    {p.url ? (
                      <a href={p.url} target="_blank" rel="noreferrer">
                        {p.title}
                      </a>
                    ) : (
                      p.title
                    )}
                  </strong>
                  {sectionOf(p.title, p.heading) && <span class="muted">{sectionOf(p.title, p.heading)}</span>}
                  <span class="pill">score {p.score.toFixed(3)}</span>
                </div>
                <p class="passage-text">{p.text}</p>
              </li>
            ))}
          </ol>
        )}
        {turn.done?.sources.length ? <p class="hint">Cited: {turn.done.sources.map((s) => s.title).join(', ')}</p> : null}
      </div>
    </details>
  );
}

function TurnView({ t }: { t: Turn }) {
  return (
    <li class={`pg-turn pg-turn-${t.role}`}>
      <p class="pg-turn-who">{t.role === 'user' ? 'You' : 'Assistant'}</p>
      <div class="pg-turn-text">
        {t.text ? t.role === 'user' ? t.text : <Markdown text={t.text} /> : t.streaming ? <span class="muted">Thinking…</span> : ''}
      </div>
      {t.error && (
        <p class="field-error" role="alert">
          {t.error}
        </p>
      )}
      {t.done && <p class="hint">Confidence {pct(t.done.confidence)}</p>}
      {t.done?.explain && <WhyThisAnswer x={t.done.explain} turn={t} />}
    </li>
  );
}

export default function PlaygroundPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const m = useModel(() => createPlaygroundModel(api, params.id ?? null));
  const input = useRef<HTMLTextAreaElement>(null);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    void m.load();
  }, []);
  useEffect(() => {
    if (params.id && params.id !== m.assistantId.value) m.choose(params.id);
  }, [params.id]);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [m.turns.value]);
  const list = m.assistants.data.value;
  const current = m.selected();

  if (!can('chat'))
    return (
      <>
        <PageHeader title="Playground" />
        <p class="notice">Your role cannot chat with assistants.</p>
      </>
    );
  return (
    <>
      <PageHeader
        title="Playground"
        description="Chat with an assistant through the real chat path. Playground conversations are left out of analytics."
      />
      <ErrorNotice error={m.assistants.error.value} onRetry={() => void m.load()} />
      {!list && m.assistants.loading.value && <Loading />}
      {list && list.length === 0 && (
        <EmptyState title="No assistants yet">
          <p>
            <a href={to('/assistants')}>Create an assistant</a> to try it here.
          </p>
        </EmptyState>
      )}
      {list && list.length > 0 && (
        <div class="playground">
          <div class="row playground-bar">
            <div class="field">
              <label for="pg-assistant">Assistant</label>
              <select
                id="pg-assistant"
                value={m.assistantId.value ?? ''}
                onChange={(e) => {
                  const id = e.currentTarget.value;
                  m.choose(id);
                  route(to(`/playground/${id}`), true);
                }}
              >
                {list.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              class="button"
              onClick={() => {
                m.newConversation();
                input.current?.focus();
              }}
            >
              New conversation
            </button>
            {current && (
              <a class="button" href={to(`/assistants/${current.id}`)}>
                Edit {current.name}
              </a>
            )}
          </div>
          <section class="card pg-transcript" aria-labelledby="transcript-title">
            <h2 id="transcript-title" class="visually-hidden">
              Conversation
            </h2>
            {m.turns.value.length === 0 && (
              <p class="muted">
                Ask {current?.name ?? 'the assistant'} something. Under each answer, “Why this answer” shows what it found and why it
                answered that way.
              </p>
            )}
            <ol class="pg-turns" aria-live="polite">
              {m.turns.value.map((t) => (
                <TurnView key={t.id} t={t} />
              ))}
            </ol>
            <div ref={end} />
          </section>
          <form
            class="composer"
            onSubmit={(e) => {
              e.preventDefault();
              void m.send();
            }}
          >
            <label for="pg-message">Message</label>
            <div class="composer-row">
              <textarea
                id="pg-message"
                ref={input}
                rows={2}
                maxLength={4000}
                value={m.draft.value}
                onInput={(e) => {
                  m.draft.value = e.currentTarget.value;
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey) {
                    e.preventDefault();
                    void m.send();
                  }
                }}
              />
              <button type="submit" class="button primary" disabled={m.busy.value || !m.draft.value.trim()}>
                {m.busy.value ? 'Answering…' : 'Send'}
              </button>
            </div>
            <p class="hint">Enter sends; Shift+Enter adds a line.</p>
          </form>
        </div>
      )}
    </>
  );
}
