-- Parley schema on PostgreSQL: the SQLite schema after every migration in
-- server/src/db/migrations/ up to 024, translated (storage/schema-match.test.ts keeps them equal).
-- TEXT → text, INTEGER → bigint, REAL → double precision, BLOB → bytea; an INTEGER PRIMARY KEY
-- whose value SQLite generates (a rowid) → bigint identity. Same table, column, index and
-- constraint names. Timestamps stay ISO 8601 text and JSON stays text, as on SQLite, so the same
-- SQL and the same parsing serve both.
--
-- Not translated, by design:
-- * the FTS5 table chunks_fts (and its trigger chunks_ad): full text on PostgreSQL is chunks.tsv,
--   a generated tsvector with a GIN index (ranked by ts_rank, which is not BM25);
-- * the triggers chunks_ad_embeddings / chunks_au_embeddings (vector garbage for sqlite-vec):
--   dense vectors on PostgreSQL are a separate backend (pgvector) and keep their own bookkeeping;
-- * the analytics rollup triggers: dropped by SQLite migration 024, the code writes the rollups.

-- Every text column is COLLATE "C": byte order, as SQLite's BINARY, whatever locale the cluster
-- was created with (ids start with base62 time characters, so ORDER BY id is creation order only
-- in byte order; an en_US collation would also sort 'a' with 'A').
-- users.email and invitations.email are COLLATE NOCASE on SQLite: case-insensitive equality and
-- uniqueness, ASCII letters only. citext under "C" gives the same (a trusted extension since 13).
CREATE EXTENSION IF NOT EXISTS citext;

CREATE TABLE organizations (
  id          text COLLATE "C" PRIMARY KEY,
  name        text COLLATE "C" NOT NULL,
  plan        text COLLATE "C" NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'pro', 'enterprise')),
  created_at  text COLLATE "C" NOT NULL
);

CREATE TABLE users (
  id             text COLLATE "C" PRIMARY KEY,
  email          citext COLLATE "C" NOT NULL UNIQUE,
  name           text COLLATE "C",
  password_hash  text COLLATE "C" NOT NULL,
  created_at     text COLLATE "C" NOT NULL
);

CREATE TABLE memberships (
  user_id          text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  role             text COLLATE "C" NOT NULL DEFAULT 'owner',
  created_at       text COLLATE "C" NOT NULL,
  PRIMARY KEY (user_id, organization_id)
);
CREATE INDEX memberships_org ON memberships (organization_id, created_at);

CREATE TABLE user_sessions (
  id               text COLLATE "C" PRIMARY KEY,
  token_hash       text COLLATE "C" NOT NULL UNIQUE,
  user_id          text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  created_at       text COLLATE "C" NOT NULL,
  expires_at       text COLLATE "C" NOT NULL,
  revoked_at       text COLLATE "C"
);
CREATE INDEX user_sessions_user ON user_sessions (user_id, organization_id);

CREATE TABLE assistants (
  id               text COLLATE "C" PRIMARY KEY,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  type             text COLLATE "C" NOT NULL,
  name             text COLLATE "C" NOT NULL,
  config           text COLLATE "C" NOT NULL, -- JSON
  created_at       text COLLATE "C" NOT NULL,
  updated_at       text COLLATE "C" NOT NULL
);
CREATE INDEX assistants_org ON assistants (organization_id, created_at);

CREATE TABLE api_keys (
  id                  text COLLATE "C" PRIMARY KEY,
  organization_id     text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name                text COLLATE "C" NOT NULL,
  key_hash            text COLLATE "C" NOT NULL UNIQUE,
  last4               text COLLATE "C" NOT NULL,
  permissions         text COLLATE "C" NOT NULL, -- JSON array
  assistant_id        text COLLATE "C" REFERENCES assistants(id) ON DELETE CASCADE,
  allowed_ips         text COLLATE "C" NOT NULL DEFAULT '[]', -- JSON array
  rate_per_minute     bigint,
  rate_per_day        bigint,
  created_at          text COLLATE "C" NOT NULL,
  expires_at          text COLLATE "C",
  last_used_at        text COLLATE "C",
  revoked_at          text COLLATE "C",
  rotated_to          text COLLATE "C"
);
CREATE INDEX api_keys_org ON api_keys (organization_id, created_at);

