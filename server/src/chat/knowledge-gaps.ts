import { contentTerms, questionTerms } from '../text/text.js';
import { newId } from '../lib/ids.js';
import type { Tx } from '../storage/port.js';

/** Two questions whose content words overlap this much (Jaccard) are one gap. */
export const GAP_SIMILARITY = 0.6;
/** Recent gaps compared against a new question; older ones age out of grouping. */
const CANDIDATES = 500;

/**
 * Words that frame a request rather than name what it is about ("Is shipping to Antarctica
 * possible?", "Is there a way to…", "Can anyone tell me…"): two askings of one thing differ in
 * them most, so they do not count when grouping.
 */
const GAP_FRAME_TERMS: ReadonlySet<string> = new Set(
  contentTerms(
    'possible possibly able allow allowed way option available please anyone someone somebody know tell question thanks thank hi hello hey',
  ),
);

/** A question's sorted, stemmed topic words: question frames and request words left out. */
export function gapTerms(question: string, lang?: string): string[] {
  const terms = questionTerms(question, lang).filter((t) => !GAP_FRAME_TERMS.has(t));
  return [...new Set(terms.length ? terms : contentTerms(question, lang))].sort();
}

/** Whether any of the retrieved passages (title, headings, text) holds a stemmed term; null when none was retrieved. */
export function knowledgeTermsOf(
  passages: readonly { title: string; headingPath: readonly string[]; text: string }[],
  lang?: string,
): ((term: string) => boolean) | undefined {
  if (!passages.length) return undefined;
  const held = new Set(passages.flatMap((p) => contentTerms(`${p.title} ${p.headingPath.join(' ')} ${p.text}`, lang)));
  return (term) => held.has(term);
}

export function jaccard(a: readonly string[], b: readonly string[]): number {
  if (!a.length && !b.length) return 1;
  const setB = new Set(b);
  const shared = a.filter((t) => setB.has(t)).length;
  return shared / (a.length + b.length - shared);
}

/**
 * A gap's grouping key: its topic words, and after " | " the ones the knowledge lacked when it
 * was asked (none when the knowledge held all of them or none of them). Keys written before the
 * second part existed read as having none.
 */
export function gapKey(terms: readonly string[], missing: readonly string[]): string {
  const lacked = missing.length && missing.length < terms.length ? ` | ${[...missing].sort().join(' ')}` : '';
  return `${terms.join(' ')}${lacked}`;
}

export function parseGapKey(key: string): { terms: string[]; missing: string[] } {
  const [terms = '', missing = ''] = key.split(' | ');
  return { terms: terms.split(' ').filter(Boolean), missing: missing.split(' ').filter(Boolean) };
}

/**
 * How alike two askings are in meaning, without a model: the share of topic words they share
 * (Jaccard), or, when the knowledge held some of each question's words but not all, the share
 * of the words it lacked. What the knowledge lacks is what the gap is about: "Do you ship to
 * Antarctica?" and "Can you deliver to Antarctica?" word the covered part differently (ship,
 * deliver: both in the shipping page) and lack the same thing (Antarctica).
 */
export function gapSimilarity(
  a: { terms: readonly string[]; missing: readonly string[] },
  b: { terms: readonly string[]; missing: readonly string[] },
): number {
  const byWords = jaccard(a.terms, b.terms);
  const byLack = a.missing.length && b.missing.length ? jaccard(a.missing, b.missing) : 0;
  return Math.max(byWords, byLack);
}

/** Counts one more asking. A resolved gap asked again and still failing opens again; a dismissed one stays hidden. */
const BUMP = `UPDATE knowledge_gaps SET count = count + 1, last_asked_at = ?, question = ?,
    best_confidence = CASE WHEN best_confidence >= ? THEN best_confidence ELSE ? END,
    cause = ?, status = CASE status WHEN 'resolved' THEN 'open' ELSE status END`;

const SQL = {
  candidates: 'SELECT id, group_key FROM knowledge_gaps WHERE assistant_id = ? ORDER BY last_asked_at DESC LIMIT ?',
  // The same wording again, found by its key (the unique index) and counted in one statement.
  bumpExact: `${BUMP} WHERE assistant_id = ? AND group_key = ? RETURNING id`,
  bump: `${BUMP} WHERE id = ?`,
  // An upsert, not a plain insert: on PostgreSQL two turns asking the same new question commit
  // side by side, neither sees the other's gap, and the second would fail on the unique key
  // (it waits for the first to commit, then counts itself into that gap, as bump does).
  insert: `INSERT INTO knowledge_gaps (id, organization_id, assistant_id, group_key, question, count, best_confidence, first_asked_at, last_asked_at, cause)
    VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
    ON CONFLICT (assistant_id, group_key) DO UPDATE SET count = knowledge_gaps.count + 1, last_asked_at = excluded.last_asked_at, question = excluded.question,
      best_confidence = CASE WHEN knowledge_gaps.best_confidence >= excluded.best_confidence THEN knowledge_gaps.best_confidence ELSE excluded.best_confidence END,
      cause = excluded.cause, status = CASE knowledge_gaps.status WHEN 'resolved' THEN 'open' ELSE knowledge_gaps.status END
    RETURNING id`,
  question: 'INSERT INTO knowledge_gap_questions (gap_id, question, cause, confidence, message_id, asked_at) VALUES (?, ?, ?, ?, ?, ?)',
  ratedMessage: `SELECT m.seq, m.answered, m.confidence, c.organization_id AS org, c.assistant_id AS "assistantId"
    FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ? AND m.conversation_id = ?`,
  ratedDownAlready: "SELECT 1 AS one FROM knowledge_gap_questions WHERE message_id = ? AND cause = 'rated_down'",
  questionBefore: "SELECT content FROM messages WHERE conversation_id = ? AND role = 'user' AND seq < ? ORDER BY seq DESC LIMIT 1",
} as const;

