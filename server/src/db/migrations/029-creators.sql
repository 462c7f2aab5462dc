-- Who created each API key and webhook endpoint (issue 24): removing a member revokes their
-- keys (or transfers them to the remover), disables their webhooks (or transfers them). A key
-- minted by a key inherits that key's creator, so a chain of keys leads back to one person.
-- Rows from before this migration have no creator (null: "unknown"). The user row outlives
-- the membership; SET NULL only when the user itself is deleted.
ALTER TABLE api_keys ADD COLUMN created_by TEXT REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE webhook_endpoints ADD COLUMN created_by TEXT REFERENCES users(id) ON DELETE SET NULL;
CREATE INDEX api_keys_creator ON api_keys (organization_id, created_by);
CREATE INDEX webhook_endpoints_creator ON webhook_endpoints (organization_id, created_by);
CREATE INDEX invitations_inviter ON invitations (organization_id, invited_by);

-- The organization's log of member removals: who removed whom, and what became of what the
-- member had created (details: JSON {keys, webhooks, invitations}, each [{id, name, outcome}]).
CREATE TABLE member_audit (
  id               TEXT PRIMARY KEY,
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  actor_user_id    TEXT,
  actor_api_key_id TEXT,
  action           TEXT NOT NULL CHECK (action IN ('member_removed', 'member_left')),
  subject_user_id  TEXT NOT NULL,
  subject_email    TEXT,
  details          TEXT NOT NULL DEFAULT '{}',
  created_at       TEXT NOT NULL
);
CREATE INDEX member_audit_org ON member_audit (organization_id, created_at);