CREATE TABLE knowledge_bases (
  id               text COLLATE "C" PRIMARY KEY,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name             text COLLATE "C" NOT NULL,
  description      text COLLATE "C",
  created_at       text COLLATE "C" NOT NULL,
  updated_at       text COLLATE "C" NOT NULL
);
CREATE INDEX knowledge_bases_org ON knowledge_bases (organization_id, created_at);

CREATE TABLE assistant_knowledge_bases (
  assistant_id       text COLLATE "C" NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  knowledge_base_id  text COLLATE "C" NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
  priority           bigint NOT NULL DEFAULT 5,
  position           bigint NOT NULL,
  PRIMARY KEY (assistant_id, knowledge_base_id)
);
CREATE INDEX assistant_kbs_kb ON assistant_knowledge_bases (knowledge_base_id);

CREATE TABLE documents (
  id                 text COLLATE "C" PRIMARY KEY,
  knowledge_base_id  text COLLATE "C" NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
  title              text COLLATE "C" NOT NULL,
  url                text COLLATE "C",
  format             text COLLATE "C" NOT NULL,
  status             text COLLATE "C" NOT NULL DEFAULT 'ready',
  error              text COLLATE "C",
  chunk_count        bigint NOT NULL DEFAULT 0,
  bytes              bigint NOT NULL DEFAULT 0,
  created_at         text COLLATE "C" NOT NULL,
  updated_at         text COLLATE "C" NOT NULL,
  source             text COLLATE "C" NOT NULL DEFAULT 'inline', -- inline | file | url | crawl
  source_options     text COLLATE "C", -- JSON
  progress           text COLLATE "C", -- JSON
  synced_at          text COLLATE "C"
);
CREATE INDEX documents_kb ON documents (knowledge_base_id, created_at);
CREATE INDEX documents_url ON documents (knowledge_base_id, url);

CREATE TABLE chunks (
  id                 bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  document_id        text COLLATE "C" NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  knowledge_base_id  text COLLATE "C" NOT NULL,
  ordinal            bigint NOT NULL,
  title              text COLLATE "C" NOT NULL,
  headings           text COLLATE "C" NOT NULL,
  body               text COLLATE "C" NOT NULL,
  anchor             text COLLATE "C",
  url                text COLLATE "C",
  page               bigint,
  -- PostgreSQL only (SQLite has chunks_fts): the searchable text, title weighted above headings
  -- above body, stemmed by the 'english' configuration (Porter, like FTS5's tokenizer; no
  -- diacritics folding). Ranked with ts_rank: not BM25, so scores differ from the SQLite ones.
  tsv                tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', title), 'A') ||
    setweight(to_tsvector('english', headings), 'B') ||
    to_tsvector('english', body)) STORED
);
CREATE INDEX chunks_document ON chunks (document_id, ordinal);
CREATE INDEX chunks_kb ON chunks (knowledge_base_id);
CREATE INDEX chunks_tsv ON chunks USING gin (tsv);

CREATE TABLE conversations (
  id               text COLLATE "C" PRIMARY KEY,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  assistant_id     text COLLATE "C" NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  session_id       text COLLATE "C" NOT NULL,
  channel          text COLLATE "C" NOT NULL, -- api | app | widget
  user_id          text COLLATE "C",
  source           text COLLATE "C",
  metadata         text COLLATE "C" NOT NULL DEFAULT '{}',
  status           text COLLATE "C" NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'ended')),
  handoff_requested_at text COLLATE "C",
  started_at       text COLLATE "C" NOT NULL,
  last_message_at  text COLLATE "C" NOT NULL,
  ended_at         text COLLATE "C",
  -- VIRTUAL on SQLite; PostgreSQL before 18 has only STORED generated columns.
  channel_group    text COLLATE "C" GENERATED ALWAYS AS (
    CASE WHEN lower(source) IN ('discord', 'slack', 'teams', 'playground') THEN lower(source)
         WHEN channel = 'widget' THEN 'widget' ELSE 'api' END) STORED,
  UNIQUE (organization_id, session_id)
);
CREATE INDEX conversations_org_started ON conversations (organization_id, started_at);
CREATE INDEX conversations_active ON conversations (status, last_message_at);
CREATE INDEX conversations_handoff ON conversations (organization_id, handoff_requested_at) WHERE handoff_requested_at IS NOT NULL;

