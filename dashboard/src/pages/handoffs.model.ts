import type { ApiClient, Page } from '../lib/api.js';
import { loadable, type Loadable } from '../lib/model.js';
import type { ConversationSummary } from './conversations.model.js';

// The "needs a human" queue: conversations whose user asked for a person and that no agent has
// answered since, oldest waiting first.

export interface HandoffItem extends Partial<ConversationSummary> {
  sessionId: string;
  assistantId: string;
  /** When the user asked for a human: the queue's order and the "waiting for" clock (GET /v1/handoffs). */
  handoffRequestedAt?: string | null;
  startedAt: string;
  lastMessageAt: string;
  /** What the user left with the request (the widget's handoff form: email, note). */
  handoff?: { email?: string | null; note?: string | null } | null;
  lastUserMessage?: string | null;
}

/** Since when someone has waited: the request time (the server sends it), else the start. */
export const waitingSince = (h: HandoffItem): string => h.handoffRequestedAt ?? h.startedAt;

/** How to reach the user: the email left with the request, else the integration's user id. */
export const contactOf = (h: HandoffItem): { email: string | null; label: string } => {
  const email = h.handoff?.email ?? null;
  return { email, label: email ?? h.userId ?? '—' };
};

export const QUEUE_PAGE_SIZE = 50;

/** Oldest waiting first, whatever order the server sent (by request time, else start). */
export function byLongestWait(items: readonly HandoffItem[]): HandoffItem[] {
  return [...items].sort((a, b) => waitingSince(a).localeCompare(waitingSince(b)));
}

/** "12 min", "3 h 5 min", "2 days". */
export function waitingFor(sinceIso: string, nowMs: number): string {
  const min = Math.max(0, Math.floor((nowMs - Date.parse(sinceIso)) / 60_000));
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} days`;
}

/** The handoff queue: conversations waiting for a person, longest wait first. */
export interface HandoffsModel {
  /** One page of the queue. */
  queue: Loadable<Page<HandoffItem>>;
  /** Loads the current page. */
  load(): Promise<void>;
  /** Shows page `p`. */
  setPage(p: number): Promise<void>;
}

export function createHandoffsModel(api: ApiClient): HandoffsModel {
  let page = 1;
  const queue = loadable<Page<HandoffItem>>(async () => {
    const p = await api.page<HandoffItem>('/handoffs', { page, limit: QUEUE_PAGE_SIZE });
    return { ...p, items: byLongestWait(p.items) };
  });
  return {
    queue,
    load: () => queue.load(),
    setPage(p: number) {
      page = p;
      return queue.load();
    },
  };
}
