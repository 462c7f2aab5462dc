import type { Principal } from '../auth/permissions.js';
import type { AssistantStore } from '../assistants/service.js';
import type { ChatService } from '../chat/service.js';
import type { GapCause } from '../chat/knowledge-gaps.js';
import type { Db } from '../db/open.js';
import { AppError, notFound } from '../http/errors.js';
import type { ChunkSearch } from '../knowledge/embeddings/hybrid.js';
import { chunkUrl } from '../knowledge/retrieval.js';
import { parseJson } from '../lib/json.js';
import { addSnippet, addTemplates, type FixDeps } from './fixes.js';
import type { ConversationFilter } from './filters.js';

export type GapStatus = 'open' | 'resolved' | 'dismissed';

export interface GapSummary {
  id: string; question: string; count: number; lastAskedAt: string; firstAskedAt: string; assistantId: string; bestConfidence: number;
  cause: GapCause; status: GapStatus; statusReason: string | null; statusAt: string | null;
}

/** Distinct wordings replayed when a gap is resolved: enough for any real group, bounded per request. */
export const MAX_REPLAY_QUESTIONS = 20;
/** Single questions listed in a gap's detail, newest first. */
const DETAIL_QUESTIONS = 50;
const CLOSEST_PASSAGES = 5;

const GAP_SELECT = `SELECT id, question, count, last_asked_at AS lastAskedAt, first_asked_at AS firstAskedAt, assistant_id AS assistantId,
  round(best_confidence, 3) AS bestConfidence, cause, status, status_reason AS statusReason, status_at AS statusAt FROM knowledge_gaps`;

/** Open gaps by default: a resolved or dismissed gap leaves the list. */
export function listKnowledgeGaps(db: Db, f: ConversationFilter & { status: GapStatus | 'all' }, page: { limit: number; offset: number }) {
  const where = `organization_id = @org AND (@assistantId IS NULL OR assistant_id = @assistantId)
    AND (@from IS NULL OR last_asked_at >= @from) AND (@to IS NULL OR last_asked_at <= @to) AND (@status = 'all' OR status = @status)`;
  const total = (db.prepare(`SELECT count(*) AS n FROM knowledge_gaps WHERE ${where}`).get(f) as { n: number }).n;
  const items = db.prepare(`${GAP_SELECT} WHERE ${where} ORDER BY count DESC, last_asked_at DESC LIMIT @limit OFFSET @offset`)
    .all({ ...f, limit: page.limit, offset: page.offset }) as GapSummary[];
  return { items, total };
}

export function findGap(db: Db, principal: Principal, id: string): GapSummary {
  const gap = db.prepare(`${GAP_SELECT} WHERE id = ? AND organization_id = ?`).get(id, principal.organizationId) as GapSummary | undefined;
  if (!gap || (principal.assistantId && gap.assistantId !== principal.assistantId)) throw notFound('Knowledge gap');
  return gap;
}

interface QuestionRow { question: string; cause: GapCause; confidence: number | null; askedAt: string; messageId: string | null; sessionId: string | null; response: string | null }

function gapQuestions(db: Db, gapId: string, limit: number): QuestionRow[] {
  return db.prepare(`SELECT q.question, q.cause, round(q.confidence, 3) AS confidence, q.asked_at AS askedAt, q.message_id AS messageId,
      c.session_id AS sessionId, m.content AS response
    FROM knowledge_gap_questions q LEFT JOIN messages m ON m.id = q.message_id LEFT JOIN conversations c ON c.id = m.conversation_id
    WHERE q.gap_id = ? ORDER BY q.asked_at DESC, q.id DESC LIMIT ?`).all(gapId, limit) as QuestionRow[];
}

