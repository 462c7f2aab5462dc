-- PostgreSQL only (knowledge/embeddings/postgres-store.ts): dense retrieval on PostgreSQL without
-- any extension. SQLite keeps its vectors in a sqlite-vec vec0 table (006-embeddings.sql); here
-- they are plain rows that every instance loads into an exact in-memory index and follows by
-- the same (xact_id, chunk_id) commit cursor as the chunk change feed (005). The baseline's
-- chunk_embeddings / chunk_vector_garbage (SQLite's bookkeeping for vec0) stay unused here.

-- Which model the stored vectors belong to. One row. `generation` changes whenever the vectors
-- are thrown away (another model, another dimension): vectors, claims and every instance's
-- in-memory copy of an older generation are void, and a write of an older generation is refused.
CREATE TABLE embedding_index_state (
  id          smallint PRIMARY KEY CHECK (id = 1),
  generation  bigint NOT NULL DEFAULT 0,
  model       text COLLATE "C",
  dimensions  integer,
  dim         integer
);
INSERT INTO embedding_index_state (id) VALUES (1);

-- One vector per chunk (float32, little-endian, as the model returned it). Deleted with its
-- chunk (the change feed's chunk_deletions tells the instances to drop it from memory).
CREATE TABLE chunk_dense_vectors (
  chunk_id           bigint PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  knowledge_base_id  text COLLATE "C" NOT NULL,
  generation         bigint NOT NULL,
  vector             bytea NOT NULL,
  xact_id            xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX chunk_dense_vectors_xact ON chunk_dense_vectors (xact_id, chunk_id);

-- Leases on chunks being embedded, so that several instances' backlog workers never embed the
-- same chunk at once. `token` is new for every claimed batch: the vectors are stored only while
-- the claim still carries the writer's token (a stalled instance whose lease was taken over
-- cannot write over the new holder's work). Expired claims are taken over by the next claimer.
CREATE TABLE embedding_claims (
  chunk_id    bigint PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  owner       text COLLATE "C" NOT NULL,
  token       text COLLATE "C" NOT NULL,
  expires_at  bigint NOT NULL
);
