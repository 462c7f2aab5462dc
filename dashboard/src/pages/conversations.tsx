import { useSignal } from '@preact/signals';
import { useLocation } from 'preact-iso';
import { useEffect, useMemo } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { EmptyState, ErrorNotice, formatDate, Loading, PageHeader, Pager } from '../ui/common.js';
import { SelectField, TextField } from '../ui/field.js';
import { DateFilterFields } from './analytics-filters.js';
import {
  CHANNEL_LABELS,
  conversationFiltersToQuery,
  parseConversationFilters,
  queryString,
  type Channel,
  type ConversationFilters,
  type Sort,
} from './analytics-query.js';
import { formatMetric } from './analytics.model.js';
import { createConversationsModel, followDownload, type ConversationsModel } from './conversations.model.js';

// Conversation history: every filter in the URL, sortable columns, pages, and an export of
// exactly the filtered set as CSV or JSONL.

export default function ConversationsPage() {
  const { url, query, route } = useLocation();
  const m = useModel(() => createConversationsModel(api));
  const filters = useMemo(() => parseConversationFilters(query), [url]);
  useEffect(() => {
    void m.apply(filters);
  }, [url]);
  // A filter change starts again at page 1; paging keeps the filters.
  const go = (f: ConversationFilters) => route(`${to('/conversations')}${queryString(conversationFiltersToQuery(f))}`);
  const refilter = (f: ConversationFilters) => go({ ...f, page: 1 });
  const list = m.list.data.value;

  return (
    <div>
      <PageHeader
        title="Conversations"
        description="Every conversation with your assistants, filtered as you need and exportable."
        actions={<ExportButtons model={m} />}
      />
      <Filters model={m} value={filters} onChange={refilter} />
      <ErrorNotice error={m.exporting.error.value} onRetry={() => exportFile(m, lastFormat)} />
      <ErrorNotice error={m.list.error.value} onRetry={() => m.list.load()} />
      {!list && m.list.loading.value ? (
        <Loading />
      ) : (
        list &&
        (list.total === 0 ? (
          <EmptyState title="No conversations match">
            <p class="muted">Try a longer date range or fewer filters.</p>
          </EmptyState>
        ) : (
          <>
            <p class="muted" role="status">
              {list.total.toLocaleString('en')} conversation{list.total === 1 ? '' : 's'}
              {m.list.loading.value ? ' · updating…' : ''}
            </p>
            <ConversationTable
              model={m}
              filters={filters}
              onSort={(sort) => refilter({ ...filters, sort, order: filters.sort === sort && filters.order === 'desc' ? 'asc' : 'desc' })}
            />
            <Pager page={list.page} pages={list.pages} onPage={(page) => go({ ...filters, page })} />
          </>
        ))
      )}
    </div>
  );
}

/** The format last asked for, so "Try again" repeats that export. */
let lastFormat: 'csv' | 'jsonl' = 'csv';
async function exportFile(m: ConversationsModel, format: 'csv' | 'jsonl'): Promise<void> {
  lastFormat = format;
  const link = await m.exportAs(format);
  if (link) followDownload(link);
}

function ExportButtons({ model: m }: { model: ConversationsModel }) {
  const run = (format: 'csv' | 'jsonl') => exportFile(m, format);
  const busy = m.exporting.busy.value;
  return (
    <>
      <button type="button" class="button" disabled={busy} onClick={() => run('csv')}>
        Export CSV
      </button>
      <button type="button" class="button" disabled={busy} onClick={() => run('jsonl')}>
        Export JSONL
      </button>
      <span class="saved" role="status">
        {busy ? 'Starting the download…' : ''}
      </span>
    </>
  );
}

