// Migration 1: initial schema.
// Never edit a migration that has shipped: add the next number.
export const name = 'initial schema';

export const sql = `
CREATE TABLE agents (
  agent_id      text COLLATE "C" PRIMARY KEY,
  -- Which kind of credential claimed the agent id first; the other kind can never act as that agent.
  origin        text NOT NULL DEFAULT 'api_key',
  score_millis  bigint NOT NULL DEFAULT 0,
  contributions integer NOT NULL DEFAULT 0,
  validations   integer NOT NULL DEFAULT 0,
  created_at    text COLLATE "C" NOT NULL,
  updated_at    text COLLATE "C" NOT NULL
);

CREATE TABLE api_keys (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  agent_id   text COLLATE "C" NOT NULL REFERENCES agents(agent_id),
  key_hash   text COLLATE "C" NOT NULL UNIQUE,
  key_prefix text COLLATE "C" NOT NULL,
  scopes     text NOT NULL,
  tier       text NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  revoked_at text COLLATE "C"
);
-- No two unrevoked keys share a prefix, so a prefix names exactly one key to revoke.
CREATE UNIQUE INDEX api_keys_active_prefix ON api_keys(key_prefix) WHERE revoked_at IS NULL;
CREATE INDEX api_keys_agent ON api_keys(agent_id, id);

CREATE TABLE knowledge_units (
  seq           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id            text COLLATE "C" NOT NULL UNIQUE,
  agent_id      text COLLATE "C" NOT NULL REFERENCES agents(agent_id),
  title         text NOT NULL,
  type          text NOT NULL,
  domain        text NOT NULL,
  description   text NOT NULL,
  examples      jsonb NOT NULL,
  source        text NOT NULL,
  confidence    double precision NOT NULL,
  tags          jsonb NOT NULL,
  base_quality  double precision NOT NULL,
  quality_score double precision NOT NULL,
  valid_count   integer NOT NULL DEFAULT 0,
  invalid_count integer NOT NULL DEFAULT 0,
  created_at    text COLLATE "C" NOT NULL,
  updated_at    text COLLATE "C" NOT NULL,
  -- Weights: a match in the title counts most, then tags and domain, then description, then examples.
  search        tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title), 'A') ||
    setweight(to_tsvector('english'::regconfig, tags), 'B') ||
    setweight(to_tsvector('english'::regconfig, domain), 'B') ||
    setweight(to_tsvector('english'::regconfig, description), 'C') ||
    setweight(to_tsvector('english'::regconfig, examples), 'D')
  ) STORED
);
-- One index per list shape, each ending in the list order (quality, newest, id).
CREATE INDEX knowledge_order ON knowledge_units(quality_score DESC, created_at DESC, id DESC);
CREATE INDEX knowledge_domain_order ON knowledge_units(domain, quality_score DESC, created_at DESC, id DESC);
CREATE INDEX knowledge_type_order ON knowledge_units(type, quality_score DESC, created_at DESC, id DESC);
CREATE INDEX knowledge_agent ON knowledge_units(agent_id, seq);
CREATE INDEX knowledge_search ON knowledge_units USING gin (search);

CREATE TABLE verdicts (
  -- A seq of its own gives the export a one-column keyset, in the order verdicts were given.
  seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  unit_seq   bigint NOT NULL REFERENCES knowledge_units(seq) ON DELETE CASCADE,
  unit_id    text COLLATE "C" NOT NULL,
  agent_id   text COLLATE "C" NOT NULL REFERENCES agents(agent_id),
  valid      boolean NOT NULL,
  feedback   text NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  updated_at text COLLATE "C" NOT NULL,
  UNIQUE (unit_seq, agent_id)
);
CREATE INDEX verdicts_agent ON verdicts(agent_id, seq);

CREATE TABLE skills (
  seq              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id               text COLLATE "C" NOT NULL UNIQUE,
  agent_id         text COLLATE "C" NOT NULL REFERENCES agents(agent_id),
  name             text NOT NULL,
  description      text NOT NULL,
  domain           text,
  tags             jsonb NOT NULL,
  license          text,
  visibility       text NOT NULL,
  quality_score    double precision NOT NULL,
  skill_md_content text NOT NULL,
  -- The markdown body alone, so frontmatter keys do not count as words of the skill.
  body             text NOT NULL,
  created_at       text COLLATE "C" NOT NULL,
  updated_at       text COLLATE "C" NOT NULL,
  search           tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, name), 'A') ||
    setweight(to_tsvector('english'::regconfig, tags), 'B') ||
    setweight(to_tsvector('english'::regconfig, description), 'B') ||
    setweight(to_tsvector('english'::regconfig, body), 'D')
  ) STORED
);
CREATE INDEX skills_order ON skills(quality_score DESC, created_at DESC, id DESC);
-- Anonymous callers, the most common readers, only ever see public skills.
CREATE INDEX skills_public_order ON skills(quality_score DESC, created_at DESC, id DESC) WHERE visibility = 'public';
CREATE INDEX skills_domain_order ON skills(domain, quality_score DESC, created_at DESC, id DESC);
CREATE INDEX skills_agent ON skills(agent_id, seq);
CREATE INDEX skills_search ON skills USING gin (search);

-- Lower-cased tags, for the tags filter (a skill matches when it has every requested tag).
CREATE TABLE skill_tags (
  tag       text COLLATE "C" NOT NULL,
  skill_seq bigint NOT NULL REFERENCES skills(seq) ON DELETE CASCADE,
  PRIMARY KEY (tag, skill_seq)
);
CREATE INDEX skill_tags_skill ON skill_tags(skill_seq);

CREATE TABLE reputation_events (
  seq          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  agent_id     text COLLATE "C" NOT NULL REFERENCES agents(agent_id),
  action       text NOT NULL,
  delta_millis integer NOT NULL,
  target_id    text COLLATE "C" NOT NULL,
  created_at   text COLLATE "C" NOT NULL
);
CREATE INDEX reputation_events_agent ON reputation_events(agent_id, seq);
`;
