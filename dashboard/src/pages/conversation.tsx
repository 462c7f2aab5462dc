import { useSignal } from '@preact/signals';
import { useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { api } from '../lib/api.js';
import { refreshHandoffs } from '../lib/handoffs.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { can } from '../lib/session.js';
import { ErrorNotice, formatDate, Loading, PageHeader } from '../ui/common.js';
import { ConfirmDialog, Dialog } from '../ui/dialog.js';
import { Checkbox, SelectField, TextArea } from '../ui/field.js';
import { CHANNEL_LABELS, type Channel } from './analytics-query.js';
import { formatMetric } from './analytics.model.js';
import { createConversationModel, questionBefore, type ConversationModel, type Correction, type Turn } from './conversation.model.js';
// The widget's own renderer (safe markdown as Preact nodes): the transcript reads as the visitor saw it.
import { Markdown } from '../../../widget/src/markdown.js';

// One conversation: user, assistant and human-agent turns; under each answer its sources,
// confidence against the threshold, template/fallback marker, feedback and response time. An
// agent replies as a human, ends the conversation, or corrects an answer.

const ROLE_LABEL: Record<Turn['role'], string> = { user: 'User', assistant: 'Assistant', human_agent: 'Human agent' };

export default function ConversationPage() {
  const { params } = useRoute();
  const sessionId = params.sessionId ?? '';
  const m = useModel(() => createConversationModel(api, sessionId), [sessionId]);
  useEffect(() => {
    void m.load();
  }, [m]);
  const c = m.detail.data.value;

  return (
    <div>
      <p class="breadcrumb">
        <a href={to('/conversations')}>Conversations</a>
      </p>
      <PageHeader
        title="Conversation"
        description={<code class="session-id">{sessionId}</code>}
        actions={c && c.status === 'active' && can('conversations:write') ? <EndButton model={m} /> : null}
      />
      <ErrorNotice error={m.detail.error.value} onRetry={() => m.load()} />
      {!c ? (
        m.detail.loading.value && <Loading />
      ) : (
        <>
          <dl class="facts card">
            <div>
              <dt>Started</dt>
              <dd>{formatDate(c.startedAt)}</dd>
            </div>
            <div>
              <dt>Last message</dt>
              <dd>{formatDate(c.lastMessageAt)}</dd>
            </div>
            <div>
              <dt>Assistant</dt>
              <dd>
                <a href={to(`/assistants/${c.assistantId}`)}>{m.assistantName.value ?? c.assistantId}</a>
              </dd>
            </div>
            <div>
              <dt>Channel</dt>
              <dd>{CHANNEL_LABELS[c.channel as Channel] ?? c.channel}</dd>
            </div>
            <div>
              <dt>User</dt>
              <dd>{c.userId ?? '—'}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>{c.status === 'ended' ? `Ended ${formatDate(c.endedAt)}` : 'Active'}</dd>
            </div>
            {c.threshold !== null && (
              <div>
                <dt>Confidence threshold</dt>
                <dd>{c.threshold}</dd>
              </div>
            )}
          </dl>
          {c.handoffRequestedAt && <HandoffNotice at={c.handoffRequestedAt} handoff={c.metadata.handoff} />}
          <h2>Transcript</h2>
          <ol class="transcript">
            {c.messages.map((t) => (
              <TurnView
                key={t.id}
                model={m}
                turn={t}
                threshold={c.threshold}
                corrections={c.corrections.filter((x) => x.messageId === t.id)}
              />
            ))}
          </ol>
          {can('conversations:write') ? (
            c.status === 'active' ? (
              <ReplyBox model={m} />
            ) : (
              <p class="muted">This conversation has ended.</p>
            )
          ) : (
            <p class="muted">Replying needs the conversations:write permission.</p>
          )}
          <CorrectionDialog model={m} />
        </>
      )}
    </div>
  );
}

/** When the user asked for a person, and what they left with the request (widget: email, note). */
function HandoffNotice({ at, handoff }: { at: string; handoff: unknown }) {
  const h = (handoff && typeof handoff === 'object' ? handoff : {}) as { email?: unknown; note?: unknown };
  const email = typeof h.email === 'string' ? h.email : null;
  const note = typeof h.note === 'string' ? h.note : null;
  return (
    <div class="notice notice-warn">
      <span>
        The user asked for a human {formatDate(at)}.
        {email && (
          <>
            {' '}
            Email: <a href={`mailto:${email}`}>{email}</a>.
          </>
        )}
        {note && <> Note: “{note}”</>}
      </span>
    </div>
  );
}

function EndButton({ model: m }: { model: ConversationModel }) {
  const open = useSignal(false);
  return (
    <>
      <button
        type="button"
        class="button danger"
        onClick={() => {
          open.value = true;
        }}
      >
        End conversation
      </button>
      <ConfirmDialog
        open={open.value}
        title="End this conversation?"
        confirmLabel="End conversation"
        busy={m.ending.busy.value}
        error={m.ending.error.value?.message ?? null}
        message="The user can no longer continue it; a new message starts a new conversation."
        onCancel={() => {
          open.value = false;
        }}
        onConfirm={async () => {
          if (await m.end()) open.value = false;
        }}
      />
    </>
  );
}

function TurnView({
  model: m,
  turn: t,
  threshold,
  corrections,
}: {
  model: ConversationModel;
  turn: Turn;
  threshold: number | null;
  corrections: Correction[];
}) {
  const canCorrect = can('assistants:write') || can('knowledge_bases:write');
  return (
    <li class={`turn turn-${t.role}`}>
      <div class="turn-head">
        <strong>{ROLE_LABEL[t.role]}</strong>{' '}
        <time class="muted" dateTime={t.timestamp}>
          {formatDate(t.timestamp)}
        </time>
      </div>
      <div class="turn-text">{t.role === 'user' ? t.content : <Markdown text={t.content} />}</div>
      {t.role === 'assistant' && (
        <div class="turn-meta">
          <ul class="turn-facts" aria-label="About this answer">
            {t.confidence !== null && t.confidence !== undefined && (
              <li class={`pill ${threshold !== null && t.confidence < threshold ? 'warn' : 'ok'}`}>
                Confidence {t.confidence.toFixed(2)}
                {threshold !== null ? ` ${t.confidence < threshold ? '<' : '≥'} threshold ${threshold}` : ''}
              </li>
            )}
            {t.templateId && <li class="pill">Template</li>}
            {t.fellBack && <li class="pill warn">Fallback</li>}
            {t.responseMs !== null && t.responseMs !== undefined && <li class="pill">Response {formatMetric(t.responseMs, 'ms')}</li>}
            {t.rating && <li class={`pill ${t.rating === 'up' ? 'ok' : 'danger'}`}>Rated {t.rating}</li>}
          </ul>
          {t.ratingComment && (
            <blockquote class="rating-comment">
              <span class="muted">User’s comment:</span> {t.ratingComment}
            </blockquote>
          )}
          {!!t.sources?.length && (
            <div class="sources">
              <h3 class="sources-title">Sources</h3>
              <ul>
                {t.sources.map((s, i) => (
                  <li key={i}>
                    <details>
                      <summary>
                        {s.title || `Source ${i + 1}`} <span class="muted">· score {s.score.toFixed(2)}</span>
                      </summary>
                      <p class="source-text">{s.text}</p>
                      {s.url && (
                        <a href={s.url} target="_blank" rel="noopener noreferrer">
                          Open {s.title || 'the source'}
                        </a>
                      )}
                    </details>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {corrections.map((x) => (
            <p key={x.id} class="notice notice-ok">
              <span>
                Corrected {formatDate(x.createdAt)}:{' '}
                {x.templateId && <a href={to(`/assistants/${m.detail.data.value?.assistantId}/templates`)}>response template</a>}
                {x.templateId && x.documentId && ' and '}
                {x.documentId && x.knowledgeBaseId && (
                  <a href={to(`/knowledge/${x.knowledgeBaseId}/documents/${x.documentId}`)}>knowledge snippet</a>
                )}
              </span>
            </p>
          ))}
          {canCorrect && (
            <button type="button" class="button small" onClick={() => m.openCorrection(t)}>
              Correct this answer
            </button>
          )}
        </div>
      )}
    </li>
  );
}

function ReplyBox({ model: m }: { model: ConversationModel }) {
  return (
    <form
      class="card reply-box"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await m.sendReply()) void refreshHandoffs();
      }}
    >
      <TextArea
        label="Reply as a human"
        value={m.replyText.value}
        onValue={(v) => {
          m.replyText.value = v;
        }}
        rows={3}
        hint="The user sees this in the widget as a reply from your team."
        error={m.reply.fieldError('content')}
      />
      <ErrorNotice
        error={m.reply.error.value && !m.reply.fieldError('content') ? m.reply.error.value : null}
        onRetry={() => m.sendReply()}
      />
      <div class="actions">
        <button type="submit" class="button primary" disabled={m.reply.busy.value || !m.replyText.value.trim()}>
          {m.reply.busy.value ? 'Sending…' : 'Send reply'}
        </button>
        <span class="saved" role="status">
          {m.reply.saved.value ? 'Sent' : ''}
        </span>
      </div>
    </form>
  );
}

function CorrectionDialog({ model: m }: { model: ConversationModel }) {
  const turn = m.correctionFor.value;
  const c = m.detail.data.value;
  const d = m.draft.value;
  const set = (patch: Partial<typeof d>) => {
    m.draft.value = { ...m.draft.value, ...patch };
  };
  const question = turn && c ? questionBefore(c.messages, turn.id) : null;
  const done = m.lastCorrection.value;
  const kbs = m.knowledgeBases.data.value ?? [];
  const s = m.correcting;
  return (
    <Dialog
      open={!!turn}
      wide
      title="Correct this answer"
      onClose={() => m.closeCorrection()}
      footer={
        done ? (
          <button type="button" class="button primary" onClick={() => m.closeCorrection()}>
            Back to the conversation
          </button>
        ) : (
          <>
            <button type="button" class="button" onClick={() => m.closeCorrection()}>
              Cancel
            </button>
            <button
              type="submit"
              form="correction-form"
              class="button primary"
              disabled={s.busy.value || (!d.asTemplate && !d.asSnippet) || !d.answer.trim()}
            >
              {s.busy.value ? 'Saving…' : 'Save correction'}
            </button>
          </>
        )
      }
    >
      {done ? (
        <div class="notice notice-ok" role="status">
          <span>
            Saved. Next time someone asks “{done.question}”, the assistant answers with your correction.{' '}
            {done.templateId && <a href={to(`/assistants/${done.assistantId ?? c?.assistantId}/templates`)}>See the template</a>}
            {done.templateId && done.documentId && ' · '}
            {done.documentId && done.knowledgeBaseId && (
              <a href={to(`/knowledge/${done.knowledgeBaseId}/documents/${done.documentId}`)}>See the snippet</a>
            )}
          </span>
        </div>
      ) : (
        <form
          id="correction-form"
          onSubmit={async (e) => {
            e.preventDefault();
            await m.saveCorrection();
          }}
        >
          <p>
            <span class="muted">Question:</span> {question ?? '—'}
          </p>
          <TextArea
            label="Corrected answer"
            value={d.answer}
            onValue={(answer) => set({ answer })}
            rows={6}
            required
            error={s.fieldError('answer')}
          />
          <fieldset>
            <legend>Save it as</legend>
            <Checkbox
              label="A response template"
              checked={d.asTemplate}
              onValue={(asTemplate) => set({ asTemplate })}
              disabled={!can('assistants:write')}
              hint={can('assistants:write') ? 'Triggered by the question above.' : 'Needs the assistants:write permission.'}
            />
            {d.asTemplate && (
              <SelectField
                label="Template match"
                value={d.match}
                onValue={(match) => set({ match })}
                error={s.fieldError('asTemplate')}
                options={[
                  { value: 'exact', label: 'The exact question' },
                  { value: 'contains', label: 'Any message containing the question' },
                ]}
              />
            )}
            <Checkbox
              label="A question-and-answer snippet in a knowledge base"
              checked={d.asSnippet}
              onValue={(asSnippet) => set({ asSnippet })}
              disabled={!can('knowledge_bases:write')}
              hint={can('knowledge_bases:write') ? undefined : 'Needs the knowledge_bases:write permission.'}
            />
            {d.asSnippet && (
              <SelectField
                label="Knowledge base"
                value={d.knowledgeBaseId}
                onValue={(knowledgeBaseId) => set({ knowledgeBaseId })}
                error={s.fieldError('asSnippet')}
                options={kbs.map((k) => ({ value: k.id, label: k.name }))}
              />
            )}
          </fieldset>
          <ErrorNotice
            error={s.error.value && !Object.keys(s.error.value.fields).length ? s.error.value : null}
            onRetry={() => m.saveCorrection()}
          />
        </form>
      )}
    </Dialog>
  );
}
