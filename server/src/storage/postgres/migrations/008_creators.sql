-- Twin of SQLite migration 029 (issue 24): the creator of each API key and webhook endpoint
-- (null for rows from before: "unknown"), and the organization's log of member removals.
ALTER TABLE api_keys ADD COLUMN created_by text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE webhook_endpoints ADD COLUMN created_by text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL;
CREATE INDEX api_keys_creator ON api_keys (organization_id, created_by);
CREATE INDEX webhook_endpoints_creator ON webhook_endpoints (organization_id, created_by);
CREATE INDEX invitations_inviter ON invitations (organization_id, invited_by);

CREATE TABLE member_audit (
  id               text COLLATE "C" PRIMARY KEY,
  organization_id  text COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  actor_user_id    text COLLATE "C",
  actor_api_key_id text COLLATE "C",
  action           text COLLATE "C" NOT NULL CHECK (action IN ('member_removed', 'member_left')),
  subject_user_id  text COLLATE "C" NOT NULL,
  subject_email    text COLLATE "C",
  details          text COLLATE "C" NOT NULL DEFAULT '{}', -- JSON
  created_at       text COLLATE "C" NOT NULL
);
CREATE INDEX member_audit_org ON member_audit (organization_id, created_at);
