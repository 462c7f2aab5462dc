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
      bump: db.prepare<[string, string, number, string]>('UPDATE knowledge_gaps SET count = count + 1, last_asked_at = ?, question = ?, best_confidence = max(best_confidence, ?) WHERE id = ?'),
      insert: db.prepare(`INSERT INTO knowledge_gaps (id, organization_id, assistant_id, group_key, question, count, best_confidence, first_asked_at, last_asked_at)
        VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)`),
    };
    statements.set(db, s);
  }
  return s;
}
const statements = new WeakMap<Db, {
  candidates: Statement<[string, number], { id: string; group_key: string }>; exact: Statement<[string, string], { id: string }>;
  bump: Statement<[string, string, number, string]>; insert: Statement;
}>();

export function recordKnowledgeGap(db: Db, g: { organizationId: string; assistantId: string; question: string; confidence: number; at: string }): void {
  const terms = gapTerms(g.question);
  const key = terms.length ? terms.join(' ') : g.question.trim().toLowerCase().slice(0, 200);
  const sql = statementsFor(db);
  // The same wording again: similarity 1, nothing can beat it.
  const same = sql.exact.get(g.assistantId, key);
  if (same) {
    sql.bump.run(g.at, g.question.slice(0, 1000), g.confidence, same.id);
    return;
  }
  const candidates = sql.candidates.all(g.assistantId, CANDIDATES);
  let best: { id: string; score: number } | null = null;
  for (const c of candidates) {
    const score = c.group_key === key ? 1 : terms.length ? jaccard(terms, c.group_key.split(' ')) : 0;
    if (score >= GAP_SIMILARITY && (!best || score > best.score)) best = { id: c.id, score };
  }
  if (best) {
    sql.bump.run(g.at, g.question.slice(0, 1000), g.confidence, best.id);
    return;
  }
  sql.insert.run(newId('gap'), g.organizationId, g.assistantId, key, g.question.slice(0, 1000), g.confidence, g.at, g.at);
}
