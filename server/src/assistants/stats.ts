import type { Queryable } from '../storage/port.js';

export interface AssistantStats {
  conversations7d: number;
}

const WEEK_MS = 7 * 86_400_000;

/**
 * Conversations started in the last 7 days per assistant, for the list page. Playground
 * conversations are left out (the team testing, not traffic), as analytics do by default.
 * One grouped query over the (organization, started_at) index for the whole page; the page's
 * ids go in as one placeholder each (a page holds at most 100), which both dialects accept.
 */
export async function conversationCounts7d(
  q: Queryable,
  organizationId: string,
  assistantIds: readonly string[],
  nowMs: number,
): Promise<Map<string, number>> {
  if (!assistantIds.length) return new Map();
  const since = new Date(nowMs - WEEK_MS).toISOString();
  const rows = await q.all<{ id: string; n: number }>(
    `SELECT assistant_id AS id, count(*) AS n FROM conversations
    WHERE organization_id = ? AND started_at >= ? AND COALESCE(lower(source), '') <> 'playground'
      AND assistant_id IN (${assistantIds.map(() => '?').join(', ')}) GROUP BY assistant_id`,
    [organizationId, since, ...assistantIds],
  );
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** List items with `stats` added (additive to the record). */
export async function withStats<T extends { id: string }>(
  q: Queryable,
  organizationId: string,
  items: T[],
  nowMs: number,
): Promise<(T & { stats: AssistantStats })[]> {
  const counts = await conversationCounts7d(
    q,
    organizationId,
    items.map((a) => a.id),
    nowMs,
  );
  return items.map((a) => ({ ...a, stats: { conversations7d: counts.get(a.id) ?? 0 } }));
}
