-- Who changed an assistant, when, and which top-level configuration fields: written in the
-- transaction of the change. No foreign key to assistants: the log outlives a deleted assistant.
CREATE TABLE assistant_audit (
  id               TEXT PRIMARY KEY,
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  assistant_id     TEXT NOT NULL,
  user_id          TEXT,
  api_key_id       TEXT,
  action           TEXT NOT NULL CHECK (action IN ('created', 'updated', 'deleted')),
  fields           TEXT NOT NULL DEFAULT '[]', -- JSON array of top-level config keys
  created_at       TEXT NOT NULL
);
CREATE INDEX assistant_audit_org ON assistant_audit (organization_id, created_at);
CREATE INDEX assistant_audit_assistant ON assistant_audit (assistant_id, created_at);
