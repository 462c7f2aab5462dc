import { signal, type Signal } from '@preact/signals';
import type { ApiClient, Page } from '../lib/api.js';
import { loadable, submission, type Loadable, type Submission } from '../lib/model.js';
import type { AssistantRef, MetricsWithPrevious } from './analytics.model.js';
import type { ApiData } from '../api/types.js';

// Knowledge gaps: questions the assistants could not answer (or answered and were rated down),
// grouped. Answering one stores the answer and the server replays every question of the group;
// the page shows before and after. Plus where the knowledge is used and where it is not.

export type GapCause = 'no_passages' | 'low_confidence' | 'declined' | 'rated_down';
export const CAUSE_LABELS: Record<GapCause, string> = {
  no_passages: 'Nothing retrieved',
  low_confidence: 'Low confidence',
  declined: 'Model declined',
  rated_down: 'Answered, rated down',
};

export interface Gap {
  id: string;
  question: string;
  count: number;
  lastAskedAt: string;
  firstAskedAt?: string;
  assistantId: string;
  bestConfidence: number | null;
  cause: GapCause;
  status: 'open' | 'resolved' | 'dismissed';
}
export interface GapQuestion {
  question: string;
  cause: GapCause;
  confidence: number | null;
  askedAt: string;
  messageId: string | null;
  sessionId: string | null;
  response: string | null;
}
export interface Passage {
  chunkId: number | string;
  documentId: string;
  title: string;
  url: string | null;
  heading: string | null;
  text: string;
  score: number;
}
export type GapDetail = ApiData<'getAnalyticsKnowledgeGapsId'>;

export interface Replay {
  question: string;
  response: string;
  confidence: number;
  fallback?: boolean;
}
export interface Resolution {
  id: string;
  status: 'resolved';
  as: 'template' | 'snippet';
  before: Replay[];
  after: Replay[];
  templateIds?: string[];
  documentId?: string;
  knowledgeBaseId?: string;
}

export interface SourceDoc {
  id: string;
  knowledgeBaseId: string;
  title: string;
  url: string | null;
}
export type SourceUse = ApiData<'getAnalyticsSources'>;

export interface AnswerDraft {
  answer: string;
  as: 'template' | 'snippet';
  match: 'exact' | 'contains';
  knowledgeBaseId: string;
}

export const GAP_PAGE_SIZE = 25;

/** Before and after of one replayed question, matched by wording. */
export function pairReplays(r: Resolution): Array<{ question: string; before: Replay | null; after: Replay | null }> {
  const after = new Map(r.after.map((a) => [a.question, a]));
  const rows: Array<{ question: string; before: Replay | null; after: Replay | null }> = r.before.map((b) => ({
    question: b.question,
    before: b,
    after: after.get(b.question) ?? null,
  }));
  for (const a of r.after)
    if (!r.before.some((b) => b.question === a.question)) rows.push({ question: a.question, before: null, after: a });
  return rows;
}

/** The knowledge gaps page: grouped unanswered questions, answering or dismissing one, and where the knowledge is used. */
export interface KnowledgeGapsModel {
  /** The assistant filter ('' for all). */
  assistantId: Signal<string>;
  page: Signal<number>;
  /** The organization's assistants (first 100), for the filter. */
  assistants: Loadable<AssistantRef[]>;
  /** The knowledge bases (first 100) a snippet answer may go to. */
  knowledgeBases: Loadable<{ id: string; name: string }[]>;
  /** The open gaps, one page. */
  gaps: Loadable<Page<Gap>>;
  /** The unanswered count the analytics page shows: it drops when a gap is resolved. */
  unanswered: Loadable<number>;
  /** Documents never retrieved, most cited, and cited in answers rated down. */
  sources: Loadable<SourceUse>;
  /** The gap whose detail is open, or null. */
  openId: Signal<string | null>;
  /** The open gap's questions and the closest passages now. */
  detail: Loadable<GapDetail | null>;
  /** The answer being written for the open gap. */
  draft: Signal<AnswerDraft>;
  resolving: Submission;
  /** The last resolution, with its before/after replays. */
  resolution: Signal<{ gap: Gap; result: Resolution } | null>;
  dismissReason: Signal<string>;
  dismissing: Submission;
  /** The gap dismissed last. */
  dismissed: Signal<Gap | null>;
  /** Loads the filters' lists once, and the gaps, the count and the sources. */
  load(): Promise<void>;
  /** Filters by assistant (from the first page). */
  setAssistant(id: string): Promise<void>;
  setPage(p: number): Promise<void>;
  /** Opens (or closes, with null) one gap: its questions and the closest passages now. */
  open(id: string | null): Promise<void>;
  /** Answers the open gap with the draft (a template or a knowledge snippet); the server replays its questions. */
  resolve(): Promise<Resolution | undefined>;
  /** Dismisses the open gap with the reason given. */
  dismiss(): Promise<boolean>;
}

