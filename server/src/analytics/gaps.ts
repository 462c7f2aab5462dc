import type { Principal } from '../auth/permissions.js';
import type { AssistantStore } from '../assistants/service.js';
import type { ChatService } from '../chat/service.js';
import type { GapCause } from '../chat/knowledge-gaps.js';
import { AppError, notFound } from '../http/errors.js';
import type { ChunkSearch } from '../knowledge/embeddings/hybrid.js';
import { chunkUrl } from '../knowledge/retrieval.js';
import { parseJson } from '../lib/json.js';
import type { Queryable, SqlValue } from '../storage/port.js';
import { addSnippet, addTemplates, type FixDeps } from './fixes.js';
import type { ConversationFilter } from './filters.js';

export type GapStatus = 'open' | 'resolved' | 'dismissed';

export interface GapSummary {
  id: string;
  question: string;
  count: number;
  lastAskedAt: string;
  firstAskedAt: string;
  assistantId: string;
  bestConfidence: number;
  cause: GapCause;
  status: GapStatus;
  statusReason: string | null;
  statusAt: string | null;
}

/** Distinct wordings replayed when a gap is resolved: enough for any real group, bounded per request. */
export const MAX_REPLAY_QUESTIONS = 20;
/** Single questions listed in a gap's detail, newest first. */
const DETAIL_QUESTIONS = 50;
const CLOSEST_PASSAGES = 5;

// Quoted camelCase aliases: PostgreSQL folds unquoted identifiers to lower case. Confidences are
// rounded in TypeScript (PostgreSQL has no round(double precision, int)).
const GAP_SELECT = `SELECT id, question, count, last_asked_at AS "lastAskedAt", first_asked_at AS "firstAskedAt", assistant_id AS "assistantId",
  best_confidence AS "bestConfidence", cause, status, status_reason AS "statusReason", status_at AS "statusAt" FROM knowledge_gaps`;

const round3 = (n: number): number => Math.round(n * 1000) / 1000;
const roundGap = (g: GapSummary): GapSummary => ({ ...g, bestConfidence: round3(g.bestConfidence) });

/** Open gaps by default: a resolved or dismissed gap leaves the list. */
export async function listKnowledgeGaps(
  q: Queryable,
  f: ConversationFilter & { status: GapStatus | 'all' },
  page: { limit: number; offset: number },
) {
  // Only the conditions that are set: PostgreSQL cannot type a parameter only compared with NULL.
  const where = ['organization_id = @org'];
  const params: Record<string, SqlValue> = { org: f.org };
  if (f.assistantId !== null) {
    where.push('assistant_id = @assistantId');
    params.assistantId = f.assistantId;
  }
  if (f.from !== null) {
    where.push('last_asked_at >= @from');
    params.from = f.from;
  }
  if (f.to !== null) {
    where.push('last_asked_at <= @to');
    params.to = f.to;
  }
  if (f.status !== 'all') {
    where.push('status = @status');
    params.status = f.status;
  }
  const sql = where.join(' AND ');
  const total = (await q.get<{ n: number }>(`SELECT count(*) AS n FROM knowledge_gaps WHERE ${sql}`, params))?.n ?? 0;
  // id last: a total order, so pages do not overlap or depend on the database's plan.
  const items = await q.all<GapSummary>(
    `${GAP_SELECT} WHERE ${sql} ORDER BY count DESC, last_asked_at DESC, id LIMIT @limit OFFSET @offset`,
    { ...params, limit: page.limit, offset: page.offset },
  );
  return { items: items.map(roundGap), total };
}

export async function findGap(q: Queryable, principal: Principal, id: string): Promise<GapSummary> {
  const gap = await q.get<GapSummary>(`${GAP_SELECT} WHERE id = ? AND organization_id = ?`, [id, principal.organizationId]);
  if (!gap || (principal.assistantId && gap.assistantId !== principal.assistantId)) throw notFound('Knowledge gap');
  return roundGap(gap);
}

interface QuestionRow {
  question: string;
  cause: GapCause;
  confidence: number | null;
  askedAt: string;
  messageId: string | null;
  sessionId: string | null;
  response: string | null;
}

async function gapQuestions(q: Queryable, gapId: string, limit: number): Promise<QuestionRow[]> {
  const rows = await q.all<QuestionRow>(
    `SELECT q.question, q.cause, q.confidence, q.asked_at AS "askedAt", q.message_id AS "messageId",
      c.session_id AS "sessionId", m.content AS response
    FROM knowledge_gap_questions q LEFT JOIN messages m ON m.id = q.message_id LEFT JOIN conversations c ON c.id = m.conversation_id
    WHERE q.gap_id = ? ORDER BY q.asked_at DESC, q.id DESC LIMIT ?`,
    [gapId, limit],
  );
  return rows.map((r) => ({ ...r, confidence: r.confidence === null ? null : round3(r.confidence) }));
}

