// Numbered PostgreSQL migrations, applied in order at start-up, each in its own transaction, under an
// advisory lock so that instances starting together apply each one exactly once (see db.ts).
// Never edit a migration that has shipped: add the next number.
//
// The logical schema is the SQLite one (../sqlite/migrations.ts). Differences, and why:
// - Ids and timestamps are `COLLATE "C"` so ORDER BY compares bytes, exactly as SQLite does.
// - Timestamps stay ISO 8601 text: what goes in comes back unchanged, and text order is time order.
// - Search lives in generated, weighted tsvector columns with GIN indexes instead of FTS5 tables, so the
//   index can never drift from the row (a deleted unit leaves nothing behind).
// - Array fields (examples, tags) are jsonb, which to_tsvector reads directly (string values only).
// - Every table that an export walks has (agent_id, seq), the keyset the export pages by.

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
`,
  },
  {
    version: 2,
    name: 'idempotency keys',
    sql: `
-- 2xx responses to POSTs sent with an Idempotency-Key, kept 24 hours (sealed: see http/idempotency.ts).
CREATE TABLE idempotency_keys (
  scope        text COLLATE "C" NOT NULL,
  key_hash     text COLLATE "C" NOT NULL,
  request_hash text NOT NULL,
  status       integer NOT NULL,
  body         text NOT NULL,
  created_at   text COLLATE "C" NOT NULL,
  PRIMARY KEY (scope, key_hash)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
`,
  },
  {
    version: 3,
    name: 'search as SQLite finds it',
    sql: `
-- Search that finds what SQLite's FTS5 (porter unicode61 remove_diacritics 2) finds, whatever the
-- database's locale: no stop words, accents folded, Porter stems, and every punctuation character a
-- word break ("node.js" is node and js; "user@example.com" is user, example and com).

-- unaccent is a trusted extension (PostgreSQL 13+), so the registry's owner may create it. Where it cannot
-- be created, search works the same except that accents are not folded (café does not find cafe).
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS unaccent;
EXCEPTION WHEN OTHERS THEN
  RAISE WARNING 'extension unaccent is not available (%): search will not fold accents', SQLERRM;
END
$$;

-- The original Porter stemmer, as FTS5's porter tokenizer uses, and no stop word list.
CREATE TEXT SEARCH DICTIONARY reg_porter (TEMPLATE = pg_catalog.snowball, LANGUAGE = porter);
CREATE TEXT SEARCH CONFIGURATION reg_search (PARSER = pg_catalog."default");
DO $$
DECLARE
  unaccent_schema name;
BEGIN
  SELECT n.nspname INTO unaccent_schema
  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent';
  -- Every token type but blank: after reg_search_text only words and numbers remain, and whatever the
  -- parser still makes of them in an unusual locale is indexed rather than dropped.
  EXECUTE format(
    'ALTER TEXT SEARCH CONFIGURATION reg_search ADD MAPPING FOR asciiword, word, numword, asciihword, hword,
       numhword, hword_asciipart, hword_part, hword_numpart, email, url, host, url_path, file, sfloat,
       float, int, uint, version, tag, entity WITH %s reg_porter',
    CASE WHEN unaccent_schema IS NULL THEN '' ELSE format('%I.unaccent,', unaccent_schema) END);
END
$$;

-- Lower case by ICU's root locale where the server has ICU: a database whose LC_CTYPE is C would
-- otherwise lower only ASCII letters (Дом would not be found as дом), while the query is lower-cased in full.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu' AND collnamespace = 'pg_catalog'::regnamespace) THEN
    EXECUTE 'CREATE FUNCTION reg_search_lower(value text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      RETURN lower(value COLLATE pg_catalog."und-x-icu")';
  ELSE
    EXECUTE 'CREATE FUNCTION reg_search_lower(value text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      RETURN lower(value)';
  END IF;
END
$$;

-- Punctuation becomes a space before the parser sees the text: the parser itself keeps "node.js",
-- "1.2.3" and e-mail addresses whole, and in a C-locale database treats every non-ASCII character as a
-- letter. ASCII punctuation and symbols, then common Unicode ones (spaces, dashes, quotes, brackets).
CREATE FUNCTION reg_search_text(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN translate(reg_search_lower(value),
  '!"#$%&''()*+,-./:;<=>?@[\\]^_\`{|}~' || U&'\\00A0\\00A1\\00A6\\00A7\\00A9\\00AB\\00AC\\00AE\\00B0\\00B1\\00B6\\00B7\\00BB\\00BF\\00D7\\00F7\\2010\\2011\\2012\\2013\\2014\\2015\\2016\\2018\\2019\\201A\\201B\\201C\\201D\\201E\\201F\\2020\\2021\\2022\\2026\\2030\\2032\\2033\\2039\\203A\\2122\\3000\\3001\\3002\\300C\\300D\\300E\\300F\\3010\\3011\\FF01\\FF08\\FF09\\FF0C\\FF0E\\FF1A\\FF1B\\FF1F',
  repeat(' ', 90));

-- Arrays of strings (tags, examples): their JSON text, with escape sequences (\\n, \\", \\u001f) taken out
-- first so that they do not leave stray letters behind; the JSON punctuation then goes with the rest.
CREATE FUNCTION reg_search_text(value jsonb) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN reg_search_text(regexp_replace(value::text, '\\\\(u[0-9A-Fa-f]{4}|.)', ' ', 'g'));

-- Weights as near SQLite's bm25 column weights as four labels allow (see lists.ts for the values):
-- units: title A, tags B, description and domain C, examples D; skills: name A, description and tags B,
-- body D. Rebuilding the columns rewrites both tables once; the GIN indexes go and come back with them.
ALTER TABLE knowledge_units DROP COLUMN search;
ALTER TABLE knowledge_units ADD COLUMN search tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('reg_search'::regconfig, reg_search_text(title)), 'A') ||
  setweight(to_tsvector('reg_search'::regconfig, reg_search_text(tags)), 'B') ||
  setweight(to_tsvector('reg_search'::regconfig, reg_search_text(description)), 'C') ||
  setweight(to_tsvector('reg_search'::regconfig, reg_search_text(domain)), 'C') ||
  setweight(to_tsvector('reg_search'::regconfig, reg_search_text(examples)), 'D')
) STORED;
CREATE INDEX knowledge_search ON knowledge_units USING gin (search);

ALTER TABLE skills DROP COLUMN search;
ALTER TABLE skills ADD COLUMN search tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('reg_search'::regconfig, reg_search_text(name)), 'A') ||
  setweight(to_tsvector('reg_search'::regconfig, reg_search_text(tags)), 'B') ||
  setweight(to_tsvector('reg_search'::regconfig, reg_search_text(description)), 'B') ||
  setweight(to_tsvector('reg_search'::regconfig, reg_search_text(body)), 'D')
) STORED;
CREATE INDEX skills_search ON skills USING gin (search);
`,
  },
];
