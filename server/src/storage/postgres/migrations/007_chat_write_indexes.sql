-- Twin of SQLite migration 028 (fewer index pages written per chat turn, issue 14): the same
-- drops and the same partial index. Every reader's plan was checked on both dialects.
--
-- knowledge_gaps_key (assistant_id, group_key) repeats UNIQUE (assistant_id, group_key), whose
-- index already answers the exact-key lookup and the upsert's conflict.
DROP INDEX knowledge_gaps_key;
-- knowledge_gaps_org (organization_id, count) moved with every repeated question (count + 1).
-- knowledge_gaps_status (organization_id, status, count) serves the same organization-only reads
-- by its prefix (counts, the closed-gap count of analytics); only the gap list with status
-- "all" now sorts the organization's gaps instead of reading them in count order.
DROP INDEX knowledge_gaps_org;
-- Nothing reads citations by document: "most cited" (analytics/sources.ts) reaches them through
-- the message (the primary key) and groups in memory.
DROP INDEX message_citations_document;
-- Gap questions are looked up by message only to record a rating down once per message
-- (chat/knowledge-gaps.ts, cause = 'rated_down'); fallbacks, most of the rows, need no entry.
DROP INDEX knowledge_gap_questions_message;
CREATE INDEX knowledge_gap_questions_rated_down ON knowledge_gap_questions (message_id) WHERE cause = 'rated_down';
