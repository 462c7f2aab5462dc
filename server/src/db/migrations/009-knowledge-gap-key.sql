-- A question asked again (the common case) finds its gap group by its exact key in one index
-- seek; only new wordings scan recent groups for a similar one.
CREATE INDEX knowledge_gaps_key ON knowledge_gaps (assistant_id, group_key);
