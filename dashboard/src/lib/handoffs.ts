import { api as browserApi, type ApiClient } from './api.js';
import { pendingHandoffs } from './nav-badges.js';

// Keeps the "Needs a human" count in the navigation live: polls GET /v1/handoffs/count every
// 30 s while the tab is visible (a hidden tab asks nothing), and at once when it becomes
// visible again or when a page knows the count changed (refreshHandoffs after a reply).
// Not faster: a dashboard session's calls count against the plan's limits (free: 60 a minute,
// 1,000 a day), and a tab left open all day would spend them on polling.

export const HANDOFF_POLL_MS = 30_000;

let refreshNow: (() => Promise<void>) | null = null;

/** Asks for the count now (e.g. after taking over a conversation); a no-op when not polling. */
export function refreshHandoffs(): Promise<void> {
  return refreshNow?.() ?? Promise.resolve();
}

export async function fetchPendingHandoffs(api: ApiClient): Promise<number> {
  return (await api.get<{ pending: number }>('/handoffs/count')).pending;
}

/** What polling needs of the page: whether it is visible, and word when that changes (the document in the browser). */
export interface Visibility {
  readonly visibilityState: string;
  addEventListener(type: 'visibilitychange', fn: () => void): void;
  removeEventListener(type: 'visibilitychange', fn: () => void): void;
}

/** Starts polling; returns the stop function (the signed-in shell calls it on sign-out). */
export function startHandoffPolling(api: ApiClient = browserApi, everyMs = HANDOFF_POLL_MS, page: Visibility = document): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let inFlight: Promise<void> | null = null;

  const poll = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    inFlight ??= fetchPendingHandoffs(api)
      .then((n) => {
        if (!stopped) pendingHandoffs.value = n;
      })
      // A failed poll keeps the last count; the next one tries again.
      .catch(() => {})
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (stopped || page.visibilityState !== 'visible') return;
    timer = setTimeout(() => {
      void poll().then(schedule);
    }, everyMs); // poll() never rejects
  };
  const onVisibility = () => {
    if (page.visibilityState === 'visible') void poll().then(schedule);
    else schedule();
  };

  page.addEventListener('visibilitychange', onVisibility);
  refreshNow = poll;
  void poll().then(schedule);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    page.removeEventListener('visibilitychange', onVisibility);
    if (refreshNow === poll) refreshNow = null;
  };
}
