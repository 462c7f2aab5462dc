-- Twin of SQLite migration 030 (every language, issue 25): knowledge base and document
-- languages, the chunk's language, and a full-text column written by the knowledge store from
-- the language analyzers' terms (a tsvector literal: PostgreSQL's 'english' configuration no
-- longer stems anything), so tsvector, FTS5 and the memory index agree by construction.
ALTER TABLE knowledge_bases ADD COLUMN language text COLLATE "C" NOT NULL DEFAULT 'auto';
ALTER TABLE documents ADD COLUMN language text COLLATE "C";
ALTER TABLE chunks ADD COLUMN language text COLLATE "C" NOT NULL DEFAULT 'en';
DROP INDEX chunks_tsv;
ALTER TABLE chunks DROP COLUMN tsv;
ALTER TABLE chunks ADD COLUMN tsv tsvector;
CREATE INDEX chunks_tsv ON chunks USING gin (tsv);
-- Re-analysed at start, in code (text/reanalyze.ts), one knowledge base per transaction.
CREATE TABLE text_reanalysis (knowledge_base_id text COLLATE "C" PRIMARY KEY);
INSERT INTO text_reanalysis (knowledge_base_id) SELECT DISTINCT knowledge_base_id FROM chunks;