CREATE TABLE messages (
  id               text COLLATE "C" PRIMARY KEY,
  seq              bigint NOT NULL UNIQUE,
  conversation_id  text COLLATE "C" NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  role             text COLLATE "C" NOT NULL CHECK (role IN ('user', 'assistant', 'human_agent')),
  content          text COLLATE "C" NOT NULL,
  metadata         text COLLATE "C",
  confidence       double precision,
  answered         bigint,
  response_ms      double precision,
  rating           text COLLATE "C" CHECK (rating IN ('up', 'down')),
  rating_comment   text COLLATE "C",
  created_at       text COLLATE "C" NOT NULL,
  provider         text COLLATE "C",
  model            text COLLATE "C",
  prompt_tokens    bigint,
  completion_tokens bigint,
  provider_ms      double precision
);
CREATE INDEX messages_conversation ON messages (conversation_id, seq);

CREATE TABLE knowledge_gaps (
  id               text COLLATE "C" PRIMARY KEY,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  assistant_id     text COLLATE "C" NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  group_key        text COLLATE "C" NOT NULL,
  question         text COLLATE "C" NOT NULL,
  count            bigint NOT NULL DEFAULT 1,
  best_confidence  double precision NOT NULL,
  first_asked_at   text COLLATE "C" NOT NULL,
  last_asked_at    text COLLATE "C" NOT NULL,
  cause            text COLLATE "C" NOT NULL DEFAULT 'low_confidence' CHECK (cause IN ('no_passages', 'low_confidence', 'declined', 'rated_down')),
  status           text COLLATE "C" NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
  status_reason    text COLLATE "C",
  status_at        text COLLATE "C",
  resolution       text COLLATE "C", -- JSON
  UNIQUE (assistant_id, group_key)
);
CREATE INDEX knowledge_gaps_org ON knowledge_gaps (organization_id, count);
CREATE INDEX knowledge_gaps_recent ON knowledge_gaps (assistant_id, last_asked_at);
CREATE INDEX knowledge_gaps_key ON knowledge_gaps (assistant_id, group_key);
CREATE INDEX knowledge_gaps_status ON knowledge_gaps (organization_id, status, count);

CREATE TABLE knowledge_gap_questions (
  id          bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  gap_id      text COLLATE "C" NOT NULL REFERENCES knowledge_gaps(id) ON DELETE CASCADE,
  question    text COLLATE "C" NOT NULL,
  cause       text COLLATE "C" NOT NULL,
  confidence  double precision,
  message_id  text COLLATE "C",
  asked_at    text COLLATE "C" NOT NULL
);
CREATE INDEX knowledge_gap_questions_gap ON knowledge_gap_questions (gap_id, asked_at);
CREATE INDEX knowledge_gap_questions_message ON knowledge_gap_questions (message_id);

CREATE TABLE settings (
  key    text COLLATE "C" PRIMARY KEY,
  value  text COLLATE "C" NOT NULL
);

CREATE TABLE webhook_endpoints (
  id               text COLLATE "C" PRIMARY KEY,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  assistant_id     text COLLATE "C" REFERENCES assistants(id) ON DELETE CASCADE,
  url              text COLLATE "C" NOT NULL,
  description      text COLLATE "C",
  events           text COLLATE "C" NOT NULL, -- JSON array
  secret           text COLLATE "C" NOT NULL,
  enabled          bigint NOT NULL DEFAULT 1,
  disabled_reason  text COLLATE "C" CHECK (disabled_reason IN ('manual', 'gone', 'failing')),
  disabled_at      text COLLATE "C",
  failing_since    text COLLATE "C",
  created_at       text COLLATE "C" NOT NULL,
  updated_at       text COLLATE "C" NOT NULL
);
CREATE INDEX webhook_endpoints_org ON webhook_endpoints (organization_id, created_at);

CREATE TABLE webhook_events (
  seq              bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  id               text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  assistant_ids    text COLLATE "C", -- JSON array
  endpoint_id      text COLLATE "C",
  type             text COLLATE "C" NOT NULL,
  payload          text COLLATE "C" NOT NULL,
  created_at       text COLLATE "C" NOT NULL
);

CREATE TABLE webhook_fanout (
  id        bigint PRIMARY KEY CHECK (id = 1),
  last_seq  bigint NOT NULL
);
INSERT INTO webhook_fanout (id, last_seq) VALUES (1, 0);

