import { parseJson } from '../lib/json.js';
import type { Queryable } from '../storage/port.js';
import { conversationWhere, type ConversationFilter } from './filters.js';
import { summarySelect, toSummary, type ConversationSummary, type SummaryRow } from './service.js';

/** A conversation waiting for a human: when the user asked, and what they left with the request. */
export interface HandoffItem extends ConversationSummary {
  handoffRequestedAt: string;
  /** The widget's handoff form (email, note), stored in metadata.handoff; null fields when left empty. */
  handoff: { email: string | null; note: string | null };
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The "needs a human" queue (the filter's handoff is 'pending'): the longest wait first, by when
 * the user asked for a human, not when the conversation started (a long chat may ask late).
 */
export async function listHandoffs(
  q: Queryable,
  f: ConversationFilter,
  page: { limit: number; offset: number },
): Promise<{ items: HandoffItem[]; total: number }> {
  const w = conversationWhere({ ...f, handoff: 'pending' });
  const total = (await q.get<{ n: number }>(`SELECT count(*) AS n FROM conversations c WHERE ${w.sql}`, w.params))?.n ?? 0;
  // The metadata comes whole and its handoff is read here (no JSON functions in SQL).
  const select = summarySelect(w.sql).replace(
    'SELECT ',
    'SELECT c.handoff_requested_at AS "handoffRequestedAt", c.metadata AS "metadataJson", ',
  );
  const rows = await q.all<SummaryRow & { handoffRequestedAt: string; metadataJson: string }>(
    `${select} ORDER BY c.handoff_requested_at ASC, c.id ASC LIMIT @limit OFFSET @offset`,
    { ...w.params, limit: page.limit, offset: page.offset },
  );
  const items = rows.map(({ handoffRequestedAt, metadataJson, ...row }) => {
    const handoff = parseJson<Record<string, unknown>>(metadataJson, {}).handoff;
    const details = handoff && typeof handoff === 'object' && !Array.isArray(handoff) ? (handoff as Record<string, unknown>) : {};
    return { ...toSummary(row), handoffRequestedAt, handoff: { email: text(details.email), note: text(details.note) } };
  });
  return { items, total };
}
