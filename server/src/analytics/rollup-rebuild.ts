import type { Storage } from '../storage/port.js';

/**
 * Recomputes every counted analytics rollup from the stored conversations and messages, on
 * SQLite or PostgreSQL: for bulk loads that wrote rows directly (benches, imports, a copy between
 * databases) and for tests comparing the incremental writes (rollup-writes.ts) with a
 * recomputation. The same definition as SQLite migration 024's backfill, in SQL both dialects run
 * (CASE instead of `IS 1`/`IS 'up'`, no temporary table); the rollup tests hold the two to the
 * incremental writes. message_citations is left as it is: it holds the documents cited, not a
 * count.
 *
 * One transaction that commits alone: readers see the old rollups or the new, never empty ones.
 */
export async function rebuildRollups(storage: Storage): Promise<void> {
  await storage.tx(
    async (tx) => {
      for (const table of ROLLUP_TABLES) await tx.run(`DELETE FROM ${table}`);
      for (const sql of REBUILD) await tx.run(sql);
    },
    { groupCommit: false },
  );
}

const ROLLUP_TABLES = [
  'analytics_hourly',
  'analytics_hourly_usage',
  'analytics_daily_usage',
  'analytics_latency_hourly',
  'analytics_latency_daily',
] as const;

/** Histogram bucket of a time column, as latencyBucket (rollup-writes.ts) computes it. */
const bucketOf = (col: string) => `CASE WHEN ${col} < 1 THEN 0 ELSE 1 + CAST(floor(ln(${col}) / ln(1.1)) AS INTEGER) END`;

const usage = (
  table: string,
  key: string,
  length: number,
) => `INSERT INTO ${table} (organization_id, ${key}, assistant_id, channel, provider, model,
    answers, prompt_tokens, completion_tokens, provider_ms_count, provider_ms_sum)
  SELECT c.organization_id, substr(m.created_at, 1, ${length}), c.assistant_id, c.channel_group, m.provider, coalesce(m.model, ''), count(*),
    coalesce(sum(m.prompt_tokens), 0), coalesce(sum(m.completion_tokens), 0), count(m.provider_ms), coalesce(sum(m.provider_ms), 0)
  FROM messages m JOIN conversations c ON c.id = m.conversation_id
  WHERE m.provider IS NOT NULL AND m.provider <> 'extractive'
  GROUP BY c.organization_id, substr(m.created_at, 1, ${length}), c.assistant_id, c.channel_group, m.provider, coalesce(m.model, '')`;

/** One row per timed message (response time, and provider time of a model answer): the hour or day is cut from `at`. */
const LATENCY_ROWS = `SELECT c.organization_id AS org, 'response' AS metric, m.created_at AS at, c.assistant_id AS asst, c.channel_group AS ch,
    ${bucketOf('m.response_ms')} AS bucket
  FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.response_ms IS NOT NULL
  UNION ALL
  SELECT c.organization_id, 'provider', m.created_at, c.assistant_id, c.channel_group, ${bucketOf('m.provider_ms')}
  FROM messages m JOIN conversations c ON c.id = m.conversation_id
  WHERE m.provider IS NOT NULL AND m.provider <> 'extractive' AND m.provider_ms IS NOT NULL`;

const latency = (
  table: string,
  key: string,
  length: number,
) => `INSERT INTO ${table} (organization_id, metric, ${key}, assistant_id, channel, bucket, count)
  SELECT org, metric, substr(at, 1, ${length}), asst, ch, bucket, count(*) FROM (${LATENCY_ROWS}) AS t
  GROUP BY org, metric, substr(at, 1, ${length}), asst, ch, bucket`;

const REBUILD = [
  `INSERT INTO analytics_hourly (organization_id, hour, assistant_id, channel, conversations, messages, answered, unanswered, up, down, handoffs)
  SELECT org, hour, asst, ch, sum(conv), sum(msg), sum(ans), sum(unans), sum(up), sum(down), sum(hand) FROM (
    SELECT organization_id AS org, substr(started_at, 1, 13) AS hour, assistant_id AS asst, channel_group AS ch,
      1 AS conv, 0 AS msg, 0 AS ans, 0 AS unans, 0 AS up, 0 AS down, 0 AS hand FROM conversations
    UNION ALL
    SELECT c.organization_id, substr(m.created_at, 1, 13), c.assistant_id, c.channel_group, 0, 1,
      CASE WHEN m.answered = 1 THEN 1 ELSE 0 END, CASE WHEN m.answered = 0 THEN 1 ELSE 0 END,
      CASE WHEN m.rating = 'up' THEN 1 ELSE 0 END, CASE WHEN m.rating = 'down' THEN 1 ELSE 0 END, 0
    FROM messages m JOIN conversations c ON c.id = m.conversation_id
    UNION ALL
    SELECT organization_id, substr(handoff_requested_at, 1, 13), assistant_id, channel_group, 0, 0, 0, 0, 0, 0, 1
    FROM conversations WHERE handoff_requested_at IS NOT NULL
  ) AS t GROUP BY org, hour, asst, ch`,
  usage('analytics_hourly_usage', 'hour', 13),
  usage('analytics_daily_usage', 'day', 10),
  latency('analytics_latency_hourly', 'hour', 13),
  latency('analytics_latency_daily', 'day', 10),
];
