import type { Db } from '../db/open.js';
import { parseJson } from '../lib/json.js';
import { CONVERSATION_WHERE, type ConversationFilter } from './filters.js';
import { SUMMARY_SELECT, toSummary, type ConversationSummary, type SummaryRow } from './service.js';

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
export function listHandoffs(db: Db, f: ConversationFilter, page: { limit: number; offset: number }): { items: HandoffItem[]; total: number } {
  const filter = { ...f, handoff: 'pending' as const };
  const total = (db.prepare(`SELECT count(*) AS n FROM conversations c WHERE ${CONVERSATION_WHERE}`).get(filter) as { n: number }).n;
  const select = SUMMARY_SELECT.replace('SELECT ', "SELECT c.handoff_requested_at AS handoffRequestedAt, CASE WHEN json_valid(c.metadata) AND json_type(c.metadata, '$.handoff') = 'object' THEN json_extract(c.metadata, '$.handoff') END AS handoffJson, ");
  const rows = db.prepare(`${select} ORDER BY c.handoff_requested_at ASC, c.rowid ASC LIMIT @limit OFFSET @offset`)
    .all({ ...filter, limit: page.limit, offset: page.offset }) as (SummaryRow & { handoffRequestedAt: string; handoffJson: string | null })[];
  const items = rows.map(({ handoffRequestedAt, handoffJson, ...row }) => {
    const details = parseJson<Record<string, unknown>>(handoffJson, {});
    return { ...toSummary(row), handoffRequestedAt, handoff: { email: text(details.email), note: text(details.note) } };
  });
  return { items, total };
}
