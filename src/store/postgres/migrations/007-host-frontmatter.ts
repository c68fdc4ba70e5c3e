// Migration 7: what skill listings for agent hosts serve, kept with each version (as SQLite's migration 8):
// SKILL.md's own digest and size, and the frontmatter as JSON text, verbatim (jsonb would reorder its keys),
// NULL when the skill is not served to hosts.
// Never edit a migration that has shipped: add the next number.
import type pg from 'pg';
import { HOST_FIELDS_SQL, hostFieldsOf } from '../../migration-backfills.js';

export const name = 'skill versions keep SKILL.md digest, size and host frontmatter';

export const sql = HOST_FIELDS_SQL;

const BATCH = 500;

export async function backfill(client: pg.Client): Promise<void> {
  let after = '0';
  for (;;) {
    const { rows } = await client.query<{ seq: string; name: string; skill_md_content: string; conformant: boolean }>(
      `SELECT v.seq, s.name, v.skill_md_content, v.conformant FROM skill_versions v JOIN skills s ON s.seq = v.skill_seq
       WHERE v.seq > $1 ORDER BY v.seq LIMIT $2`,
      [after, BATCH],
    );
    for (const row of rows) {
      await client.query(
        'UPDATE skill_versions SET skill_md_digest = $1, skill_md_bytes = $2, frontmatter = $3 WHERE seq = $4',
        [...hostFieldsOf(row.skill_md_content, row.name, row.conformant), row.seq],
      );
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.seq;
  }
}
