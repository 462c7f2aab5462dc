-- Twin of SQLite 027-job-leases.sql (knowledge/web/jobs.ts): leases on running web document jobs,
-- so that an instance does not take over another's running job, and a job of a dead instance is
-- claimed again (epoch + 1) once its lease expires.
ALTER TABLE ingest_jobs ADD COLUMN owner text COLLATE "C";
ALTER TABLE ingest_jobs ADD COLUMN epoch bigint NOT NULL DEFAULT 0;
ALTER TABLE ingest_jobs ADD COLUMN lease_expires_at bigint NOT NULL DEFAULT 0;
