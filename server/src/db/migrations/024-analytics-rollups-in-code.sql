-- Analytics rollups written by the application (analytics/rollup-writes.ts), in the transaction
-- of the write they count, instead of by the triggers of migrations 018, 021 and 022:
-- * the triggers ran on every chat message and most of their time went to JSON: each answer's
--   response time was added to a JSON histogram with json_set (per hour and per day), and each
--   answer's metadata was parsed again (json_valid, json_each) to find its cited documents, which
--   the chat path already knows;
-- * the same rollups must run on PostgreSQL: plain INSERT … ON CONFLICT statements issued by the
--   code are one implementation for both, triggers would be one per dialect.
-- Response-time and provider-time histograms become integer rows, one per (cell, bucket), kept
-- with count = count + 1. Buckets as before: 0 is [0, 1) ms, k ≥ 1 is [1.1^(k-1), 1.1^k) ms.
DROP TRIGGER analytics_conversation_ai;
DROP TRIGGER analytics_handoff_au;
DROP TRIGGER analytics_message_ai;
DROP TRIGGER analytics_rating_au;
DROP TRIGGER analytics_daily_latency_ai;
DROP TRIGGER analytics_usage_ai;
DROP TRIGGER analytics_usage_au_remove;
DROP TRIGGER analytics_usage_au_add;

ALTER TABLE analytics_hourly DROP COLUMN latency;
ALTER TABLE analytics_hourly_usage DROP COLUMN provider_latency;
ALTER TABLE analytics_daily_usage DROP COLUMN provider_latency;
DROP TABLE analytics_daily_latency;

-- `metric` is 'response' (messages.response_ms, every message that has one) or 'provider'
-- (messages.provider_ms of answers a model wrote, as the usage tables count them). `hour` is the
-- UTC hour 'YYYY-MM-DDTHH' the message was written.
CREATE TABLE analytics_latency_hourly (
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  metric           TEXT NOT NULL,
  hour             TEXT NOT NULL,
  assistant_id     TEXT NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  channel          TEXT NOT NULL,
  bucket           INTEGER NOT NULL,
  count            INTEGER NOT NULL,
  PRIMARY KEY (organization_id, metric, hour, assistant_id, channel, bucket)
) WITHOUT ROWID;
CREATE INDEX analytics_latency_hourly_assistant ON analytics_latency_hourly (assistant_id);

-- The same per UTC day ('YYYY-MM-DD'): a 90-day series by day, or the whole days of a range,
-- read 24 times fewer rows than from the hourly table.
CREATE TABLE analytics_latency_daily (
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  metric           TEXT NOT NULL,
  day              TEXT NOT NULL,
  assistant_id     TEXT NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  channel          TEXT NOT NULL,
  bucket           INTEGER NOT NULL,
  count            INTEGER NOT NULL,
  PRIMARY KEY (organization_id, metric, day, assistant_id, channel, bucket)
) WITHOUT ROWID;
CREATE INDEX analytics_latency_daily_assistant ON analytics_latency_daily (assistant_id);

-- Backfill: every rollup recomputed from the stored conversations and messages (also what
-- analytics/rollup-writes.ts rebuildRollups runs after a bulk load that bypassed the code path).
-- message_citations is left as it is: it holds the documents cited, not a count.
DELETE FROM analytics_hourly;
DELETE FROM analytics_hourly_usage;
DELETE FROM analytics_daily_usage;
DELETE FROM analytics_latency_hourly;
DELETE FROM analytics_latency_daily;

INSERT INTO analytics_hourly (organization_id, hour, assistant_id, channel, conversations, messages, answered, unanswered, up, down, handoffs)
  SELECT org, hour, asst, ch, sum(conv), sum(msg), sum(ans), sum(unans), sum(up), sum(down), sum(hand) FROM (
    SELECT organization_id AS org, substr(started_at, 1, 13) AS hour, assistant_id AS asst, channel_group AS ch,
      1 AS conv, 0 AS msg, 0 AS ans, 0 AS unans, 0 AS up, 0 AS down, 0 AS hand FROM conversations
    UNION ALL
    SELECT c.organization_id, substr(m.created_at, 1, 13), c.assistant_id, c.channel_group,
      0, 1, m.answered IS 1, m.answered IS 0, m.rating IS 'up', m.rating IS 'down', 0
    FROM messages m JOIN conversations c ON c.id = m.conversation_id
    UNION ALL
    SELECT organization_id, substr(handoff_requested_at, 1, 13), assistant_id, channel_group, 0, 0, 0, 0, 0, 0, 1
    FROM conversations WHERE handoff_requested_at IS NOT NULL
  ) GROUP BY org, hour, asst, ch;

INSERT INTO analytics_hourly_usage (organization_id, hour, assistant_id, channel, provider, model, answers, prompt_tokens, completion_tokens,
    provider_ms_count, provider_ms_sum)
  SELECT c.organization_id, substr(m.created_at, 1, 13), c.assistant_id, c.channel_group, m.provider, coalesce(m.model, ''), count(*),
    coalesce(sum(m.prompt_tokens), 0), coalesce(sum(m.completion_tokens), 0), count(m.provider_ms), coalesce(sum(m.provider_ms), 0)
  FROM messages m JOIN conversations c ON c.id = m.conversation_id
  WHERE m.provider IS NOT NULL AND m.provider != 'extractive' GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO analytics_daily_usage (organization_id, day, assistant_id, channel, provider, model, answers, prompt_tokens, completion_tokens,
    provider_ms_count, provider_ms_sum)
  SELECT c.organization_id, substr(m.created_at, 1, 10), c.assistant_id, c.channel_group, m.provider, coalesce(m.model, ''), count(*),
    coalesce(sum(m.prompt_tokens), 0), coalesce(sum(m.completion_tokens), 0), count(m.provider_ms), coalesce(sum(m.provider_ms), 0)
  FROM messages m JOIN conversations c ON c.id = m.conversation_id
  WHERE m.provider IS NOT NULL AND m.provider != 'extractive' GROUP BY 1, 2, 3, 4, 5, 6;

-- One row per message time and bucket, the hour and the day cut from it afterwards.
CREATE TEMP TABLE latency_backfill AS
  SELECT c.organization_id AS org, 'response' AS metric, m.created_at AS at, c.assistant_id AS asst, c.channel_group AS ch,
    CASE WHEN m.response_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(m.response_ms) / ln(1.1)) AS INTEGER) END AS bucket
  FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.response_ms IS NOT NULL
  UNION ALL
  SELECT c.organization_id, 'provider', m.created_at, c.assistant_id, c.channel_group,
    CASE WHEN m.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(m.provider_ms) / ln(1.1)) AS INTEGER) END
  FROM messages m JOIN conversations c ON c.id = m.conversation_id
  WHERE m.provider IS NOT NULL AND m.provider != 'extractive' AND m.provider_ms IS NOT NULL;
INSERT INTO analytics_latency_hourly (organization_id, metric, hour, assistant_id, channel, bucket, count)
  SELECT org, metric, substr(at, 1, 13), asst, ch, bucket, count(*) FROM latency_backfill GROUP BY 1, 2, 3, 4, 5, 6;
INSERT INTO analytics_latency_daily (organization_id, metric, day, assistant_id, channel, bucket, count)
  SELECT org, metric, substr(at, 1, 10), asst, ch, bucket, count(*) FROM latency_backfill GROUP BY 1, 2, 3, 4, 5, 6;
DROP TABLE latency_backfill;
