-- Optional dense retrieval (knowledge/embeddings). The vectors themselves live in a sqlite-vec
-- `vec0` virtual table, `chunk_vectors`, created at runtime only when an embedding model is
-- configured (its dimension comes from the model, and the extension is loaded only then). These
-- plain tables work without the extension, so a database always opens, migrates and deletes.
--
-- A row here says: `chunk_vectors` holds the current vector of this chunk. It is written in the
-- same transaction as the vector, and removed in the same transaction as the chunk (trigger
-- below), so a vector is used only while its chunk exists: chunk ids can be reused after a
-- delete, and a vector without a row here is never returned.
CREATE TABLE chunk_embeddings (
  chunk_id  INTEGER PRIMARY KEY
);

-- Vectors of deleted or changed chunks, for the worker to remove from `chunk_vectors` (a
-- trigger cannot touch a virtual table whose extension may not be loaded).
CREATE TABLE chunk_vector_garbage (
  chunk_id  INTEGER PRIMARY KEY
);

CREATE TRIGGER chunks_ad_embeddings AFTER DELETE ON chunks
WHEN EXISTS (SELECT 1 FROM chunk_embeddings WHERE chunk_id = old.id)
BEGIN
  DELETE FROM chunk_embeddings WHERE chunk_id = old.id;
  INSERT OR IGNORE INTO chunk_vector_garbage (chunk_id) VALUES (old.id);
END;

-- Chunks are replaced, not edited, today; should one be edited, its vector is stale.
CREATE TRIGGER chunks_au_embeddings AFTER UPDATE OF title, headings, body ON chunks
WHEN EXISTS (SELECT 1 FROM chunk_embeddings WHERE chunk_id = old.id)
BEGIN
  DELETE FROM chunk_embeddings WHERE chunk_id = old.id;
  INSERT OR IGNORE INTO chunk_vector_garbage (chunk_id) VALUES (old.id);
END;
