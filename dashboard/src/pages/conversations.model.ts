import { computed, signal, type Signal, type ReadonlySignal } from '@preact/signals';
import type { ApiClient, Page } from '../lib/api.js';
import { loadable, submission, type Loadable, type Submission } from '../lib/model.js';
import { conversationApiQuery, type ConversationFilters } from './analytics-query.js';
import type { AssistantRef } from './analytics.model.js';
import type { ApiData } from '../api/types.js';

// The conversations list: the URL's filters, sortable and paginated, and an export of exactly
// the filtered set (the same query, the same "now" for preset ranges) by a one-time link.

export interface ConversationSummary {
  sessionId: string;
  assistantId: string;
  userId: string | null;
  source: string | null;
  startedAt: string;
  lastMessageAt: string;
  messageCount: number;
  avgResponseMs: number | null;
  rating: 'up' | 'down' | null;
  channel: string;
  fellBack: boolean;
  handoffRequested: boolean;
  status: 'active' | 'ended';
  /** The visitor's first message (its first 160 characters), null before any. */
  firstQuestion: string | null;
}

export const PAGE_SIZE = 25;

/** A single-use download link (valid 60 s): `url` streams the export as an attachment. */
export type ExportLink = ApiData<'postAnalyticsConversationsExportLinks'>;

const definedOnly = (q: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined));

/** The conversations list: the URL's filters, a page of conversations and their export. */
export interface ConversationsModel {
  /** The filters from the URL (page and sort included); null until the first `apply`. */
  filters: Signal<ConversationFilters | null>;
  /** The organization's assistants (first 100), for the filter and the names. */
  assistants: Loadable<AssistantRef[]>;
  /** One page of the filtered conversations. */
  list: Loadable<Page<ConversationSummary>>;
  exporting: Submission;
  /** An assistant's name by id (the id itself when unknown). */
  assistantName: ReadonlySignal<(id: string) => string>;
  /** Applies the URL's filters (preset ranges end now) and loads the page. */
  apply(f: ConversationFilters): Promise<void>;
  /**
   * A one-time download link for the filtered set (POST …/export-links, with the CSRF header
   * like every call). The browser then follows it (`followDownload`): the server streams the
   * file straight to disk, whatever its size, and the link's token is the only credential.
   */
  exportAs(format: 'csv' | 'jsonl'): Promise<ExportLink | undefined>;
}

export function createConversationsModel(api: ApiClient, now: () => number = Date.now): ConversationsModel {
  const filters = signal<ConversationFilters | null>(null);
  let asOf = now();
  const apiQuery = () => conversationApiQuery(filters.value!, asOf);

  const assistants = loadable(async () => (await api.page<AssistantRef>('/assistants', { limit: 100 })).items);
  const list = loadable<Page<ConversationSummary>>(() =>
    api.page<ConversationSummary>('/analytics/conversations', { ...apiQuery(), page: filters.value!.page, limit: PAGE_SIZE }),
  );
  const exporting = submission();

  return {
    filters,
    assistants,
    list,
    exporting,
    assistantName: computed(() => {
      const names = new Map((assistants.data.value ?? []).map((a) => [a.id, a.name]));
      return (id: string) => names.get(id) ?? id;
    }),
    async apply(f: ConversationFilters) {
      asOf = now();
      filters.value = f;
      if (!assistants.data.value) void assistants.load();
      await list.load();
    },
    exportAs(format: 'csv' | 'jsonl'): Promise<ExportLink | undefined> {
      return exporting.run(() => api.post<ExportLink>('/analytics/conversations/export-links', { ...definedOnly(apiQuery()), format }));
    },
  };
}

/**
 * Starts the download: a temporary <a download> to the link, so the browser saves the stream to
 * disk (the file name comes from the server's Content-Disposition) without leaving the page and
 * without holding the file in memory.
 */
export function followDownload(link: ExportLink): void {
  const a = document.createElement('a');
  a.href = link.url;
  a.download = '';
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
