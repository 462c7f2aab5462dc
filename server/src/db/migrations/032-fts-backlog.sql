-- The full-text entries a transaction owes (issue 28): an upload commits its chunks and their ids
-- here, and knowledge/full-text-backlog.ts writes the FTS5 entries of many uploads in one later
-- transaction, deleting the rows it wrote. Each commit that wrote FTS5 entries itself made a
-- segment of its own (~13 of the ~24 WAL pages a 2.5 KB document wrote, and most of its commit
-- time). A row left by a crash is written at the next start; reads of the index wait for them.
CREATE TABLE chunks_fts_pending (chunk_id INTEGER PRIMARY KEY);