/** The gap, its single questions (newest first) and the passages retrieval finds for it now. */
export async function gapDetail(db: Db, deps: { assistants: AssistantStore; retriever: ChunkSearch }, principal: Principal, id: string) {
  const gap = findGap(db, principal, id);
  const assistant = deps.assistants.get(principal.organizationId, gap.assistantId);
  const chunks = assistant ? await deps.retriever.retrieve(gap.question, assistant.knowledgeBases, CLOSEST_PASSAGES) : [];
  const top = chunks.reduce((m, c) => Math.max(m, c.score), 0);
  return {
    ...gap,
    resolution: parseJson<unknown>((db.prepare('SELECT resolution FROM knowledge_gaps WHERE id = ?').get(id) as { resolution: string | null }).resolution ?? 'null', null),
    questions: gapQuestions(db, id, DETAIL_QUESTIONS),
    passages: chunks.map((c) => ({
      chunkId: c.chunkId, documentId: c.documentId, title: c.title, url: chunkUrl(c), heading: c.headingPath.at(-1) ?? null, text: c.text,
      score: top > 0 ? Math.round((c.score / top) * 1000) / 1000 : 0,
    })),
  };
}

export interface ResolveInput { answer: string; as: 'template' | 'snippet'; knowledgeBaseId?: string | undefined; match?: 'exact' | 'contains' | undefined }

/**
 * Stores the answer (templates for every distinct wording, or one snippet), then replays every
 * wording through the chat service's real answer path, writing no conversation: the caller sees
 * before and after. The gap is marked resolved whatever the replay says: the page shows it.
 */
export async function resolveGap(d: FixDeps & { chat: ChatService }, principal: Principal, id: string, input: ResolveInput, at: string) {
  const db = d.ctx.db;
  const gap = findGap(db, principal, id);
  if (gap.status !== 'open') throw new AppError('conflict', `This knowledge gap is already ${gap.status}`);
  const assistant = d.assistants.get(principal.organizationId, gap.assistantId);
  if (!assistant) throw notFound('Assistant');
  const before = distinctWordings(gapQuestions(db, id, 1000), gap.question);
  let resolution: Record<string, unknown>;
  if (input.as === 'template') {
    const templateIds = addTemplates(d, principal, assistant, before.map((b) => b.question), input.match ?? 'exact', input.answer, at);
    resolution = { as: 'template', templateIds };
  } else {
    if (!input.knowledgeBaseId) throw new AppError('validation_error', 'knowledgeBaseId: required when as is snippet');
    const documentId = addSnippet(d, principal, input.knowledgeBaseId, gap.question, input.answer, at);
    resolution = { as: 'snippet', knowledgeBaseId: input.knowledgeBaseId, documentId };
  }
  // Resolved before the replay awaits: a second resolve of the same gap meanwhile gets a 409.
  db.prepare("UPDATE knowledge_gaps SET status = 'resolved', status_at = ?, status_reason = NULL, resolution = ? WHERE id = ?")
    .run(at, JSON.stringify({ ...resolution, by: principal.userId ?? principal.credentialId }), id);
  const updated = d.assistants.get(principal.organizationId, gap.assistantId) ?? assistant;
  const after = [];
  for (const b of before) {
    const r = await d.chat.replay({ assistant: updated, message: b.question });
    after.push({ question: b.question, response: r.response, confidence: Math.round(r.confidence * 1000) / 1000, fallback: r.fallback });
  }
  return { id, status: 'resolved' as const, ...resolution, before: before.map(({ question, response, confidence }) => ({ question, response, confidence })), after };
}

function distinctWordings(rows: QuestionRow[], fallback: string): QuestionRow[] {
  const seen = new Map<string, QuestionRow>();
  for (const r of rows) {
    const key = r.question.trim().toLowerCase();
    if (!seen.has(key)) seen.set(key, r);
    if (seen.size === MAX_REPLAY_QUESTIONS) break;
  }
  if (!seen.size) seen.set(fallback, { question: fallback, cause: 'low_confidence', confidence: null, askedAt: '', messageId: null, sessionId: null, response: null });
  return [...seen.values()];
}

export function dismissGap(db: Db, principal: Principal, id: string, reason: string, at: string) {
  const gap = findGap(db, principal, id);
  if (gap.status === 'dismissed') throw new AppError('conflict', 'This knowledge gap is already dismissed');
  db.prepare("UPDATE knowledge_gaps SET status = 'dismissed', status_reason = ?, status_at = ? WHERE id = ?").run(reason, at, id);
  return { ...gap, status: 'dismissed' as const, statusReason: reason, statusAt: at };
}
