-- Model usage per UTC hour and per UTC day (issue 13 follow-up): tokens and provider time per (organization,
-- hour, assistant, channel, provider, model), kept by triggers like analytics_hourly (018), so
-- the analytics page's metrics read a few thousand rows instead of every answer of the period.
-- Only answers a model wrote count (provider set and not 'extractive'), as in the exact scan.
-- `model` is '' when the provider named none (a primary key column cannot be NULL); the reader
-- turns it back into null. `hour` is the hour the answer was written, 'YYYY-MM-DDTHH'.
CREATE TABLE analytics_hourly_usage (
  organization_id    TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  hour               TEXT NOT NULL,
  assistant_id       TEXT NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  channel            TEXT NOT NULL,
  provider           TEXT NOT NULL,
  model              TEXT NOT NULL,
  answers            INTEGER NOT NULL DEFAULT 0,
  prompt_tokens      INTEGER NOT NULL DEFAULT 0,
  completion_tokens  INTEGER NOT NULL DEFAULT 0,
  -- Average provider time = provider_ms_sum / provider_ms_count (answers without a time left out).
  provider_ms_count  INTEGER NOT NULL DEFAULT 0,
  provider_ms_sum    REAL NOT NULL DEFAULT 0,
  -- Provider time as a histogram, same buckets and JSON shape as analytics_hourly.latency: the
  -- p95 reads a bucket's geometric middle, within ±5 % of the exact figure.
  provider_latency   TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (organization_id, hour, assistant_id, channel, provider, model)
) WITHOUT ROWID;
CREATE INDEX analytics_hourly_usage_assistant ON analytics_hourly_usage (assistant_id);

-- The same per UTC day ('YYYY-MM-DD'): a 30-day range reads its whole days here (~30 rows per
-- cell and model instead of 720) and only the partial days at its ends from the hourly table.
CREATE TABLE analytics_daily_usage (
  organization_id    TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  day                TEXT NOT NULL,
  assistant_id       TEXT NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  channel            TEXT NOT NULL,
  provider           TEXT NOT NULL,
  model              TEXT NOT NULL,
  answers            INTEGER NOT NULL DEFAULT 0,
  prompt_tokens      INTEGER NOT NULL DEFAULT 0,
  completion_tokens  INTEGER NOT NULL DEFAULT 0,
  provider_ms_count  INTEGER NOT NULL DEFAULT 0,
  provider_ms_sum    REAL NOT NULL DEFAULT 0,
  provider_latency   TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (organization_id, day, assistant_id, channel, provider, model)
) WITHOUT ROWID;
CREATE INDEX analytics_daily_usage_assistant ON analytics_daily_usage (assistant_id);

