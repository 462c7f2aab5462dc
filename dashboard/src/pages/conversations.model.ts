import { computed, signal } from '@preact/signals';
import type { ApiClient, Page } from '../lib/api.js';
import { loadable, submission } from '../lib/model.js';
import { conversationApiQuery, type ConversationFilters } from './analytics-query.js';
import type { AssistantRef } from './analytics.model.js';

// The conversations list: the URL's filters, sortable and paginated, and an export of exactly
// the filtered set (the same query, the same "now" for preset ranges).

export interface ConversationSummary {
  sessionId: string; assistantId: string; userId: string | null; source: string | null; startedAt: string; lastMessageAt: string;
  messageCount: number; avgResponseMs: number | null; rating: 'up' | 'down' | null;
  channel: string; fellBack: boolean; handoffRequested: boolean; status: 'active' | 'ended';
}

export const PAGE_SIZE = 25;

export interface ExportFile { blob: Blob; filename: string }

export function createConversationsModel(api: ApiClient, now: () => number = Date.now) {
  const filters = signal<ConversationFilters | null>(null);
  let asOf = now();
  const apiQuery = () => conversationApiQuery(filters.value!, asOf);

  const assistants = loadable(async () => (await api.page<AssistantRef>('/assistants', { limit: 100 })).items);
  const list = loadable<Page<ConversationSummary>>(() =>
    api.page<ConversationSummary>('/analytics/conversations', { ...apiQuery(), page: filters.value!.page, limit: PAGE_SIZE }));
  const exporting = submission();

  return {
    filters, assistants, list, exporting,
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
    /**
     * The filtered set as a file. Fetched with the CSRF header (a plain link navigation cannot
     * send it, and the session cookie alone does not count), then saved from a blob.
     */
    exportAs(format: 'csv' | 'jsonl'): Promise<ExportFile | undefined> {
      return exporting.run(async () => {
        const res = await api.request('GET', '/analytics/conversations/export', { query: { ...apiQuery(), format } });
        const disposition = res.headers.get('Content-Disposition') ?? '';
        const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `parley-conversations.${format}`;
        return { blob: await res.blob(), filename };
      });
    },
  };
}
export type ConversationsModel = ReturnType<typeof createConversationsModel>;

/** Saves a blob as a download (an object URL on a temporary link), then frees it. */
export function saveFile(file: ExportFile): void {
  const href = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = file.filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
