-- Background fetches of knowledge documents from the web (one page, or a crawl of a site),
-- durable across restarts: a job left `processing` by a crash is queued again at the next start.
CREATE TABLE ingest_jobs (
  id           TEXT PRIMARY KEY,
  -- Deleting the document deletes its job: a running job sees its row gone and stops.
  document_id  TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  kind         TEXT NOT NULL CHECK (kind IN ('fetch', 'crawl')),
  status       TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'processing', 'done', 'failed')),
  attempts     INTEGER NOT NULL DEFAULT 0, -- times picked (a clean shutdown gives its attempt back)
  run_after    INTEGER NOT NULL,           -- epoch ms: not picked before (retry backoff)
  error        TEXT,                       -- last failure
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL,
  finished_at  TEXT
);
-- One live job per document: a re-sync while one is queued or running reuses it.
CREATE UNIQUE INDEX ingest_jobs_live ON ingest_jobs (document_id) WHERE status IN ('queued', 'processing');
CREATE INDEX ingest_jobs_due ON ingest_jobs (status, run_after);
CREATE INDEX ingest_jobs_document ON ingest_jobs (document_id); -- the cascade from documents
