-- Analytics (Dashboard II). The dashboard's channel of a conversation, derived in one place:
-- connectors and the playground say who they are in metadata.source; everything else is the
-- widget or the API. A virtual column, so the rollup triggers and the filters read the same value.
ALTER TABLE conversations ADD COLUMN channel_group TEXT GENERATED ALWAYS AS (
  CASE WHEN lower(source) IN ('discord', 'slack', 'teams', 'playground') THEN lower(source)
       WHEN channel = 'widget' THEN 'widget' ELSE 'api' END) VIRTUAL;
CREATE INDEX conversations_handoff ON conversations (organization_id, handoff_requested_at) WHERE handoff_requested_at IS NOT NULL;

-- Per-hour counters per (organization, assistant, channel), kept by triggers in the transaction
-- of every write that changes them: a 90-day time series reads ≤ 2,160 rows per assistant and
-- channel instead of a million messages. `hour` is the UTC hour, 'YYYY-MM-DDTHH'.
CREATE TABLE analytics_hourly (
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  hour             TEXT NOT NULL,
  assistant_id     TEXT NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  channel          TEXT NOT NULL,
  conversations    INTEGER NOT NULL DEFAULT 0,
  messages         INTEGER NOT NULL DEFAULT 0,
  answered         INTEGER NOT NULL DEFAULT 0,
  unanswered       INTEGER NOT NULL DEFAULT 0,
  up               INTEGER NOT NULL DEFAULT 0,
  down             INTEGER NOT NULL DEFAULT 0,
  handoffs         INTEGER NOT NULL DEFAULT 0,
  -- Response times as a histogram, a JSON object {bucket: count}: bucket 0 is [0, 1) ms, bucket
  -- k ≥ 1 is [1.1^(k-1), 1.1^k) ms. Percentiles read the bucket's geometric middle: within ±5 %.
  -- One row per hour and cell, not one per bucket: a 90-day read stays at the row count above.
  latency          TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (organization_id, hour, assistant_id, channel)
) WITHOUT ROWID;
CREATE INDEX analytics_hourly_assistant ON analytics_hourly (assistant_id);

-- Which documents each answer cited (metadata.sources[*].chunkId → the chunk's document), for
-- "most cited", "never cited" and "cited in answers rated down". No foreign key to documents:
-- the history outlives a deleted document.
CREATE TABLE message_citations (
  message_id   TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  document_id  TEXT NOT NULL,
  PRIMARY KEY (message_id, document_id)
) WITHOUT ROWID;
CREATE INDEX message_citations_document ON message_citations (document_id);

CREATE TRIGGER analytics_conversation_ai AFTER INSERT ON conversations BEGIN
  INSERT INTO analytics_hourly (organization_id, hour, assistant_id, channel, conversations)
    VALUES (new.organization_id, substr(new.started_at, 1, 13), new.assistant_id, new.channel_group, 1)
    ON CONFLICT DO UPDATE SET conversations = conversations + 1;
END;

CREATE TRIGGER analytics_handoff_au AFTER UPDATE OF handoff_requested_at ON conversations
  WHEN old.handoff_requested_at IS NULL AND new.handoff_requested_at IS NOT NULL BEGIN
  INSERT INTO analytics_hourly (organization_id, hour, assistant_id, channel, handoffs)
    VALUES (new.organization_id, substr(new.handoff_requested_at, 1, 13), new.assistant_id, new.channel_group, 1)
    ON CONFLICT DO UPDATE SET handoffs = handoffs + 1;
END;

CREATE TRIGGER analytics_message_ai AFTER INSERT ON messages BEGIN
  INSERT INTO analytics_hourly (organization_id, hour, assistant_id, channel, messages, answered, unanswered, latency)
    SELECT c.organization_id, substr(new.created_at, 1, 13), c.assistant_id, c.channel_group, 1, new.answered IS 1, new.answered IS 0,
      CASE WHEN new.response_ms IS NULL THEN '{}'
        ELSE json_object(CAST(CASE WHEN new.response_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(new.response_ms) / ln(1.1)) AS INTEGER) END AS TEXT), 1) END
    FROM conversations c WHERE c.id = new.conversation_id
    ON CONFLICT DO UPDATE SET messages = messages + 1, answered = answered + excluded.answered, unanswered = unanswered + excluded.unanswered,
      latency = CASE WHEN new.response_ms IS NULL THEN latency ELSE (SELECT json_set(latency, p, coalesce(json_extract(latency, p), 0) + 1)
        FROM (SELECT '$."' || (CASE WHEN new.response_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(new.response_ms) / ln(1.1)) AS INTEGER) END) || '"' AS p)) END;
  INSERT OR IGNORE INTO message_citations (message_id, document_id)
    SELECT new.id, ch.document_id FROM json_each(new.metadata, '$.sources') j JOIN chunks ch ON ch.id = json_extract(j.value, '$.chunkId')
    WHERE new.role = 'assistant' AND json_valid(new.metadata);
END;

CREATE TRIGGER analytics_rating_au AFTER UPDATE OF rating ON messages WHEN old.rating IS NOT new.rating BEGIN
  INSERT INTO analytics_hourly (organization_id, hour, assistant_id, channel, up, down)
    SELECT c.organization_id, substr(new.created_at, 1, 13), c.assistant_id, c.channel_group,
      (new.rating IS 'up') - (old.rating IS 'up'), (new.rating IS 'down') - (old.rating IS 'down')
    FROM conversations c WHERE c.id = new.conversation_id
    ON CONFLICT DO UPDATE SET up = up + excluded.up, down = down + excluded.down;
END;

-- Backfill from the history already stored.
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

WITH lat AS (
  SELECT c.organization_id AS org, substr(m.created_at, 1, 13) AS hour, c.assistant_id AS asst, c.channel_group AS ch,
    CASE WHEN m.response_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(m.response_ms) / ln(1.1)) AS INTEGER) END AS b, count(*) AS n
  FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.response_ms IS NOT NULL GROUP BY 1, 2, 3, 4, 5
), hist AS (SELECT org, hour, asst, ch, json_group_object(CAST(b AS TEXT), n) AS j FROM lat GROUP BY 1, 2, 3, 4)
UPDATE analytics_hourly SET latency = hist.j FROM hist
  WHERE analytics_hourly.organization_id = hist.org AND analytics_hourly.hour = hist.hour AND analytics_hourly.assistant_id = hist.asst AND analytics_hourly.channel = hist.ch;
