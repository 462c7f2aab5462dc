import type { Db } from '../db/open.js';

export interface AssistantStats { conversations7d: number }

const WEEK_MS = 7 * 86_400_000;

/**
 * Conversations started in the last 7 days per assistant, for the list page. Playground
 * conversations are left out (the team testing, not traffic), as analytics do by default.
 * One grouped query over the (organization, started_at) index for the whole page.
 */
export function conversationCounts7d(db: Db, organizationId: string, assistantIds: readonly string[], nowMs: number): Map<string, number> {
  if (!assistantIds.length) return new Map();
  const since = new Date(nowMs - WEEK_MS).toISOString();
  const rows = db.prepare(`SELECT assistant_id AS id, count(*) AS n FROM conversations
    WHERE organization_id = ? AND started_at >= ? AND coalesce(lower(source), '') <> 'playground'
      AND assistant_id IN (SELECT value FROM json_each(?)) GROUP BY assistant_id`)
    .all(organizationId, since, JSON.stringify(assistantIds)) as { id: string; n: number }[];
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** List items with `stats` added (additive to the record). */
export function withStats<T extends { id: string }>(db: Db, organizationId: string, items: T[], nowMs: number): (T & { stats: AssistantStats })[] {
  const counts = conversationCounts7d(db, organizationId, items.map((a) => a.id), nowMs);
  return items.map((a) => ({ ...a, stats: { conversations7d: counts.get(a.id) ?? 0 } }));
}