export function createKnowledgeGapsModel(api: ApiClient): KnowledgeGapsModel {
  const assistantId = signal('');
  const page = signal(1);
  const scope = () => ({ assistantId: assistantId.value || undefined });

  const assistants = loadable(async () => (await api.page<AssistantRef>('/assistants', { limit: 100 })).items);
  const knowledgeBases = loadable(async () => (await api.page<{ id: string; name: string }>('/knowledge-bases', { limit: 100 })).items);
  const gaps = loadable<Page<Gap>>(() =>
    api.page<Gap>('/analytics/knowledge-gaps', { ...scope(), page: page.value, limit: GAP_PAGE_SIZE }),
  );
  /** The unanswered count the analytics page shows: it drops when a gap is resolved. */
  const unanswered = loadable(async () => (await api.get<MetricsWithPrevious>('/analytics/metrics', { query: scope() })).unansweredCount);
  const sources = loadable(() => api.get<SourceUse>('/analytics/sources', { query: scope() }));

  const openId = signal<string | null>(null);
  const detail = loadable<GapDetail | null>(async () =>
    openId.value ? api.get<GapDetail>(`/analytics/knowledge-gaps/${encodeURIComponent(openId.value)}`) : null,
  );
  const draft = signal<AnswerDraft>({ answer: '', as: 'template', match: 'exact', knowledgeBaseId: '' });
  const resolving = submission();
  const resolution = signal<{ gap: Gap; result: Resolution } | null>(null);
  const dismissReason = signal('');
  const dismissing = submission();
  const dismissed = signal<Gap | null>(null);

  const reloadLists = () => Promise.all([gaps.load(), unanswered.load(), sources.load()]);

  return {
    assistantId,
    page,
    assistants,
    knowledgeBases,
    gaps,
    unanswered,
    sources,
    openId,
    detail,
    draft,
    resolving,
    resolution,
    dismissReason,
    dismissing,
    dismissed,
    async load() {
      if (!assistants.data.value) void assistants.load();
      if (!knowledgeBases.data.value)
        void knowledgeBases.load().then(() => {
          if (!draft.value.knowledgeBaseId) draft.value = { ...draft.value, knowledgeBaseId: knowledgeBases.data.value?.[0]?.id ?? '' };
        });
      await reloadLists();
    },
    async setAssistant(id: string) {
      assistantId.value = id;
      page.value = 1;
      await reloadLists();
    },
    setPage(p: number) {
      page.value = p;
      return gaps.load();
    },
    async open(id: string | null) {
      if (openId.value === id) return;
      openId.value = id;
      resolving.error.value = null;
      dismissing.error.value = null;
      draft.value = { ...draft.value, answer: '' };
      dismissReason.value = '';
      await detail.load();
    },
    async resolve(): Promise<Resolution | undefined> {
      const gap = detail.data.value;
      if (!gap) return undefined;
      const d = draft.value;
      const result = await resolving.run(() =>
        api.post<Resolution>(`/analytics/knowledge-gaps/${encodeURIComponent(gap.id)}/resolve`, {
          answer: d.answer,
          as: d.as,
          ...(d.as === 'template' ? { match: d.match } : { knowledgeBaseId: d.knowledgeBaseId }),
        }),
      );
      if (result) {
        resolution.value = { gap, result };
        openId.value = null;
        detail.data.value = null;
        await reloadLists();
      }
      return result;
    },
    async dismiss(): Promise<boolean> {
      const gap = detail.data.value;
      if (!gap) return false;
      const ok = await dismissing.run(() =>
        api.post(`/analytics/knowledge-gaps/${encodeURIComponent(gap.id)}/dismiss`, { reason: dismissReason.value.trim() }),
      );
      if (ok === undefined) return false;
      dismissed.value = gap;
      openId.value = null;
      detail.data.value = null;
      await reloadLists();
      return true;
    },
  };
}
