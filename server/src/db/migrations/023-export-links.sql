-- One-time download links for the conversation export (dashboard): the browser navigates to the
-- link and streams the file to disk, with no cookie or header, so the token is the credential.
-- Stored as SHA-256 only; bound to the organization, the creating user (or API key) and the
-- filters; valid 60 s; `used_at` set by the conditional UPDATE that admits the one download.
CREATE TABLE export_links (
  id               TEXT PRIMARY KEY,
  token_hash       TEXT NOT NULL UNIQUE,
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id          TEXT REFERENCES users(id) ON DELETE CASCADE,
  api_key_id       TEXT REFERENCES api_keys(id) ON DELETE CASCADE,
  format           TEXT NOT NULL CHECK (format IN ('csv', 'jsonl')),
  filter           TEXT NOT NULL, -- the ConversationFilter as JSON (organization and bound assistant included)
  created_at       TEXT NOT NULL,
  expires_at       TEXT NOT NULL,
  used_at          TEXT
);
CREATE INDEX export_links_expires ON export_links (expires_at);
