-- Parley schema v1. Timestamps are ISO 8601 UTC strings (sortable); JSON columns hold
-- configuration whose shape is validated at the edge.

CREATE TABLE organizations (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  plan        TEXT NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'pro', 'enterprise')),
  created_at  TEXT NOT NULL
);

CREATE TABLE users (
  id             TEXT PRIMARY KEY,
  email          TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name           TEXT,
  password_hash  TEXT NOT NULL,
  created_at     TEXT NOT NULL
);

CREATE TABLE memberships (
  user_id          TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  role             TEXT NOT NULL DEFAULT 'owner',
  created_at       TEXT NOT NULL,
  PRIMARY KEY (user_id, organization_id)
);

CREATE TABLE user_sessions (
  id               TEXT PRIMARY KEY,
  token_hash       TEXT NOT NULL UNIQUE,
  user_id          TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  created_at       TEXT NOT NULL,
  expires_at       TEXT NOT NULL,
  revoked_at       TEXT
);

CREATE TABLE assistants (
  id               TEXT PRIMARY KEY,
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  type             TEXT NOT NULL,
  name             TEXT NOT NULL,
  config           TEXT NOT NULL, -- JSON: every configurable field but knowledgeBases
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
);
CREATE INDEX assistants_org ON assistants (organization_id, created_at);

CREATE TABLE api_keys (
  id                  TEXT PRIMARY KEY,
  organization_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name                TEXT NOT NULL,
  key_hash            TEXT NOT NULL UNIQUE,
  last4               TEXT NOT NULL,
  permissions         TEXT NOT NULL, -- JSON array
  assistant_id        TEXT REFERENCES assistants(id) ON DELETE CASCADE,
  allowed_ips         TEXT NOT NULL DEFAULT '[]', -- JSON array of addresses / CIDR blocks
  rate_per_minute     INTEGER,
  rate_per_day        INTEGER,
  created_at          TEXT NOT NULL,
  expires_at          TEXT,
  last_used_at        TEXT,
  revoked_at          TEXT,
  rotated_to          TEXT
);
CREATE INDEX api_keys_org ON api_keys (organization_id, created_at);

CREATE TABLE knowledge_bases (
  id               TEXT PRIMARY KEY,
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name             TEXT NOT NULL,
  description      TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
);
CREATE INDEX knowledge_bases_org ON knowledge_bases (organization_id, created_at);

CREATE TABLE assistant_knowledge_bases (
  assistant_id       TEXT NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  knowledge_base_id  TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
  priority           INTEGER NOT NULL DEFAULT 5,
  position           INTEGER NOT NULL,
  PRIMARY KEY (assistant_id, knowledge_base_id)
);
CREATE INDEX assistant_kbs_kb ON assistant_knowledge_bases (knowledge_base_id);

CREATE TABLE documents (
  id                 TEXT PRIMARY KEY,
  knowledge_base_id  TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
  title              TEXT NOT NULL,
  url                TEXT,
  format             TEXT NOT NULL,
  status             TEXT NOT NULL DEFAULT 'ready',
  error              TEXT,
  chunk_count        INTEGER NOT NULL DEFAULT 0,
  bytes              INTEGER NOT NULL DEFAULT 0,
  created_at         TEXT NOT NULL,
  updated_at         TEXT NOT NULL
);
CREATE INDEX documents_kb ON documents (knowledge_base_id, created_at);
CREATE INDEX documents_url ON documents (knowledge_base_id, url);

-- Chunks carry their own copy of the searchable fields so that the FTS index can be an
-- external-content table over them (one copy of the text, not two).
CREATE TABLE chunks (
  id                 INTEGER PRIMARY KEY,
  document_id        TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  knowledge_base_id  TEXT NOT NULL,
  ordinal            INTEGER NOT NULL,
  title              TEXT NOT NULL,
  headings           TEXT NOT NULL,
  body               TEXT NOT NULL,
  anchor             TEXT
);
CREATE INDEX chunks_document ON chunks (document_id, ordinal);
CREATE INDEX chunks_kb ON chunks (knowledge_base_id);

CREATE VIRTUAL TABLE chunks_fts USING fts5(
  title, headings, body,
  content = 'chunks', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts (rowid, title, headings, body) VALUES (new.id, new.title, new.headings, new.body);
END;
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, title, headings, body) VALUES ('delete', old.id, old.title, old.headings, old.body);
END;

CREATE TABLE conversations (
  id               TEXT PRIMARY KEY,
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  assistant_id     TEXT NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  session_id       TEXT NOT NULL,
  channel          TEXT NOT NULL, -- api | app | widget
  user_id          TEXT,
  source           TEXT,
  metadata         TEXT NOT NULL DEFAULT '{}',
  status           TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'ended')),
  handoff_requested_at TEXT,
  started_at       TEXT NOT NULL,
  last_message_at  TEXT NOT NULL,
  ended_at         TEXT,
  UNIQUE (organization_id, session_id)
);
CREATE INDEX conversations_org_started ON conversations (organization_id, started_at);
CREATE INDEX conversations_active ON conversations (status, last_message_at);

CREATE TABLE messages (
  id               TEXT PRIMARY KEY,
  seq              INTEGER NOT NULL UNIQUE, -- insertion order, for stable oldest-first listings
  conversation_id  TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  role             TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'human_agent')),
  content          TEXT NOT NULL,
  metadata         TEXT,
  confidence       REAL,
  answered         INTEGER, -- assistant messages: 1 when at/above the threshold, 0 for a fallback
  response_ms      REAL,
  rating           TEXT CHECK (rating IN ('up', 'down')),
  rating_comment   TEXT,
  created_at       TEXT NOT NULL
);
CREATE INDEX messages_conversation ON messages (conversation_id, seq);

CREATE TABLE knowledge_gaps (
  id               TEXT PRIMARY KEY,
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  assistant_id     TEXT NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  group_key        TEXT NOT NULL,
  question         TEXT NOT NULL,
  count            INTEGER NOT NULL DEFAULT 1,
  best_confidence  REAL NOT NULL,
  first_asked_at   TEXT NOT NULL,
  last_asked_at    TEXT NOT NULL,
  UNIQUE (assistant_id, group_key)
);
CREATE INDEX knowledge_gaps_org ON knowledge_gaps (organization_id, count);
CREATE INDEX knowledge_gaps_recent ON knowledge_gaps (assistant_id, last_asked_at);

-- Small server-wide facts, such as which assistant the demo page embeds.
CREATE TABLE settings (
  key    TEXT PRIMARY KEY,
  value  TEXT NOT NULL
);
