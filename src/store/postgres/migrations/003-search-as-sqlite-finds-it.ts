// Migration 3: search as SQLite finds it.
// Never edit a migration that has shipped: add the next number.
export const name = 'search as SQLite finds it';

export const sql = `
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
`;
