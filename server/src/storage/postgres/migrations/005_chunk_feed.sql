-- PostgreSQL only (knowledge/change-feed.ts): how every instance's in-memory index follows the
-- chunks written through the others. New chunks are read by a cursor on (xact_id, id) below
-- pg_snapshot_xmin(pg_current_snapshot()), as the webhook fan-out does (002): chunk ids are taken
-- at insert, not at commit, so `id > last` would skip a chunk whose transaction commits after a
-- later id was read. Existing chunks get this migration's transaction id (behind every cursor
-- that starts later).
ALTER TABLE chunks ADD COLUMN xact_id xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX chunks_xact ON chunks (xact_id, id);

-- Deleted chunk ids, written by the knowledge store in the deleting transaction and read by the
-- same kind of cursor; kept an hour (an instance that has not read them by then rebuilds its
-- index instead). Chunk ids are never reused on PostgreSQL (identity), so an id is deleted once.
CREATE TABLE chunk_deletions (
  xact_id     xid8 NOT NULL DEFAULT pg_current_xact_id(),
  chunk_id    bigint NOT NULL,
  deleted_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (xact_id, chunk_id)
);
CREATE INDEX chunk_deletions_at ON chunk_deletions (deleted_at);