-- The chat path writes usage with an UPDATE right after inserting the answer (answer/usage.ts);
-- seeders and imports may insert it directly. Both add; an UPDATE that changes usage first takes
-- the old figures out, so a rewrite never counts twice.
CREATE TRIGGER analytics_usage_ai AFTER INSERT ON messages WHEN new.provider IS NOT NULL AND new.provider != 'extractive' BEGIN
  INSERT INTO analytics_hourly_usage (organization_id, hour, assistant_id, channel, provider, model, answers, prompt_tokens, completion_tokens,
      provider_ms_count, provider_ms_sum, provider_latency)
    SELECT c.organization_id, substr(new.created_at, 1, 13), c.assistant_id, c.channel_group, new.provider, coalesce(new.model, ''), 1,
      coalesce(new.prompt_tokens, 0), coalesce(new.completion_tokens, 0), new.provider_ms IS NOT NULL, coalesce(new.provider_ms, 0),
      CASE WHEN new.provider_ms IS NULL THEN '{}' ELSE json_object(CAST((CASE WHEN new.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(new.provider_ms) / ln(1.1)) AS INTEGER) END) AS TEXT), 1) END
    FROM conversations c WHERE c.id = new.conversation_id
    ON CONFLICT DO UPDATE SET answers = answers + 1, prompt_tokens = prompt_tokens + excluded.prompt_tokens,
      completion_tokens = completion_tokens + excluded.completion_tokens, provider_ms_count = provider_ms_count + excluded.provider_ms_count,
      provider_ms_sum = provider_ms_sum + excluded.provider_ms_sum,
      provider_latency = CASE WHEN new.provider_ms IS NULL THEN provider_latency ELSE (SELECT json_set(provider_latency, p, coalesce(json_extract(provider_latency, p), 0) + 1)
        FROM (SELECT '$."' || (CASE WHEN new.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(new.provider_ms) / ln(1.1)) AS INTEGER) END) || '"' AS p)) END;
  INSERT INTO analytics_daily_usage (organization_id, day, assistant_id, channel, provider, model, answers, prompt_tokens, completion_tokens,
      provider_ms_count, provider_ms_sum, provider_latency)
    SELECT c.organization_id, substr(new.created_at, 1, 10), c.assistant_id, c.channel_group, new.provider, coalesce(new.model, ''), 1,
      coalesce(new.prompt_tokens, 0), coalesce(new.completion_tokens, 0), new.provider_ms IS NOT NULL, coalesce(new.provider_ms, 0),
      CASE WHEN new.provider_ms IS NULL THEN '{}' ELSE json_object(CAST((CASE WHEN new.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(new.provider_ms) / ln(1.1)) AS INTEGER) END) AS TEXT), 1) END
    FROM conversations c WHERE c.id = new.conversation_id
    ON CONFLICT DO UPDATE SET answers = answers + 1, prompt_tokens = prompt_tokens + excluded.prompt_tokens,
      completion_tokens = completion_tokens + excluded.completion_tokens, provider_ms_count = provider_ms_count + excluded.provider_ms_count,
      provider_ms_sum = provider_ms_sum + excluded.provider_ms_sum,
      provider_latency = CASE WHEN new.provider_ms IS NULL THEN provider_latency ELSE (SELECT json_set(provider_latency, p, coalesce(json_extract(provider_latency, p), 0) + 1)
        FROM (SELECT '$."' || (CASE WHEN new.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(new.provider_ms) / ln(1.1)) AS INTEGER) END) || '"' AS p)) END;
END;

CREATE TRIGGER analytics_usage_au_remove AFTER UPDATE OF provider, model, prompt_tokens, completion_tokens, provider_ms ON messages
  WHEN old.provider IS NOT NULL AND old.provider != 'extractive'
    AND (old.provider IS NOT new.provider OR old.model IS NOT new.model OR old.prompt_tokens IS NOT new.prompt_tokens
      OR old.completion_tokens IS NOT new.completion_tokens OR old.provider_ms IS NOT new.provider_ms) BEGIN
  UPDATE analytics_hourly_usage SET answers = answers - 1, prompt_tokens = prompt_tokens - coalesce(old.prompt_tokens, 0),
      completion_tokens = completion_tokens - coalesce(old.completion_tokens, 0), provider_ms_count = provider_ms_count - (old.provider_ms IS NOT NULL),
      provider_ms_sum = provider_ms_sum - coalesce(old.provider_ms, 0),
      provider_latency = CASE WHEN old.provider_ms IS NULL THEN provider_latency ELSE (SELECT json_set(provider_latency, p, coalesce(json_extract(provider_latency, p), 0) - 1)
        FROM (SELECT '$."' || (CASE WHEN old.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(old.provider_ms) / ln(1.1)) AS INTEGER) END) || '"' AS p)) END
    WHERE (organization_id, hour, assistant_id, channel, provider, model) =
      (SELECT c.organization_id, substr(old.created_at, 1, 13), c.assistant_id, c.channel_group, old.provider, coalesce(old.model, '')
        FROM conversations c WHERE c.id = old.conversation_id);
  UPDATE analytics_daily_usage SET answers = answers - 1, prompt_tokens = prompt_tokens - coalesce(old.prompt_tokens, 0),
      completion_tokens = completion_tokens - coalesce(old.completion_tokens, 0), provider_ms_count = provider_ms_count - (old.provider_ms IS NOT NULL),
      provider_ms_sum = provider_ms_sum - coalesce(old.provider_ms, 0),
      provider_latency = CASE WHEN old.provider_ms IS NULL THEN provider_latency ELSE (SELECT json_set(provider_latency, p, coalesce(json_extract(provider_latency, p), 0) - 1)
        FROM (SELECT '$."' || (CASE WHEN old.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(old.provider_ms) / ln(1.1)) AS INTEGER) END) || '"' AS p)) END
    WHERE (organization_id, day, assistant_id, channel, provider, model) =
      (SELECT c.organization_id, substr(old.created_at, 1, 10), c.assistant_id, c.channel_group, old.provider, coalesce(old.model, '')
        FROM conversations c WHERE c.id = old.conversation_id);
