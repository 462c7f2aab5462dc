import { useEffect } from 'preact/hooks';
import { api } from '../lib/api.js';
import { refreshHandoffs, HANDOFF_POLL_MS } from '../lib/handoffs.js';
import { useModel } from '../lib/model.js';
import { pendingHandoffs } from '../lib/nav-badges.js';
import { to } from '../lib/paths.js';
import { EmptyState, ErrorNotice, formatDate, Loading, PageHeader, Pager } from '../ui/common.js';
import { CHANNEL_LABELS, type Channel } from './analytics-query.js';
import { contactOf, createHandoffsModel, waitingFor, waitingSince } from './handoffs.model.js';

// Human takeover queue: who is waiting for a person, longest first. Open one to read the
// conversation and reply; the reply reaches the user in the widget.

export default function HandoffsPage() {
  const m = useModel(() => createHandoffsModel(api));
  useEffect(() => {
    void m.load();
  }, []);
  // The navigation count is polled; when it moves, the queue reloads too.
  useEffect(() => {
    void m.load();
  }, [pendingHandoffs.value]);
  useEffect(() => {
    const t = setInterval(() => {
      if (document.visibilityState === 'visible') void m.load();
    }, HANDOFF_POLL_MS);
    return () => clearInterval(t);
  }, []);
  const q = m.queue.data.value;
  const now = Date.now();
  // The note column only when someone left one (the queue's items may not carry it).
  const notes = !!q?.items.some((h) => h.handoff?.note || h.lastUserMessage);
  return (
    <div>
      <PageHeader
        title="Needs a human"
        description="Conversations whose user asked for a person, longest waiting first."
        actions={
          <button
            type="button"
            class="button"
            onClick={() => {
              void m.load();
              void refreshHandoffs();
            }}
          >
            Refresh
          </button>
        }
      />
      <ErrorNotice error={m.queue.error.value} onRetry={() => m.load()} />
      {!q ? (
        m.queue.loading.value && <Loading />
      ) : q.total === 0 ? (
        <EmptyState title="Nobody is waiting">
          <p class="muted">When a user asks for a human in the widget, the conversation appears here.</p>
        </EmptyState>
      ) : (
        <>
          <p class="muted" role="status">
            {q.total} waiting
          </p>
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Conversations waiting for a human, longest waiting first</caption>
              <thead>
                <tr>
                  <th scope="col">Waiting for</th>
                  <th scope="col">Since</th>
                  <th scope="col">Channel</th>
                  <th scope="col">User</th>
                  {notes && <th scope="col">Note</th>}
                  <th scope="col">
                    <span class="visually-hidden">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {q.items.map((h) => {
                  const since = waitingSince(h);
                  const contact = contactOf(h);
                  return (
                    <tr key={h.sessionId}>
                      <td>
                        <strong>{waitingFor(since, now)}</strong>
                      </td>
                      <td>{formatDate(since)}</td>
                      <td>{h.channel ? (CHANNEL_LABELS[h.channel as Channel] ?? h.channel) : '—'}</td>
                      <td class="cell-clip">{contact.email ? <a href={`mailto:${contact.email}`}>{contact.email}</a> : contact.label}</td>
                      {notes && <td class="cell-clip">{h.handoff?.note ?? h.lastUserMessage ?? ''}</td>}
                      <td>
                        <a class="button small primary" href={to(`/conversations/${encodeURIComponent(h.sessionId)}`)}>
                          Take over<span class="visually-hidden"> the conversation waiting since {formatDate(since)}</span>
                        </a>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager page={q.page} pages={q.pages} onPage={(p) => m.setPage(p)} />
        </>
      )}
    </div>
  );
}
