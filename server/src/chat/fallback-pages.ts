import type { Passage } from '../answer/extractive.js';

export interface LinkedPage {
  title: string;
  url: string | null;
}

/** At most this many pages a fallback links: enough to hold the right one, few enough to read. */
export const FALLBACK_PAGES_MAX = 3;

/**
 * A page joins the first when its best passage scores at least this share of the best passage.
 * Tuned on the FAQ development set's tuning products (bench:faq): see the commit that set it.
 */
export const FALLBACK_PAGE_MIN_SHARE = 0.5;

/**
 * The pages a fallback links (issue 26): when the answer is not sure enough, the visitor still
 * lands on the page most likely to hold it. Pages are the distinct (title, url) of the retrieved
 * passages, best first; the first always, the next ones only when they score close to it, so a
 * page that shares one common word with the question is not offered beside the right one.
 * `passages` carry scores normalized to the best (chat/service.ts toPassages).
 */
export function likelyPages(passages: readonly Passage[]): LinkedPage[] {
  const best = new Map<string, { page: LinkedPage; score: number }>();
  for (const p of passages) {
    // A PDF passage's title names its page ("Handbook, p. 3"): one page of a document is one link.
    const key = `${p.title}\u0000${p.url ?? ''}`;
    const seen = best.get(key);
    if (!seen) best.set(key, { page: { title: p.title, url: p.url }, score: p.score });
    else if (p.score > seen.score) seen.score = p.score;
  }
  const ranked = [...best.values()].sort((a, b) => b.score - a.score);
  const top = ranked[0]?.score ?? 0;
  if (top <= 0) return [];
  return ranked
    .filter((r, i) => i === 0 || r.score >= top * FALLBACK_PAGE_MIN_SHARE)
    .slice(0, FALLBACK_PAGES_MAX)
    .map((r) => r.page);
}
