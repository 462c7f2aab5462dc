-- Twin of SQLite 026-webhook-leases.sql (webhooks/queue.ts): leases on webhook endpoint queues,
-- so that with several servers an endpoint's queue head is attempted by one instance at a time.
CREATE TABLE webhook_leases (
  endpoint_id  text COLLATE "C" PRIMARY KEY REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  owner        text COLLATE "C",
  epoch        bigint NOT NULL DEFAULT 0,
  expires_at   bigint NOT NULL DEFAULT 0
);

-- PostgreSQL only: the fan-out cursor is (xact_id, seq), read below the oldest running
-- transaction, because with several writers seq order is not commit order (an event committed
-- after a later seq would be skipped by `seq > last_seq`).
ALTER TABLE webhook_events ADD COLUMN xact_id xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX webhook_events_xact ON webhook_events (xact_id, seq);
ALTER TABLE webhook_fanout ADD COLUMN last_xact xid8 NOT NULL DEFAULT '0';
UPDATE webhook_fanout SET last_xact = pg_current_xact_id() WHERE id = 1;
