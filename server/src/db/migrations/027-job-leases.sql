-- Leases on running web document jobs (issue 15, knowledge/web/jobs.ts): a `processing` job is
-- held by `owner` (a random id per server process) until `lease_expires_at` (epoch ms), renewed
-- while it runs. A job whose lease expired is claimed again by any instance with `epoch` + 1, and
-- the old holder's writes, all conditioned on (owner, epoch), are refused from then on.
ALTER TABLE ingest_jobs ADD COLUMN owner TEXT;
ALTER TABLE ingest_jobs ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ingest_jobs ADD COLUMN lease_expires_at INTEGER NOT NULL DEFAULT 0;
