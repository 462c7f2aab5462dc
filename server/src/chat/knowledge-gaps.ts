import { contentTerms } from '../answer/text.js';
import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';

/** Questions with the same content words (stemmed, any order) are one gap. */
export function gapKey(question: string): string {
  const terms = [...new Set(contentTerms(question))].sort();
  return terms.length ? terms.join(' ') : question.trim().toLowerCase().slice(0, 200);
}

export function recordKnowledgeGap(db: Db, g: { organizationId: string; assistantId: string; question: string; confidence: number; at: string }): void {
  db.prepare(`INSERT INTO knowledge_gaps (id, organization_id, assistant_id, group_key, question, count, best_confidence, first_asked_at, last_asked_at)
    VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)
    ON CONFLICT (assistant_id, group_key) DO UPDATE SET count = count + 1, last_asked_at = excluded.last_asked_at,
      question = excluded.question, best_confidence = max(best_confidence, excluded.best_confidence)`)
    .run(newId('gap'), g.organizationId, g.assistantId, gapKey(g.question), g.question.slice(0, 1000), g.confidence, g.at, g.at);
}