END;

CREATE TRIGGER analytics_usage_au_add AFTER UPDATE OF provider, model, prompt_tokens, completion_tokens, provider_ms ON messages
  WHEN new.provider IS NOT NULL AND new.provider != 'extractive'
    AND (old.provider IS NOT new.provider OR old.model IS NOT new.model OR old.prompt_tokens IS NOT new.prompt_tokens
      OR old.completion_tokens IS NOT new.completion_tokens OR old.provider_ms IS NOT new.provider_ms) BEGIN
  INSERT INTO analytics_hourly_usage (organization_id, hour, assistant_id, channel, provider, model, answers, prompt_tokens, completion_tokens,
      provider_ms_count, provider_ms_sum, provider_latency)
    SELECT c.organization_id, substr(new.created_at, 1, 13), c.assistant_id, c.channel_group, new.provider, coalesce(new.model, ''), 1,
      coalesce(new.prompt_tokens, 0), coalesce(new.completion_tokens, 0), new.provider_ms IS NOT NULL, coalesce(new.provider_ms, 0),
      CASE WHEN new.provider_ms IS NULL THEN '{}' ELSE json_object(CAST((CASE WHEN new.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(new.provider_ms) / ln(1.1)) AS INTEGER) END) AS TEXT), 1) END
    FROM conversations c WHERE c.id = new.conversation_id
    ON CONFLICT DO UPDATE SET answers = answers + 1, prompt_tokens = prompt_tokens + excluded.prompt_tokens,
      completion_tokens = completion_tokens + excluded.completion_tokens, provider_ms_count = provider_ms_count + excluded.provider_ms_count,
      provider_ms_sum = provider_ms_sum + excluded.provider_ms_sum,
      provider_latency = CASE WHEN new.provider_ms IS NULL THEN provider_latency ELSE (SELECT json_set(provider_latency, p, coalesce(json_extract(provider_latency, p), 0) + 1)
        FROM (SELECT '$."' || (CASE WHEN new.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(new.provider_ms) / ln(1.1)) AS INTEGER) END) || '"' AS p)) END;
  INSERT INTO analytics_daily_usage (organization_id, day, assistant_id, channel, provider, model, answers, prompt_tokens, completion_tokens,
      provider_ms_count, provider_ms_sum, provider_latency)
    SELECT c.organization_id, substr(new.created_at, 1, 10), c.assistant_id, c.channel_group, new.provider, coalesce(new.model, ''), 1,
      coalesce(new.prompt_tokens, 0), coalesce(new.completion_tokens, 0), new.provider_ms IS NOT NULL, coalesce(new.provider_ms, 0),
      CASE WHEN new.provider_ms IS NULL THEN '{}' ELSE json_object(CAST((CASE WHEN new.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(new.provider_ms) / ln(1.1)) AS INTEGER) END) AS TEXT), 1) END
    FROM conversations c WHERE c.id = new.conversation_id
    ON CONFLICT DO UPDATE SET answers = answers + 1, prompt_tokens = prompt_tokens + excluded.prompt_tokens,
      completion_tokens = completion_tokens + excluded.completion_tokens, provider_ms_count = provider_ms_count + excluded.provider_ms_count,
      provider_ms_sum = provider_ms_sum + excluded.provider_ms_sum,
      provider_latency = CASE WHEN new.provider_ms IS NULL THEN provider_latency ELSE (SELECT json_set(provider_latency, p, coalesce(json_extract(provider_latency, p), 0) + 1)
        FROM (SELECT '$."' || (CASE WHEN new.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(new.provider_ms) / ln(1.1)) AS INTEGER) END) || '"' AS p)) END;