function Filters({
  model: m,
  value,
  onChange,
}: {
  model: ConversationsModel;
  value: ConversationFilters;
  onChange: (f: ConversationFilters) => void;
}) {
  // Typed text applies on submit (Enter or Search), not on every key.
  const userId = useSignal(value.userId);
  const q = useSignal(value.q);
  useEffect(() => {
    userId.value = value.userId;
    q.value = value.q;
  }, [value.userId, value.q]);
  return (
    <form
      class="card"
      aria-label="Filters"
      onSubmit={(e) => {
        e.preventDefault();
        onChange({ ...value, userId: userId.value.trim(), q: q.value.trim() });
      }}
    >
      <DateFilterFields
        value={value}
        ranges={['all', 'today', '7d', '30d', '90d', 'custom']}
        assistants={m.assistants.data.value ?? []}
        onChange={onChange}
      />
      <div class="row">
        <SelectField
          label="Rating"
          value={value.rating}
          onValue={(rating) => onChange({ ...value, rating })}
          options={[
            { value: '', label: 'Any' },
            { value: 'up', label: 'Rated up' },
            { value: 'down', label: 'Rated down' },
          ]}
        />
        <SelectField
          label="Fell back"
          value={value.fellBack}
          onValue={(fellBack) => onChange({ ...value, fellBack })}
          options={[
            { value: '', label: 'Any' },
            { value: 'true', label: 'Fell back at least once' },
            { value: 'false', label: 'Never fell back' },
          ]}
        />
        <SelectField
          label="Asked for a human"
          value={value.handoff}
          onValue={(handoff) => onChange({ ...value, handoff })}
          options={[
            { value: '', label: 'Any' },
            { value: 'true', label: 'Asked for a human' },
            { value: 'false', label: 'Did not ask' },
          ]}
        />
      </div>
      <div class="row">
        <TextField
          label="User id"
          value={userId.value}
          onValue={(v) => {
            userId.value = v;
          }}
        />
        <TextField
          label="Search in messages"
          type="search"
          value={q.value}
          onValue={(v) => {
            q.value = v;
          }}
        />
        <div class="field">
          <button type="submit" class="button primary">
            Search
          </button>
        </div>
      </div>
    </form>
  );
}

const COLUMNS: ReadonlyArray<{ label: string; sort?: Sort; num?: boolean }> = [
  { label: 'First question' },
  { label: 'Started', sort: 'startedAt' },
  { label: 'Last message', sort: 'lastMessageAt' },
  { label: 'Assistant' },
  { label: 'Channel' },
  { label: 'User' },
  { label: 'Messages', sort: 'messageCount', num: true },
  { label: 'Avg response', num: true },
  { label: 'Rating' },
  { label: 'Flags' },
];

function ConversationTable({
  model: m,
  filters,
  onSort,
}: {
  model: ConversationsModel;
  filters: ConversationFilters;
  onSort: (s: Sort) => void;
}) {
  const items = m.list.data.value?.items ?? [];
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">
          Conversations, sorted by {filters.sort} {filters.order === 'asc' ? 'ascending' : 'descending'}
        </caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => {
              const sorted = c.sort && filters.sort === c.sort;
              return (
                <th
                  key={c.label}
                  scope="col"
                  class={c.num ? 'num' : undefined}
                  aria-sort={sorted ? (filters.order === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {c.sort ? (
                    <button type="button" class="sort-button" onClick={() => onSort(c.sort!)}>
                      {c.label}
                      <span aria-hidden="true">{sorted ? (filters.order === 'asc' ? ' ▲' : ' ▼') : ' ↕'}</span>
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {items.map((c) => (
            <tr key={c.sessionId}>
              {/* What was asked is what an owner scans for: the question opens the conversation. */}
              <td class="cell-question">
                <a href={to(`/conversations/${encodeURIComponent(c.sessionId)}`)}>
                  {c.firstQuestion ?? <span class="muted">(no question yet)</span>}
                </a>
              </td>
              <td>{formatDate(c.startedAt)}</td>
              <td>{formatDate(c.lastMessageAt)}</td>
              <td>{m.assistantName.value(c.assistantId)}</td>
              <td>{CHANNEL_LABELS[c.channel as Channel] ?? c.channel}</td>
              <td class="cell-clip">{c.userId ?? <span class="muted">—</span>}</td>
              <td class="num">{c.messageCount}</td>
              <td class="num">{formatMetric(c.avgResponseMs, 'ms')}</td>
              <td>
                {c.rating === 'up' ? (
                  <span class="pill ok">Up</span>
                ) : c.rating === 'down' ? (
                  <span class="pill danger">Down</span>
                ) : (
                  <span class="muted">—</span>
                )}
              </td>
              <td>
                <span class="flags">
                  {c.fellBack && <span class="pill warn">Fell back</span>}
                  {c.handoffRequested && <span class="pill danger">Human</span>}
                  {c.status === 'ended' && <span class="pill">Ended</span>}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
