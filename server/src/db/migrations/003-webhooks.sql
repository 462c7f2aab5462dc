-- Webhooks (API.md §9): endpoints, a durable outbox of events, their deliveries and the log of
-- every delivery attempt.

CREATE TABLE webhook_endpoints (
  id               TEXT PRIMARY KEY,
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  -- Only this assistant's events (and its knowledge bases'); NULL = every assistant.
  assistant_id     TEXT REFERENCES assistants(id) ON DELETE CASCADE,
  url              TEXT NOT NULL,
  description      TEXT,
  events           TEXT NOT NULL, -- JSON array of event names, or ["*"]
  secret           TEXT NOT NULL, -- whsec_<base64 of 32 bytes>: signs every delivery, so kept as is
  enabled          INTEGER NOT NULL DEFAULT 1,
  disabled_reason  TEXT CHECK (disabled_reason IN ('manual', 'gone', 'failing')),
  disabled_at      TEXT,
  failing_since    TEXT, -- first failed attempt since the last success
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
);
CREATE INDEX webhook_endpoints_org ON webhook_endpoints (organization_id, created_at);

-- The outbox proper: one row per event some endpoint wanted when it happened, written in
-- the transaction of its cause (so it exists exactly when the cause was committed). `payload`
-- is the exact body sent. The worker fans events out into deliveries in `seq` order.
CREATE TABLE webhook_events (
  seq              INTEGER PRIMARY KEY,
  id               TEXT NOT NULL, -- evt_…: the webhook-id header, the same on every retry
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  assistant_ids    TEXT, -- JSON array: endpoints filtered to another assistant skip the event; NULL = no filter applies
  endpoint_id      TEXT, -- webhook.test: for this endpoint only
  type             TEXT NOT NULL,
  payload          TEXT NOT NULL,
  created_at       TEXT NOT NULL
);

-- How far events have been fanned out into deliveries (one row).
CREATE TABLE webhook_fanout (
  id        INTEGER PRIMARY KEY CHECK (id = 1),
  last_seq  INTEGER NOT NULL
);
INSERT INTO webhook_fanout (id, last_seq) VALUES (1, 0);

-- One row per (event, endpoint). `id` follows event order, which is the order each endpoint
-- receives its deliveries in: only the oldest pending delivery of an endpoint is attempted.
CREATE TABLE webhook_deliveries (
  id               INTEGER PRIMARY KEY,
  endpoint_id      TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_seq        INTEGER NOT NULL REFERENCES webhook_events(seq) ON DELETE CASCADE,
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL, -- epoch ms; meaningful while pending
  finished_at      TEXT
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_seq);

-- The delivery log: every attempt, successful or not, standing alone (it names its event) so
-- that reading it joins nothing and it can be pruned by age.
CREATE TABLE webhook_attempts (
  id               INTEGER PRIMARY KEY,
  endpoint_id      TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  delivery_id      INTEGER NOT NULL,
  webhook_id       TEXT NOT NULL, -- the event's id
  event_type       TEXT NOT NULL,
  attempt          INTEGER NOT NULL, -- 1 for the first try
  attempted_at     TEXT NOT NULL,
  succeeded        INTEGER NOT NULL,
  response_code    INTEGER,
  latency_ms       REAL NOT NULL,
  error            TEXT,
  next_retry_at    TEXT -- when the next attempt is due; NULL when none will follow
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, id);
