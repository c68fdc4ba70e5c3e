// Migration 13: unit lists filter by tags, as skill lists do: each unit's tag keys (domain/tags.ts says
// what a key is) in a table of their own, written with the unit, gone with it. Units already stored get
// theirs here, computed by the same rule.
// Never edit a migration that has shipped: add the next number.
import type pg from 'pg';
import { tagKeys } from '../../../domain/tags.js';

export const name = 'unit tags for the tags filter';

export const sql = `
CREATE TABLE unit_tags (
  tag      text COLLATE "C" NOT NULL,
  unit_seq bigint NOT NULL REFERENCES knowledge_units(seq) ON DELETE CASCADE,
  PRIMARY KEY (tag, unit_seq)
);
CREATE INDEX unit_tags_unit ON unit_tags(unit_seq);
`;

const BATCH = 5_000;

export async function backfill(client: pg.Client): Promise<void> {
  for (let after = '0'; ;) {
    const { rows } = await client.query<{ seq: string; tags: string[] }>(
      `SELECT seq, tags FROM knowledge_units WHERE seq > $1 AND jsonb_array_length(tags) > 0 ORDER BY seq LIMIT $2`,
      [after, BATCH],
    );
    const pairs = rows.flatMap((row) => tagKeys(row.tags).map((tag) => [tag, row.seq] as const));
    if (pairs.length > 0)
      await client.query('INSERT INTO unit_tags (tag, unit_seq) SELECT * FROM unnest($1::text[], $2::bigint[])', [
        pairs.map((p) => p[0]),
        pairs.map((p) => p[1]),
      ]);
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.seq;
  }
}
