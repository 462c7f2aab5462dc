import type { Principal } from '../auth/permissions.js';
import { notFound } from '../http/errors.js';
import { parseJson } from '../lib/json.js';
import type { Queryable } from '../storage/port.js';

interface DetailRow {
  id: string;
  sessionId: string;
  assistantId: string;
  channel: string;
  userId: string | null;
  source: string | null;
  metadata: string;
  status: 'active' | 'ended';
  startedAt: string;
  lastMessageAt: string;
  endedAt: string | null;
  handoffRequestedAt: string | null;
}
interface MessageRow {
  id: string;
  role: 'user' | 'assistant' | 'human_agent';
  content: string;
  metadata: string | null;
  confidence: number | null;
  answered: number | null;
  responseMs: number | null;
  rating: 'up' | 'down' | null;
  ratingComment: string | null;
  timestamp: string;
}

/**
 * One conversation for the dashboard: every turn with its full metadata (sources with text and
 * score, confidence, the threshold it was judged against, template or fallback marker, rating and
 * comment, response time) and the corrections made to its answers.
 */
export async function conversationDetail(
  q: Queryable,
  principal: Principal,
  sessionId: string,
  threshold: (assistantId: string) => Promise<number | null>,
) {
  const c = await q.get<DetailRow>(
    `SELECT id, session_id AS "sessionId", assistant_id AS "assistantId", channel_group AS channel, user_id AS "userId", source, metadata, status,
      started_at AS "startedAt", last_message_at AS "lastMessageAt", ended_at AS "endedAt", handoff_requested_at AS "handoffRequestedAt"
    FROM conversations WHERE organization_id = ? AND session_id = ?`,
    [principal.organizationId, sessionId],
  );
  if (!c || (principal.assistantId && c.assistantId !== principal.assistantId)) throw notFound('Conversation');
  const rows = await q.all<MessageRow>(
    `SELECT id, role, content, metadata, confidence, answered, response_ms AS "responseMs", rating, rating_comment AS "ratingComment",
      created_at AS timestamp FROM messages WHERE conversation_id = ? ORDER BY seq`,
    [c.id],
  );
  const corrections = await q.all(
    `SELECT id, message_id AS "messageId", question, answer, template_id AS "templateId", knowledge_base_id AS "knowledgeBaseId",
      document_id AS "documentId", user_id AS "userId", created_at AS "createdAt" FROM corrections WHERE organization_id = ? AND session_id = ? ORDER BY created_at`,
    [principal.organizationId, sessionId],
  );
  const { id: _id, metadata, ...rest } = c;
  return {
    ...rest,
    metadata: parseJson<Record<string, unknown>>(metadata, {}),
    threshold: await threshold(c.assistantId),
    messages: rows.map((m) => {
      const meta = parseJson<Record<string, unknown> | null>(m.metadata, null);
      const base = { id: m.id, role: m.role, content: m.content, timestamp: m.timestamp, metadata: meta };
      if (m.role !== 'assistant') return base;
      return {
        ...base,
        confidence: m.confidence,
        fellBack: m.answered === 0,
        templateId: (meta?.templateId as string | undefined) ?? null,
        responseMs: m.responseMs,
        rating: m.rating,
        ratingComment: m.ratingComment,
        sources: Object.values((meta?.sources as Record<string, unknown> | undefined) ?? {}),
      };
    }),
    corrections,
  };
}
