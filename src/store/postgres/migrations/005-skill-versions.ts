// Migration 5: skills as packages: versions, bundle files, conformance (as SQLite's migration 6).
// Never edit a migration that has shipped: add the next number.
import { firstVersionOf } from '../../migration-backfills.js';
import type pg from 'pg';
import { FIRST_VERSION } from '../../../domain/versions.js';

export const name = 'skill versions, bundle files, conformance';

export const sql = `
-- The skill row is the skill and its default version's searchable fields (lists, filters and search
-- read only it); every version, the default one included, is a row of skill_versions.
ALTER TABLE skills ADD COLUMN display_name text NOT NULL DEFAULT '';
ALTER TABLE skills ADD COLUMN version text COLLATE "C" NOT NULL DEFAULT '${FIRST_VERSION}';
-- NULL when every version is yanked: the skill is then out of lists and search.
ALTER TABLE skills ADD COLUMN latest_version_seq bigint;
ALTER TABLE skills ADD COLUMN conformant boolean NOT NULL DEFAULT true;
ALTER TABLE skills ADD COLUMN digest text NOT NULL DEFAULT '';
ALTER TABLE skills ADD COLUMN file_count integer NOT NULL DEFAULT 0;
ALTER TABLE skills ADD COLUMN published_at text COLLATE "C" NOT NULL DEFAULT '';
-- Before versions, posting a name twice made two skills. The newest of such a group takes the name's
-- versions from now on; the older ones stay readable by id, as they were.
ALTER TABLE skills ADD COLUMN legacy_duplicate boolean NOT NULL DEFAULT false;
UPDATE skills SET legacy_duplicate = true
  WHERE EXISTS (SELECT 1 FROM skills newer WHERE newer.agent_id = skills.agent_id AND newer.name = skills.name AND newer.seq > skills.seq);
CREATE UNIQUE INDEX skills_identity ON skills(agent_id, name) WHERE NOT legacy_duplicate;
CREATE INDEX skills_conformant_order ON skills(conformant, quality_score DESC, created_at DESC, id DESC);

CREATE TABLE skill_versions (
  seq              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  skill_seq        bigint NOT NULL REFERENCES skills(seq) ON DELETE CASCADE,
  version          text COLLATE "C" NOT NULL,
  digest           text NOT NULL,
  display_name     text NOT NULL,
  description      text NOT NULL,
  domain           text,
  tags             jsonb NOT NULL,
  license          text,
  quality_score    double precision NOT NULL,
  conformant       boolean NOT NULL,
  warnings         jsonb NOT NULL,
  skill_md_content text NOT NULL,
  body             text NOT NULL,
  bytes            bigint NOT NULL,
  file_count       integer NOT NULL,
  yanked           boolean NOT NULL DEFAULT false,
  yanked_at        text COLLATE "C",
  created_at       text COLLATE "C" NOT NULL,
  UNIQUE (skill_seq, version)
);

CREATE TABLE skill_files (
  version_seq bigint NOT NULL REFERENCES skill_versions(seq) ON DELETE CASCADE,
  path        text COLLATE "C" NOT NULL,
  content     bytea NOT NULL,
  size        integer NOT NULL,
  digest      text NOT NULL,
  media_type  text NOT NULL,
  PRIMARY KEY (version_seq, path)
);
`;

/** Each existing skill becomes its own first version, read again by today's parser. */
export async function backfill(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{
    seq: string;
    name: string;
    skill_md_content: string;
    quality_score: number;
    description: string;
    domain: string | null;
    tags: string[];
    license: string | null;
    created_at: string;
    bytes: string;
    body: string;
  }>(
    'SELECT seq, name, skill_md_content, quality_score, description, domain, tags, license, created_at, bytes, body FROM skills',
  );
  for (const row of rows) {
    const { version, digest, displayName, conformant, warnings } = firstVersionOf(row.skill_md_content, row.name);
    const inserted = await client.query<{ seq: string }>(
      `INSERT INTO skill_versions (skill_seq, version, digest, display_name, description, domain, tags, license, quality_score,
         conformant, warnings, skill_md_content, body, bytes, file_count, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11::jsonb, $12, $13, $14, 0, $15) RETURNING seq`,
      [
        row.seq,
        version,
        digest,
        displayName,
        row.description,
        row.domain,
        JSON.stringify(row.tags),
        row.license,
        row.quality_score,
        conformant,
        JSON.stringify(warnings),
        row.skill_md_content,
        row.body,
        row.bytes,
        row.created_at,
      ],
    );
    await client.query(
      `UPDATE skills SET display_name = $1, version = $2, latest_version_seq = $3, conformant = $4, digest = $5, published_at = created_at
       WHERE seq = $6`,
      [displayName, version, inserted.rows[0]!.seq, conformant, digest, row.seq],
    );
  }
}
