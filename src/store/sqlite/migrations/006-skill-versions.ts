// Migration 6: skills as packages: versions, bundle files, conformance.
// Never edit a migration that has shipped: add the next number.
import { firstVersionOf } from '../../migration-backfills.js';
import type { Database } from 'better-sqlite3';
import { FIRST_VERSION } from '../../../domain/versions.js';

export const name = 'skill versions, bundle files, conformance';

export const sql = `
-- The skill row is the skill and its default version's searchable fields (lists, filters and search
-- read only it); every version, the default one included, is a row of skill_versions.
ALTER TABLE skills ADD COLUMN display_name TEXT NOT NULL DEFAULT '';
ALTER TABLE skills ADD COLUMN version TEXT NOT NULL DEFAULT '${FIRST_VERSION}';
-- NULL when every version is yanked: the skill is then out of lists and search.
ALTER TABLE skills ADD COLUMN latest_version_seq INTEGER;
ALTER TABLE skills ADD COLUMN conformant INTEGER NOT NULL DEFAULT 1;
ALTER TABLE skills ADD COLUMN digest TEXT NOT NULL DEFAULT '';
ALTER TABLE skills ADD COLUMN file_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE skills ADD COLUMN published_at TEXT NOT NULL DEFAULT '';
-- Before versions, posting a name twice made two skills. The newest of such a group takes the name's
-- versions from now on; the older ones stay readable by id, as they were.
ALTER TABLE skills ADD COLUMN legacy_duplicate INTEGER NOT NULL DEFAULT 0;
UPDATE skills SET legacy_duplicate = 1
  WHERE EXISTS (SELECT 1 FROM skills newer WHERE newer.agent_id = skills.agent_id AND newer.name = skills.name AND newer.seq > skills.seq);
CREATE UNIQUE INDEX skills_identity ON skills(agent_id, name) WHERE legacy_duplicate = 0;
CREATE INDEX skills_conformant_order ON skills(conformant, quality_score DESC, created_at DESC, id DESC);

CREATE TABLE skill_versions (
  seq              INTEGER PRIMARY KEY,
  skill_seq        INTEGER NOT NULL REFERENCES skills(seq) ON DELETE CASCADE,
  version          TEXT NOT NULL,
  digest           TEXT NOT NULL,
  display_name     TEXT NOT NULL,
  description      TEXT NOT NULL,
  domain           TEXT,
  tags             TEXT NOT NULL,
  license          TEXT,
  quality_score    REAL NOT NULL,
  conformant       INTEGER NOT NULL,
  warnings         TEXT NOT NULL,
  skill_md_content TEXT NOT NULL,
  body             TEXT NOT NULL,
  bytes            INTEGER NOT NULL,
  file_count       INTEGER NOT NULL,
  yanked           INTEGER NOT NULL DEFAULT 0,
  yanked_at        TEXT,
  created_at       TEXT NOT NULL,
  UNIQUE (skill_seq, version)
);

CREATE TABLE skill_files (
  version_seq INTEGER NOT NULL REFERENCES skill_versions(seq) ON DELETE CASCADE,
  path        TEXT NOT NULL,
  content     BLOB NOT NULL,
  size        INTEGER NOT NULL,
  digest      TEXT NOT NULL,
  media_type  TEXT NOT NULL,
  PRIMARY KEY (version_seq, path)
) WITHOUT ROWID;
`;

/** Each existing skill becomes its own first version, read again by today's parser. */
export function backfill(db: Database): void {
  const skills = db.prepare(
    'SELECT seq, name, skill_md_content, quality_score, description, domain, tags, license, created_at, bytes FROM skills',
  );
  const insert = db.prepare(
    `INSERT INTO skill_versions (skill_seq, version, digest, display_name, description, domain, tags, license, quality_score,
       conformant, warnings, skill_md_content, body, bytes, file_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
  );
  const update = db.prepare(
    `UPDATE skills SET display_name = ?, version = ?, latest_version_seq = ?, conformant = ?, digest = ?, published_at = created_at
     WHERE seq = ?`,
  );
  for (const row of skills.all() as {
    seq: number;
    name: string;
    skill_md_content: string;
    quality_score: number;
    description: string;
    domain: string | null;
    tags: string;
    license: string | null;
    created_at: string;
    bytes: number;
  }[]) {
    const { version, digest, displayName, conformant, warnings, body } = firstVersionOf(row.skill_md_content, row.name);
    const { lastInsertRowid } = insert.run(
      row.seq,
      version,
      digest,
      displayName,
      row.description,
      row.domain,
      row.tags,
      row.license,
      row.quality_score,
      conformant ? 1 : 0,
      JSON.stringify(warnings),
      row.skill_md_content,
      body,
      row.bytes,
      row.created_at,
    );
    update.run(displayName, version, lastInsertRowid, conformant ? 1 : 0, digest, row.seq);
  }
}