/** The gap, its single questions (newest first) and the passages retrieval finds for it now. */
export async function gapDetail(
  q: Queryable,
  deps: { assistants: AssistantStore; retriever: ChunkSearch },
  principal: Principal,
  id: string,
) {
  const gap = await findGap(q, principal, id);
  const assistant = await deps.assistants.get(principal.organizationId, gap.assistantId);
  const chunks = assistant ? await deps.retriever.retrieve(gap.question, assistant.knowledgeBases, CLOSEST_PASSAGES) : [];
  const top = chunks.reduce((m, c) => Math.max(m, c.score), 0);
  return {
    ...gap,
    resolution: parseJson<unknown>(
      (await q.get<{ resolution: string | null }>('SELECT resolution FROM knowledge_gaps WHERE id = ?', [id]))?.resolution ?? 'null',
      null,
    ),
    questions: await gapQuestions(q, id, DETAIL_QUESTIONS),
    passages: chunks.map((c) => ({
      chunkId: c.chunkId,
      documentId: c.documentId,
      title: c.title,
      url: chunkUrl(c),
      heading: c.headingPath.at(-1) ?? null,
      text: c.text,
      score: top > 0 ? Math.round((c.score / top) * 1000) / 1000 : 0,
    })),
  };
}

export interface ResolveInput {
  answer: string;
  as: 'template' | 'snippet';
  knowledgeBaseId?: string | undefined;
  match?: 'exact' | 'contains' | undefined;
}

/**
 * Stores the answer (templates for every distinct wording, or one snippet), then replays every
 * wording through the chat service's real answer path, writing no conversation: the caller sees
 * before and after. The gap is marked resolved whatever the replay says: the page shows it.
 */
export async function resolveGap(d: FixDeps & { chat: ChatService }, principal: Principal, id: string, input: ResolveInput, at: string) {
  const storage = d.ctx.storage;
  const gap = await findGap(storage, principal, id);
  if (gap.status !== 'open') throw new AppError('conflict', `This knowledge gap is already ${gap.status}`);
  const assistant = await d.assistants.get(principal.organizationId, gap.assistantId);
  if (!assistant) throw notFound('Assistant');
  if (input.as === 'snippet' && !input.knowledgeBaseId)
    throw new AppError('validation_error', 'knowledgeBaseId: required when as is snippet');
  const before = distinctWordings(await gapQuestions(storage, id, 1000), gap.question);
  // Claimed before anything is stored, by one conditional UPDATE: of two resolves at once (on
  // PostgreSQL both read the gap open) one claims it and the other gets a 409, storing nothing.
  const claimed = await storage.run(
    "UPDATE knowledge_gaps SET status = 'resolved', status_at = ?, status_reason = NULL, resolution = NULL WHERE id = ? AND status = 'open'",
    [at, id],
  );
  if (!claimed.changes) throw new AppError('conflict', 'This knowledge gap is already being resolved or was just resolved or dismissed');
  let resolution: Record<string, unknown>;
  try {
    if (input.as === 'template') {
      const templateIds = await addTemplates(
        d,
        principal,
        assistant,
        before.map((b) => b.question),
        input.match ?? 'exact',
        input.answer,
        at,
      );
      resolution = { as: 'template', templateIds };
    } else {
      const knowledgeBaseId = input.knowledgeBaseId as string;
      const documentId = await addSnippet(d, principal, knowledgeBaseId, gap.question, input.answer, at);
      resolution = { as: 'snippet', knowledgeBaseId, documentId };
    }
  } catch (err) {
    // Nothing was stored (each fix writes in its own transaction): the gap is open again.
    await storage.run(
      "UPDATE knowledge_gaps SET status = 'open', status_at = ?, status_reason = NULL WHERE id = ? AND status = 'resolved' AND resolution IS NULL",
      [gap.statusAt, id],
    );
    throw err;
  }
  await storage.run('UPDATE knowledge_gaps SET resolution = ? WHERE id = ?', [
    JSON.stringify({ ...resolution, by: principal.userId ?? principal.credentialId }),
    id,
  ]);
  const updated = (await d.assistants.get(principal.organizationId, gap.assistantId)) ?? assistant;
  const after = [];
  for (const b of before) {
    const r = await d.chat.replay({ assistant: updated, message: b.question });
    after.push({ question: b.question, response: r.response, confidence: Math.round(r.confidence * 1000) / 1000, fallback: r.fallback });
  }
  return {
    id,
    status: 'resolved' as const,
    ...resolution,
    before: before.map(({ question, response, confidence }) => ({ question, response, confidence })),
    after,
  };
}

function distinctWordings(rows: QuestionRow[], fallback: string): QuestionRow[] {
  const seen = new Map<string, QuestionRow>();
  for (const r of rows) {
    const key = r.question.trim().toLowerCase();
    if (!seen.has(key)) seen.set(key, r);
    if (seen.size === MAX_REPLAY_QUESTIONS) break;
  }
  if (!seen.size)
    seen.set(fallback, {
      question: fallback,
      cause: 'low_confidence',
      confidence: null,
      askedAt: '',
      messageId: null,
      sessionId: null,
      response: null,
    });
  return [...seen.values()];
}

export async function dismissGap(q: Queryable, principal: Principal, id: string, reason: string, at: string) {
  const gap = await findGap(q, principal, id);
  if (gap.status === 'dismissed') throw new AppError('conflict', 'This knowledge gap is already dismissed');
  await q.run("UPDATE knowledge_gaps SET status = 'dismissed', status_reason = ?, status_at = ? WHERE id = ?", [reason, at, id]);
  return { ...gap, status: 'dismissed' as const, statusReason: reason, statusAt: at };
}