/**
 * Why a question is a gap: nothing was retrieved, what was retrieved scored below the threshold,
 * the model declined to answer from it, or it was answered and the user rated the answer down.
 */
export type GapCause = 'no_passages' | 'low_confidence' | 'declined' | 'rated_down';

export interface GapInput {
  organizationId: string;
  assistantId: string;
  question: string;
  confidence: number;
  at: string;
  /** The assistant's language: the analyzer that finds the question's topic words. */
  language?: string | undefined;
  /**
   * Whether the retrieved knowledge holds a stemmed term (its passages' titles, headings and
   * text); absent when nothing was retrieved. Gives the words the knowledge lacked (gapKey).
   */
  knowledgeHas?: ((term: string) => boolean) | undefined;
  cause?: GapCause;
  /** The assistant message that fell back or was rated down (links the gap to its conversation). */
  messageId?: string | null;
}

/**
 * Records a question the assistant could not answer confidently, in the caller's transaction.
 * Similar questions (same content words in any order, or nearly so) count as one gap, so the
 * list shows what is missing rather than every phrasing of it. Returns the gap's id.
 */
export async function recordKnowledgeGap(tx: Tx, g: GapInput): Promise<string> {
  const cause = g.cause ?? 'low_confidence';
  const id = await findOrCreateGap(tx, g, cause);
  await tx.run(SQL.question, [id, g.question.slice(0, 1000), cause, g.confidence, g.messageId ?? null, g.at]);
  return id;
}

async function findOrCreateGap(tx: Tx, g: GapInput, cause: GapCause): Promise<string> {
  const terms = gapTerms(g.question, g.language);
  const missing = g.knowledgeHas ? terms.filter((t) => !g.knowledgeHas?.(t)) : [];
  const key = terms.length ? gapKey(terms, missing) : g.question.trim().toLowerCase().slice(0, 200);
  const question = g.question.slice(0, 1000);
  // The same wording again: similarity 1, nothing can beat it.
  const same = await tx.get<{ id: string }>(SQL.bumpExact, [g.at, question, g.confidence, g.confidence, cause, g.assistantId, key]);
  if (same) return same.id;
  const candidates = await tx.all<{ id: string; group_key: string }>(SQL.candidates, [g.assistantId, CANDIDATES]);
  const asked = parseGapKey(key);
  let best: { id: string; score: number } | null = null;
  for (const c of candidates) {
    const score = c.group_key === key ? 1 : terms.length ? gapSimilarity(asked, parseGapKey(c.group_key)) : 0;
    if (score >= GAP_SIMILARITY && (!best || score > best.score)) best = { id: c.id, score };
  }
  if (best) {
    await tx.run(SQL.bump, [g.at, question, g.confidence, g.confidence, cause, best.id]);
    return best.id;
  }
  const row = await tx.get<{ id: string }>(SQL.insert, [
    newId('gap'),
    g.organizationId,
    g.assistantId,
    key,
    question,
    g.confidence,
    g.at,
    g.at,
    cause,
  ]);
  if (!row) throw new Error('knowledge gap upsert returned no row');
  return row.id;
}

/**
 * An answered message rated down is a gap too ("answered, but wrong"): recorded once per
 * message, with the question that preceded it. Fallbacks are gaps already and are skipped.
 */
export async function recordRatedDown(tx: Tx, conversationId: string, messageId: string, at: string): Promise<void> {
  const m = await tx.get<{ seq: number; answered: number | null; confidence: number | null; org: string; assistantId: string }>(
    SQL.ratedMessage,
    [messageId, conversationId],
  );
  if (!m || m.answered !== 1) return;
  if (await tx.get(SQL.ratedDownAlready, [messageId])) return;
  const question = (await tx.get<{ content: string }>(SQL.questionBefore, [conversationId, m.seq]))?.content;
  if (!question) return;
  await recordKnowledgeGap(tx, {
    organizationId: m.org,
    assistantId: m.assistantId,
    question,
    confidence: m.confidence ?? 0,
    at,
    cause: 'rated_down',
    messageId,
  });
}
