// Migration 1: initial schema.
// Never edit a migration that has shipped: add the next number.
export const name = 'initial schema';

export const sql = `
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
`;