CREATE TABLE webhook_deliveries (
  id               bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  endpoint_id      text COLLATE "C" NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_seq        bigint NOT NULL REFERENCES webhook_events(seq) ON DELETE CASCADE,
  status           text COLLATE "C" NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         bigint NOT NULL DEFAULT 0,
  next_attempt_at  bigint NOT NULL, -- epoch ms
  finished_at      text COLLATE "C"
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_seq);

CREATE TABLE webhook_attempts (
  id               bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  endpoint_id      text COLLATE "C" NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  delivery_id      bigint NOT NULL,
  webhook_id       text COLLATE "C" NOT NULL,
  event_type       text COLLATE "C" NOT NULL,
  attempt          bigint NOT NULL,
  attempted_at     text COLLATE "C" NOT NULL,
  succeeded        bigint NOT NULL,
  response_code    bigint,
  latency_ms       double precision NOT NULL,
  error            text COLLATE "C",
  next_retry_at    text COLLATE "C"
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, id);

-- Keys are chunk ids written by the code, never generated: plain bigint, not identity.
CREATE TABLE chunk_embeddings (
  chunk_id  bigint PRIMARY KEY
);
CREATE TABLE chunk_vector_garbage (
  chunk_id  bigint PRIMARY KEY
);

CREATE TABLE ingest_jobs (
  id           text COLLATE "C" PRIMARY KEY,
  document_id  text COLLATE "C" NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  kind         text COLLATE "C" NOT NULL CHECK (kind IN ('fetch', 'crawl')),
  status       text COLLATE "C" NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'processing', 'done', 'failed')),
  attempts     bigint NOT NULL DEFAULT 0,
  run_after    bigint NOT NULL, -- epoch ms
  error        text COLLATE "C",
  created_at   text COLLATE "C" NOT NULL,
  updated_at   text COLLATE "C" NOT NULL,
  finished_at  text COLLATE "C"
);
CREATE UNIQUE INDEX ingest_jobs_live ON ingest_jobs (document_id) WHERE status IN ('queued', 'processing');
CREATE INDEX ingest_jobs_due ON ingest_jobs (status, run_after);
CREATE INDEX ingest_jobs_document ON ingest_jobs (document_id);

CREATE TABLE invitations (
  id               text COLLATE "C" PRIMARY KEY,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  token_hash       text COLLATE "C" NOT NULL UNIQUE,
  role             text COLLATE "C" NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
  email            citext COLLATE "C", -- COLLATE NOCASE on SQLite
  invited_by       text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at       text COLLATE "C" NOT NULL,
  expires_at       text COLLATE "C" NOT NULL,
  accepted_at      text COLLATE "C",
  accepted_by      text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  revoked_at       text COLLATE "C"
);
CREATE INDEX invitations_org ON invitations (organization_id, created_at);

CREATE TABLE assets (
  id               text COLLATE "C" PRIMARY KEY,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  content_type     text COLLATE "C" NOT NULL,
  bytes            bigint NOT NULL,
  sha256           text COLLATE "C" NOT NULL,
  data             bytea NOT NULL,
  created_at       text COLLATE "C" NOT NULL
);
CREATE INDEX assets_org ON assets (organization_id, created_at);

CREATE TABLE analytics_hourly (
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  hour             text COLLATE "C" NOT NULL,
  assistant_id     text COLLATE "C" NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  channel          text COLLATE "C" NOT NULL,
  conversations    bigint NOT NULL DEFAULT 0,
  messages         bigint NOT NULL DEFAULT 0,
  answered         bigint NOT NULL DEFAULT 0,
  unanswered       bigint NOT NULL DEFAULT 0,
  up               bigint NOT NULL DEFAULT 0,
  down             bigint NOT NULL DEFAULT 0,
  handoffs         bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, hour, assistant_id, channel)
);
CREATE INDEX analytics_hourly_assistant ON analytics_hourly (assistant_id);

CREATE TABLE message_citations (
  message_id   text COLLATE "C" NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  document_id  text COLLATE "C" NOT NULL,
  PRIMARY KEY (message_id, document_id)
);
CREATE INDEX message_citations_document ON message_citations (document_id);

CREATE TABLE assistant_audit (
  id               text COLLATE "C" PRIMARY KEY,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  assistant_id     text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C",
  api_key_id       text COLLATE "C",
  action           text COLLATE "C" NOT NULL CHECK (action IN ('created', 'updated', 'deleted')),
  fields           text COLLATE "C" NOT NULL DEFAULT '[]', -- JSON array
  created_at       text COLLATE "C" NOT NULL
);
CREATE INDEX assistant_audit_org ON assistant_audit (organization_id, created_at);
CREATE INDEX assistant_audit_assistant ON assistant_audit (assistant_id, created_at);

