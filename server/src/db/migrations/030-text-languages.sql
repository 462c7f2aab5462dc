-- Every language (issue 25, API.md §12). A knowledge base has a `language`: 'auto' (each
-- document's language is detected at ingest) or a BCP 47 tag that fixes it; each document
-- records the language it was analysed in, and its chunks carry it (the in-memory index and the
-- question path read it without a join).
ALTER TABLE knowledge_bases ADD COLUMN language TEXT NOT NULL DEFAULT 'auto';
ALTER TABLE documents ADD COLUMN language TEXT;
ALTER TABLE chunks ADD COLUMN language TEXT NOT NULL DEFAULT 'en';

-- The full-text index holds the terms of each chunk's language analyzer (text/), written by the
-- knowledge store, instead of running FTS5's English Porter over the raw text: the three engines
-- (FTS5, tsvector, the memory index) index the same terms by construction. The `ascii`
-- tokenizer only splits at the spaces between those terms (they hold letters, marks and digits
-- only; non-ASCII characters are word characters to it). Contentless with deletes: the terms
-- are not the chunk's text, so the table can neither be external-content over `chunks` nor
-- needs a copy of it.
DROP TRIGGER chunks_ad;
DROP TABLE chunks_fts;
CREATE VIRTUAL TABLE chunks_fts USING fts5(
  title, headings, body,
  content = '', contentless_delete = 1,
  tokenize = 'ascii'
);
INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('automerge', 16);
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
  DELETE FROM chunks_fts WHERE rowid = old.id;
END;

-- Knowledge indexed before this change is re-analysed at start, in code (the analyzers are not
-- SQL): text/reanalyze.ts detects each document's language, sets it on the document and its
-- chunks and writes their index entries, one knowledge base per transaction, deleting its row
-- here as it commits (idempotent: a restart midway redoes only what is left).
CREATE TABLE text_reanalysis (knowledge_base_id TEXT PRIMARY KEY);
INSERT INTO text_reanalysis (knowledge_base_id) SELECT DISTINCT knowledge_base_id FROM chunks;
