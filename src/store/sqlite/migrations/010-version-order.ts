// Migration 10: versions in semver precedence through an index (each version's sort key, and whether it
// is a release), so that finding a skill's latest or highest version, or a page of its versions, costs the
// same with six versions or six thousand.
// Never edit a migration that has shipped: add the next number.
import type { Database } from 'better-sqlite3';
import { versionOrderOf } from '../../migration-backfills.js';

export const name = 'versions ordered by semver precedence through an index';

export const sql = `
ALTER TABLE skill_versions ADD COLUMN sort_key TEXT NOT NULL DEFAULT '';
ALTER TABLE skill_versions ADD COLUMN is_release INTEGER NOT NULL DEFAULT 1;
CREATE INDEX skill_versions_order ON skill_versions(skill_seq, sort_key);
CREATE INDEX skill_versions_latest ON skill_versions(skill_seq, yanked, is_release, sort_key);
CREATE INDEX skill_versions_digest ON skill_versions(skill_seq, digest);
`;

export function backfill(db: Database): void {
  const versions = db.prepare('SELECT seq, version FROM skill_versions').all() as { seq: number; version: string }[];
  const update = db.prepare('UPDATE skill_versions SET sort_key = ?, is_release = ? WHERE seq = ?');
  for (const row of versions) {
    const { sortKey, release } = versionOrderOf(row.version);
    update.run(sortKey, release ? 1 : 0, row.seq);
  }
}
