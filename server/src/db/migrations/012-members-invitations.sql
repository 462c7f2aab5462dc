-- Members and invitations (API.md §11). Roles live on memberships (owner | admin | editor | viewer);
-- an invitation is a link with a single-use token, stored as its SHA-256 only, valid 7 days.

CREATE TABLE invitations (
  id               TEXT PRIMARY KEY,
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  token_hash       TEXT NOT NULL UNIQUE,
  role             TEXT NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
  email            TEXT COLLATE NOCASE, -- when set, only this address may accept
  invited_by       TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at       TEXT NOT NULL,
  expires_at       TEXT NOT NULL,
  accepted_at      TEXT,
  accepted_by      TEXT REFERENCES users(id) ON DELETE SET NULL,
  revoked_at       TEXT
);
CREATE INDEX invitations_org ON invitations (organization_id, created_at);

-- Members of an organization, listed oldest first; sessions revoked per user.
CREATE INDEX memberships_org ON memberships (organization_id, created_at);
CREATE INDEX user_sessions_user ON user_sessions (user_id, organization_id);
