import { contentTerms } from '../answer/text.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';

/** Two questions whose content words overlap this much (Jaccard) are one gap. */
export const GAP_SIMILARITY = 0.6;
/** Recent gaps compared against a new question; older ones age out of grouping. */
const CANDIDATES = 500;

export function gapTerms(question: string): string[] {
  return [...new Set(contentTerms(question))].sort();
}

export function jaccard(a: readonly string[], b: readonly string[]): number {
  if (!a.length && !b.length) return 1;
  const setB = new Set(b);
  const shared = a.filter((t) => setB.has(t)).length;
  return shared / (a.length + b.length - shared);
}

/**
 * Records a question the assistant could not answer confidently. Similar questions (same
 * content words in any order, or nearly so) count as one gap, so the list shows what is
 * missing rather than every phrasing of it.
 */
function statementsFor(db: Db) {
  let s = statements.get(db);
  if (!s) {
    s = {
      candidates: db.prepare<[string, number], { id: string; group_key: string }>('SELECT id, group_key FROM knowledge_gaps WHERE assistant_id = ? ORDER BY last_asked_at DESC LIMIT ?'),
      exact: db.prepare<[string, string], { id: string }>('SELECT id FROM knowledge_gaps WHERE assistant_id = ? AND group_key = ? LIMIT 1'),
      // A resolved gap asked again and still failing opens again; a dismissed one stays hidden.
      bump: db.prepare<[string, string, number, string, string]>(`UPDATE knowledge_gaps SET count = count + 1, last_asked_at = ?, question = ?, best_confidence = max(best_confidence, ?),
        cause = ?, status = CASE status WHEN 'resolved' THEN 'open' ELSE status END WHERE id = ?`),
      insert: db.prepare(`INSERT INTO knowledge_gaps (id, organization_id, assistant_id, group_key, question, count, best_confidence, first_asked_at, last_asked_at, cause)
        VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`),
      question: db.prepare('INSERT INTO knowledge_gap_questions (gap_id, question, cause, confidence, message_id, asked_at) VALUES (?, ?, ?, ?, ?, ?)'),
    };
    statements.set(db, s);
  }
  return s;
}
const statements = new WeakMap<Db, {
  candidates: Statement<[string, number], { id: string; group_key: string }>; exact: Statement<[string, string], { id: string }>;
  bump: Statement<[string, string, number, string, string]>; insert: Statement; question: Statement;
}>();

/**
 * Why a question is a gap: nothing was retrieved, what was retrieved scored below the threshold,
 * the model declined to answer from it, or it was answered and the user rated the answer down.
 */
export type GapCause = 'no_passages' | 'low_confidence' | 'declined' | 'rated_down';

export interface GapInput {
  organizationId: string; assistantId: string; question: string; confidence: number; at: string;
  cause?: GapCause;
  /** The assistant message that fell back or was rated down (links the gap to its conversation). */
  messageId?: string | null;
}

/** Returns the gap's id. */
export function recordKnowledgeGap(db: Db, g: GapInput): string {
  const cause = g.cause ?? 'low_confidence';
  const id = findOrCreateGap(db, g, cause);
  statementsFor(db).question.run(id, g.question.slice(0, 1000), cause, g.confidence, g.messageId ?? null, g.at);
  return id;
}

function findOrCreateGap(db: Db, g: GapInput, cause: GapCause): string {
  const terms = gapTerms(g.question);
  const key = terms.length ? terms.join(' ') : g.question.trim().toLowerCase().slice(0, 200);
  const sql = statementsFor(db);
  // The same wording again: similarity 1, nothing can beat it.
  const same = sql.exact.get(g.assistantId, key);
  if (same) {
    sql.bump.run(g.at, g.question.slice(0, 1000), g.confidence, cause, same.id);
    return same.id;
  }
  const candidates = sql.candidates.all(g.assistantId, CANDIDATES);
  let best: { id: string; score: number } | null = null;
  for (const c of candidates) {
    const score = c.group_key === key ? 1 : terms.length ? jaccard(terms, c.group_key.split(' ')) : 0;
    if (score >= GAP_SIMILARITY && (!best || score > best.score)) best = { id: c.id, score };
  }
  if (best) {
    sql.bump.run(g.at, g.question.slice(0, 1000), g.confidence, cause, best.id);
    return best.id;
  }
  const id = newId('gap');
  sql.insert.run(id, g.organizationId, g.assistantId, key, g.question.slice(0, 1000), g.confidence, g.at, g.at, cause);
  return id;
}

/**
 * An answered message rated down is a gap too ("answered, but wrong"): recorded once per
 * message, with the question that preceded it. Fallbacks are gaps already and are skipped.
 */
export function recordRatedDown(db: Db, conversationId: string, messageId: string, at: string): void {
  const m = db.prepare(`SELECT m.seq, m.answered, m.confidence, c.organization_id AS org, c.assistant_id AS assistantId
    FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ? AND m.conversation_id = ?`).get(messageId, conversationId) as
    { seq: number; answered: number | null; confidence: number | null; org: string; assistantId: string } | undefined;
  if (!m || m.answered !== 1) return;
  if (db.prepare("SELECT 1 FROM knowledge_gap_questions WHERE message_id = ? AND cause = 'rated_down'").get(messageId)) return;
  const question = db.prepare("SELECT content FROM messages WHERE conversation_id = ? AND role = 'user' AND seq < ? ORDER BY seq DESC LIMIT 1")
    .pluck().get(conversationId, m.seq) as string | undefined;
  if (!question) return;
  recordKnowledgeGap(db, { organizationId: m.org, assistantId: m.assistantId, question, confidence: m.confidence ?? 0, at, cause: 'rated_down', messageId });
}
