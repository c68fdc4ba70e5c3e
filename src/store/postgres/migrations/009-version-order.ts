// Migration 9: versions in semver precedence through an index (as SQLite's migration 10).
// Never edit a migration that has shipped: add the next number.
import type pg from 'pg';
import { versionOrderOf } from '../../migration-backfills.js';

export const name = 'versions ordered by semver precedence through an index';

export const sql = `
ALTER TABLE skill_versions ADD COLUMN sort_key text COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE skill_versions ADD COLUMN is_release boolean NOT NULL DEFAULT true;
CREATE INDEX skill_versions_order ON skill_versions(skill_seq, sort_key);
CREATE INDEX skill_versions_latest ON skill_versions(skill_seq, yanked, is_release, sort_key);
CREATE INDEX skill_versions_digest ON skill_versions(skill_seq, digest);
`;

export async function backfill(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ seq: string; version: string }>('SELECT seq, version FROM skill_versions');
  for (const row of rows) {
    const { sortKey, release } = versionOrderOf(row.version);
    await client.query('UPDATE skill_versions SET sort_key = $1, is_release = $2 WHERE seq = $3', [
      sortKey,
      release,
      row.seq,
    ]);
  }
}
