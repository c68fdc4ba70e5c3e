// Migration 8: what skill listings for agent hosts serve, kept with each version so that a listing reads
// it instead of parsing every SKILL.md again: SKILL.md's own digest and size, and the frontmatter as JSON
// (NULL when the skill is not served to hosts: it does not follow the Agent Skills format).
// Never edit a migration that has shipped: add the next number.
import type { Database } from 'better-sqlite3';
import { HOST_FIELDS_SQL, hostFieldsOf } from '../../migration-backfills.js';

export const name = 'skill versions keep SKILL.md digest, size and host frontmatter';

export const sql = HOST_FIELDS_SQL;

const BATCH = 500;

export function backfill(db: Database): void {
  const versions = db.prepare(
    'SELECT v.seq, s.name, v.skill_md_content, v.conformant FROM skill_versions v JOIN skills s ON s.seq = v.skill_seq WHERE v.seq > ? ORDER BY v.seq LIMIT ?',
  );
  const update = db.prepare(
    'UPDATE skill_versions SET skill_md_digest = ?, skill_md_bytes = ?, frontmatter = ? WHERE seq = ?',
  );
  for (let after = 0; ;) {
    const rows = versions.all(after, BATCH) as {
      seq: number;
      name: string;
      skill_md_content: string;
      conformant: number;
    }[];
    for (const row of rows) update.run(...hostFieldsOf(row.skill_md_content, row.name, row.conformant === 1), row.seq);
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.seq;
  }
}