END;

-- Backfill from the answers already stored.
INSERT INTO analytics_hourly_usage (organization_id, hour, assistant_id, channel, provider, model, answers, prompt_tokens, completion_tokens,
    provider_ms_count, provider_ms_sum)
  SELECT c.organization_id, substr(m.created_at, 1, 13), c.assistant_id, c.channel_group, m.provider, coalesce(m.model, ''), count(*),
    coalesce(sum(m.prompt_tokens), 0), coalesce(sum(m.completion_tokens), 0), count(m.provider_ms), coalesce(sum(m.provider_ms), 0)
  FROM messages m JOIN conversations c ON c.id = m.conversation_id
  WHERE m.provider IS NOT NULL AND m.provider != 'extractive' GROUP BY 1, 2, 3, 4, 5, 6;

WITH lat AS (
  SELECT c.organization_id AS org, substr(m.created_at, 1, 13) AS k, c.assistant_id AS asst, c.channel_group AS ch, m.provider AS prov,
    coalesce(m.model, '') AS mdl, (CASE WHEN m.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(m.provider_ms) / ln(1.1)) AS INTEGER) END) AS b, count(*) AS n
  FROM messages m JOIN conversations c ON c.id = m.conversation_id
  WHERE m.provider IS NOT NULL AND m.provider != 'extractive' AND m.provider_ms IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7
), hist AS (SELECT org, k, asst, ch, prov, mdl, json_group_object(CAST(b AS TEXT), n) AS j FROM lat GROUP BY 1, 2, 3, 4, 5, 6)
UPDATE analytics_hourly_usage SET provider_latency = hist.j FROM hist
  WHERE analytics_hourly_usage.organization_id = hist.org AND analytics_hourly_usage.hour = hist.k AND analytics_hourly_usage.assistant_id = hist.asst
    AND analytics_hourly_usage.channel = hist.ch AND analytics_hourly_usage.provider = hist.prov AND analytics_hourly_usage.model = hist.mdl;

INSERT INTO analytics_daily_usage (organization_id, day, assistant_id, channel, provider, model, answers, prompt_tokens, completion_tokens,
    provider_ms_count, provider_ms_sum)
  SELECT c.organization_id, substr(m.created_at, 1, 10), c.assistant_id, c.channel_group, m.provider, coalesce(m.model, ''), count(*),
    coalesce(sum(m.prompt_tokens), 0), coalesce(sum(m.completion_tokens), 0), count(m.provider_ms), coalesce(sum(m.provider_ms), 0)
  FROM messages m JOIN conversations c ON c.id = m.conversation_id
  WHERE m.provider IS NOT NULL AND m.provider != 'extractive' GROUP BY 1, 2, 3, 4, 5, 6;

WITH lat AS (
  SELECT c.organization_id AS org, substr(m.created_at, 1, 10) AS k, c.assistant_id AS asst, c.channel_group AS ch, m.provider AS prov,
    coalesce(m.model, '') AS mdl, (CASE WHEN m.provider_ms < 1 THEN 0 ELSE 1 + CAST(floor(ln(m.provider_ms) / ln(1.1)) AS INTEGER) END) AS b, count(*) AS n
  FROM messages m JOIN conversations c ON c.id = m.conversation_id
  WHERE m.provider IS NOT NULL AND m.provider != 'extractive' AND m.provider_ms IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7
), hist AS (SELECT org, k, asst, ch, prov, mdl, json_group_object(CAST(b AS TEXT), n) AS j FROM lat GROUP BY 1, 2, 3, 4, 5, 6)
UPDATE analytics_daily_usage SET provider_latency = hist.j FROM hist
  WHERE analytics_daily_usage.organization_id = hist.org AND analytics_daily_usage.day = hist.k AND analytics_daily_usage.assistant_id = hist.asst
    AND analytics_daily_usage.channel = hist.ch AND analytics_daily_usage.provider = hist.prov AND analytics_daily_usage.model = hist.mdl;
