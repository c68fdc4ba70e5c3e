// Numbered migrations, applied in order at start-up, each in its own transaction.
// Never edit a migration that has shipped: add the next number.

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE agents (
  agent_id      TEXT PRIMARY KEY,
  score_millis  INTEGER NOT NULL DEFAULT 0,
  contributions INTEGER NOT NULL DEFAULT 0,
  validations   INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE api_keys (
  id         INTEGER PRIMARY KEY,
  agent_id   TEXT NOT NULL REFERENCES agents(agent_id),
  key_hash   TEXT NOT NULL UNIQUE,
  key_prefix TEXT NOT NULL,
  scopes     TEXT NOT NULL,
  tier       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
-- No two unrevoked keys share a prefix, so a prefix names exactly one key to revoke.
CREATE UNIQUE INDEX api_keys_active_prefix ON api_keys(key_prefix) WHERE revoked_at IS NULL;
CREATE INDEX api_keys_agent ON api_keys(agent_id);

CREATE TABLE knowledge_units (
  seq           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  agent_id      TEXT NOT NULL REFERENCES agents(agent_id),
  title         TEXT NOT NULL,
  type          TEXT NOT NULL,
  domain        TEXT NOT NULL,
  description   TEXT NOT NULL,
  examples      TEXT NOT NULL,
  source        TEXT NOT NULL,
  confidence    REAL NOT NULL,
  tags          TEXT NOT NULL,
  base_quality  REAL NOT NULL,
  quality_score REAL NOT NULL,
  valid_count   INTEGER NOT NULL DEFAULT 0,
  invalid_count INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);
-- One index per list shape, each ending in the list order (quality, newest, id).
CREATE INDEX knowledge_order ON knowledge_units(quality_score DESC, created_at DESC, id DESC);
CREATE INDEX knowledge_domain_order ON knowledge_units(domain, quality_score DESC, created_at DESC, id DESC);
CREATE INDEX knowledge_type_order ON knowledge_units(type, quality_score DESC, created_at DESC, id DESC);
CREATE INDEX knowledge_agent ON knowledge_units(agent_id);

-- Contentless: the index holds no second copy of the text; rows are deleted by rowid (= seq).
CREATE VIRTUAL TABLE knowledge_fts USING fts5(
  title, description, examples, domain, tags,
  content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
);

CREATE TABLE verdicts (
  unit_seq   INTEGER NOT NULL REFERENCES knowledge_units(seq) ON DELETE CASCADE,
  unit_id    TEXT NOT NULL,
  agent_id   TEXT NOT NULL REFERENCES agents(agent_id),
  valid      INTEGER NOT NULL,
  feedback   TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (unit_seq, agent_id)
);
CREATE INDEX verdicts_agent ON verdicts(agent_id);

CREATE TABLE skills (
  seq              INTEGER PRIMARY KEY,
  id               TEXT NOT NULL UNIQUE,
  agent_id         TEXT NOT NULL REFERENCES agents(agent_id),
  name             TEXT NOT NULL,
  description      TEXT NOT NULL,
  domain           TEXT,
  tags             TEXT NOT NULL,
  license          TEXT,
  visibility       TEXT NOT NULL,
  quality_score    REAL NOT NULL,
  skill_md_content TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
);
CREATE INDEX skills_order ON skills(quality_score DESC, created_at DESC, id DESC);
CREATE INDEX skills_domain_order ON skills(domain, quality_score DESC, created_at DESC, id DESC);
CREATE INDEX skills_agent ON skills(agent_id);

-- Lower-cased tags, for the tags filter (a skill matches when it has every requested tag).
CREATE TABLE skill_tags (
  tag       TEXT NOT NULL,
  skill_seq INTEGER NOT NULL REFERENCES skills(seq) ON DELETE CASCADE,
  PRIMARY KEY (tag, skill_seq)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE skills_fts USING fts5(
  name, description, tags, body,
  content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
);

CREATE TABLE reputation_events (
  seq          INTEGER PRIMARY KEY,
  agent_id     TEXT NOT NULL REFERENCES agents(agent_id),
  action       TEXT NOT NULL,
  delta_millis INTEGER NOT NULL,
  target_id    TEXT NOT NULL,
  created_at   TEXT NOT NULL
);
CREATE INDEX reputation_events_agent ON reputation_events(agent_id, seq);
`,
  },
  {
    version: 2,
    name: 'agent origin: API keys or the identity provider',
    sql: `
-- Which kind of credential claimed the agent id first; the other kind can never act as that agent.
ALTER TABLE agents ADD COLUMN origin TEXT NOT NULL DEFAULT 'api_key';
`,
  },
  {
    version: 3,
    name: 'idempotency keys',
    sql: `
-- 2xx responses to POSTs sent with an Idempotency-Key, kept 24 hours (sealed: see http/idempotency.ts).
CREATE TABLE idempotency_keys (
  scope        TEXT NOT NULL,
  key_hash     TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status       INTEGER NOT NULL,
  body         TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  PRIMARY KEY (scope, key_hash)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
`,
  },
  {
    version: 4,
    name: 'unit counts by domain, type and quality bucket',
    sql: `
-- Exact list totals without counting rows: how many units each (domain, type, quality bucket) holds,
-- a bucket being floor(quality_score × 100). A total sums whole buckets and counts only the one bucket
-- that min_quality cuts through (see unit-lists.ts). Kept exact by triggers, in the writes' transactions.
CREATE TABLE unit_counts (
  domain TEXT NOT NULL,
  type   TEXT NOT NULL,
  bucket INTEGER NOT NULL,
  n      INTEGER NOT NULL,
  PRIMARY KEY (domain, type, bucket)
) WITHOUT ROWID;
INSERT INTO unit_counts (domain, type, bucket, n)
  SELECT domain, type, CAST(quality_score * 100 AS INTEGER), count(*) FROM knowledge_units GROUP BY 1, 2, 3;

CREATE TRIGGER unit_counts_insert AFTER INSERT ON knowledge_units BEGIN
  INSERT INTO unit_counts (domain, type, bucket, n) VALUES (new.domain, new.type, CAST(new.quality_score * 100 AS INTEGER), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER unit_counts_delete AFTER DELETE ON knowledge_units BEGIN
  UPDATE unit_counts SET n = n - 1
    WHERE domain = old.domain AND type = old.type AND bucket = CAST(old.quality_score * 100 AS INTEGER);
END;
CREATE TRIGGER unit_counts_update AFTER UPDATE OF quality_score, domain, type ON knowledge_units
  WHEN CAST(old.quality_score * 100 AS INTEGER) != CAST(new.quality_score * 100 AS INTEGER)
    OR old.domain != new.domain OR old.type != new.type
BEGIN
  UPDATE unit_counts SET n = n - 1
    WHERE domain = old.domain AND type = old.type AND bucket = CAST(old.quality_score * 100 AS INTEGER);
  INSERT INTO unit_counts (domain, type, bucket, n) VALUES (new.domain, new.type, CAST(new.quality_score * 100 AS INTEGER), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
`,
  },
];
