-- Leases on webhook endpoint queues (issue 15): with several servers on one PostgreSQL database,
-- an endpoint's queue head is attempted only by the instance holding its lease (owner, until
-- expires_at epoch ms); epoch grows each time the lease changes hands, and an attempt is recorded
-- only under the epoch it was claimed with (webhooks/queue.ts). SQLite has one server and leaves
-- the table empty; it exists so both schemas stay the same (copies between them included).
-- PostgreSQL also gets dialect-only cursor columns (webhook_events.xact_id, webhook_fanout.last_xact).
CREATE TABLE webhook_leases (
  endpoint_id  TEXT PRIMARY KEY REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  owner        TEXT,
  epoch        INTEGER NOT NULL DEFAULT 0,
  expires_at   INTEGER NOT NULL DEFAULT 0
);
