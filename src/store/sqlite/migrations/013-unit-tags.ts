// Migration 13: unit lists filter by tags, as skill lists do: each unit's tag keys (domain/tags.ts says
// what a key is) in a table of their own, written with the unit, gone with it. Units already stored get
// theirs here, computed by the same rule. The same number as PostgreSQL's.
// Never edit a migration that has shipped: add the next number.
import type { Database } from 'better-sqlite3';
import { tagKeys } from '../../../domain/tags.js';

export const name = 'unit tags for the tags filter';

export const sql = `
CREATE TABLE unit_tags (
  tag      TEXT NOT NULL,
  unit_seq INTEGER NOT NULL REFERENCES knowledge_units(seq) ON DELETE CASCADE,
  PRIMARY KEY (tag, unit_seq)
) WITHOUT ROWID;
CREATE INDEX unit_tags_unit ON unit_tags(unit_seq);
`;

const BATCH = 5_000;

export function backfill(db: Database): void {
  const units = db.prepare(`SELECT seq, tags FROM knowledge_units WHERE seq > ? AND tags <> '[]' ORDER BY seq LIMIT ?`);
  const insert = db.prepare('INSERT OR IGNORE INTO unit_tags (tag, unit_seq) VALUES (?, ?)');
  for (let after = 0; ;) {
    const rows = units.all(after, BATCH) as { seq: number; tags: string }[];
    for (const row of rows) for (const tag of tagKeys(JSON.parse(row.tags) as string[])) insert.run(tag, row.seq);
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.seq;
  }
}