CREATE TABLE corrections (
  id                 text COLLATE "C" PRIMARY KEY,
  organization_id    text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  assistant_id       text COLLATE "C" NOT NULL,
  session_id         text COLLATE "C" NOT NULL,
  message_id         text COLLATE "C" NOT NULL,
  question           text COLLATE "C" NOT NULL,
  answer             text COLLATE "C" NOT NULL,
  template_id        text COLLATE "C",
  knowledge_base_id  text COLLATE "C",
  document_id        text COLLATE "C",
  user_id            text COLLATE "C",
  api_key_id         text COLLATE "C",
  created_at         text COLLATE "C" NOT NULL
);
CREATE INDEX corrections_org ON corrections (organization_id, created_at);
CREATE INDEX corrections_message ON corrections (message_id);

CREATE TABLE analytics_hourly_usage (
  organization_id    text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  hour               text COLLATE "C" NOT NULL,
  assistant_id       text COLLATE "C" NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  channel            text COLLATE "C" NOT NULL,
  provider           text COLLATE "C" NOT NULL,
  model              text COLLATE "C" NOT NULL,
  answers            bigint NOT NULL DEFAULT 0,
  prompt_tokens      bigint NOT NULL DEFAULT 0,
  completion_tokens  bigint NOT NULL DEFAULT 0,
  provider_ms_count  bigint NOT NULL DEFAULT 0,
  provider_ms_sum    double precision NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, hour, assistant_id, channel, provider, model)
);
CREATE INDEX analytics_hourly_usage_assistant ON analytics_hourly_usage (assistant_id);

CREATE TABLE analytics_daily_usage (
  organization_id    text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  day                text COLLATE "C" NOT NULL,
  assistant_id       text COLLATE "C" NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  channel            text COLLATE "C" NOT NULL,
  provider           text COLLATE "C" NOT NULL,
  model              text COLLATE "C" NOT NULL,
  answers            bigint NOT NULL DEFAULT 0,
  prompt_tokens      bigint NOT NULL DEFAULT 0,
  completion_tokens  bigint NOT NULL DEFAULT 0,
  provider_ms_count  bigint NOT NULL DEFAULT 0,
  provider_ms_sum    double precision NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, day, assistant_id, channel, provider, model)
);
CREATE INDEX analytics_daily_usage_assistant ON analytics_daily_usage (assistant_id);

CREATE TABLE export_links (
  id               text COLLATE "C" PRIMARY KEY,
  token_hash       text COLLATE "C" NOT NULL UNIQUE,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id          text COLLATE "C" REFERENCES users(id) ON DELETE CASCADE,
  api_key_id       text COLLATE "C" REFERENCES api_keys(id) ON DELETE CASCADE,
  format           text COLLATE "C" NOT NULL CHECK (format IN ('csv', 'jsonl')),
  filter           text COLLATE "C" NOT NULL, -- JSON
  created_at       text COLLATE "C" NOT NULL,
  expires_at       text COLLATE "C" NOT NULL,
  used_at          text COLLATE "C"
);
CREATE INDEX export_links_expires ON export_links (expires_at);

CREATE TABLE analytics_latency_hourly (
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  metric           text COLLATE "C" NOT NULL,
  hour             text COLLATE "C" NOT NULL,
  assistant_id     text COLLATE "C" NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  channel          text COLLATE "C" NOT NULL,
  bucket           bigint NOT NULL,
  count            bigint NOT NULL,
  PRIMARY KEY (organization_id, metric, hour, assistant_id, channel, bucket)
);
CREATE INDEX analytics_latency_hourly_assistant ON analytics_latency_hourly (assistant_id);

CREATE TABLE analytics_latency_daily (
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  metric           text COLLATE "C" NOT NULL,
  day              text COLLATE "C" NOT NULL,
  assistant_id     text COLLATE "C" NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  channel          text COLLATE "C" NOT NULL,
  bucket           bigint NOT NULL,
  count            bigint NOT NULL,
  PRIMARY KEY (organization_id, metric, day, assistant_id, channel, bucket)
);
CREATE INDEX analytics_latency_daily_assistant ON analytics_latency_daily (assistant_id);
