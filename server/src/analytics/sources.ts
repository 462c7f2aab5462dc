import type { Queryable } from '../storage/port.js';
import { conversationWhere, type ConversationFilter } from './filters.js';

/** Entries per list: the page shows the head of each, "never cited" is usually short. */
export const SOURCE_LIST_LIMIT = 50;

interface Doc {
  id: string;
  knowledgeBaseId: string;
  title: string;
  url: string | null;
}

/**
 * Source use from the citations of answers (message_citations, written with each answer by the
 * chat path through analytics/rollup-writes.ts): documents of the assistant's (or organization's)
 * knowledge bases never among an answer's sources in the period, the most cited, and those
 * cited in answers rated down.
 */
export async function sourceUse(q: Queryable, f: ConversationFilter) {
  const w = conversationWhere(f);
  const cited = await q.all<{ documentId: string; count: number; down: number }>(
    `SELECT mc.document_id AS "documentId", count(*) AS count,
      sum(CASE WHEN m.rating = 'down' THEN 1 ELSE 0 END) AS down
    FROM conversations c JOIN messages m ON m.conversation_id = c.id JOIN message_citations mc ON mc.message_id = m.id
    WHERE ${w.sql} GROUP BY mc.document_id`,
    w.params,
  );
  const ofAssistant =
    f.assistantId === null
      ? ''
      : ' AND d.knowledge_base_id IN (SELECT knowledge_base_id FROM assistant_knowledge_bases WHERE assistant_id = @assistantId)';
  const docs = await q.all<Doc>(
    `SELECT d.id, d.knowledge_base_id AS "knowledgeBaseId", d.title, d.url FROM documents d JOIN knowledge_bases kb ON kb.id = d.knowledge_base_id
    WHERE kb.organization_id = @org${ofAssistant} ORDER BY d.created_at, d.id`,
    { org: f.org, ...(f.assistantId !== null && { assistantId: f.assistantId }) },
  );
  const byId = new Map(docs.map((d) => [d.id, d]));
  const counted = new Map(cited.map((c) => [c.documentId, c]));
  const withDoc = cited
    .filter((c) => byId.has(c.documentId))
    .map((c) => ({ doc: byId.get(c.documentId) as Doc, count: c.count, down: c.down }));
  return {
    neverRetrieved: docs.filter((d) => !counted.has(d.id)).slice(0, SOURCE_LIST_LIMIT),
    mostCited: [...withDoc]
      .sort((a, b) => b.count - a.count || a.doc.title.localeCompare(b.doc.title))
      .slice(0, SOURCE_LIST_LIMIT)
      .map(({ doc, count }) => ({ doc, count })),
    citedInDownrated: withDoc
      .filter((c) => c.down > 0)
      .sort((a, b) => b.down - a.down || a.doc.title.localeCompare(b.doc.title))
      .slice(0, SOURCE_LIST_LIMIT)
      .map(({ doc, down }) => ({ doc, count: down })),
  };
}
