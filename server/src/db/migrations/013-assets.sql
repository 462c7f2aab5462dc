-- Uploaded images (assistant avatars), served publicly at /v1/assets/:id. Small (≤ 1 MiB) and
-- few, so the bytes live in the database with everything else (one backup, no file store).
CREATE TABLE assets (
  id               TEXT PRIMARY KEY,
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  content_type     TEXT NOT NULL,
  bytes            INTEGER NOT NULL,
  sha256           TEXT NOT NULL,
  data             BLOB NOT NULL,
  created_at       TEXT NOT NULL
);
CREATE INDEX assets_org ON assets (organization_id, created_at);
