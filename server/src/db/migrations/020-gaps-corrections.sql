-- Knowledge gaps gain a cause, a status (open | resolved | dismissed) and their single questions.
ALTER TABLE knowledge_gaps ADD COLUMN cause TEXT NOT NULL DEFAULT 'low_confidence'
  CHECK (cause IN ('no_passages', 'low_confidence', 'declined', 'rated_down'));
ALTER TABLE knowledge_gaps ADD COLUMN status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed'));
ALTER TABLE knowledge_gaps ADD COLUMN status_reason TEXT;
ALTER TABLE knowledge_gaps ADD COLUMN status_at TEXT;
ALTER TABLE knowledge_gaps ADD COLUMN resolution TEXT; -- JSON: what resolving stored
CREATE INDEX knowledge_gaps_status ON knowledge_gaps (organization_id, status, count);

CREATE TABLE knowledge_gap_questions (
  id          INTEGER PRIMARY KEY,
  gap_id      TEXT NOT NULL REFERENCES knowledge_gaps(id) ON DELETE CASCADE,
  question    TEXT NOT NULL,
  cause       TEXT NOT NULL,
  confidence  REAL,
  message_id  TEXT, -- the assistant message that fell back or was rated down
  asked_at    TEXT NOT NULL
);
CREATE INDEX knowledge_gap_questions_gap ON knowledge_gap_questions (gap_id, asked_at);
CREATE INDEX knowledge_gap_questions_message ON knowledge_gap_questions (message_id);
INSERT INTO knowledge_gap_questions (gap_id, question, cause, confidence, message_id, asked_at)
  SELECT id, question, 'low_confidence', best_confidence, NULL, last_asked_at FROM knowledge_gaps;

-- A corrected answer, linked to the conversation turn it corrects and to what it created.
CREATE TABLE corrections (
  id                 TEXT PRIMARY KEY,
  organization_id    TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  assistant_id       TEXT NOT NULL,
  session_id         TEXT NOT NULL,
  message_id         TEXT NOT NULL,
  question           TEXT NOT NULL,
  answer             TEXT NOT NULL,
  template_id        TEXT,
  knowledge_base_id  TEXT,
  document_id        TEXT,
  user_id            TEXT,
  api_key_id         TEXT,
  created_at         TEXT NOT NULL
);
CREATE INDEX corrections_org ON corrections (organization_id, created_at);
CREATE INDEX corrections_message ON corrections (message_id);
