// What the search index reads from PostgreSQL (see SearchFeed in ../store.ts), as ../sqlite/search-feed.ts:
// items in keyset batches, the change log the migration-6 triggers keep, vectors per embedding model, and
// summaries by sequence; and PostgresSearchFeed, those functions as the methods PostgresStore inherits.
import type { Pool } from 'pg';
import type { UnitType, Visibility } from '../../domain/model.js';
import { summarizeUnit, type SkillSummary, type UnitSummary } from '../../domain/summaries.js';
import * as rows from '../rows.js';
import * as skillRows from '../skill-rows.js';
import type { SearchChange, SearchFeed, SearchItem, SearchKind } from '../store.js';
import { run, type Queryable } from './connection.js';
import { UNIT_SUMMARY_COLUMNS } from './lists.js';

const SKILL_ITEM = `SELECT s.seq, s.id, s.name, s.display_name, s.description, s.tags, s.domain, s.body, s.quality_score, s.created_at,
  s.visibility, s.agent_id, s.latest_version_seq IS NOT NULL AS listed, s.conformant FROM skills s`;
const UNIT_ITEM = `SELECT ku.seq, ku.id, ku.agent_id, ku.title, ku.description, ku.tags, ku.domain, ku.examples, ku.quality_score, ku.created_at, ku.type
  FROM knowledge_units ku`;

interface SkillItemRow {
  seq: string; id: string; name: string; display_name: string; description: string; tags: string[]; domain: string | null; body: string;
  quality_score: number; created_at: string; visibility: string; agent_id: string; listed: boolean; conformant: boolean;
}
interface UnitItemRow {
  seq: string; id: string; agent_id: string; title: string; description: string; tags: string[]; domain: string; examples: string[];
  quality_score: number; created_at: string; type: string;
}

function skillItem(r: SkillItemRow): SearchItem {
  return {
    kind: 'skill', seq: Number(r.seq), id: r.id, name: r.display_name && r.display_name !== r.name ? `${r.name} ${r.display_name}` : r.name,
    description: r.description, tags: r.tags, domain: r.domain, body: r.body, qualityScore: r.quality_score, createdAt: r.created_at,
    visibility: r.visibility as Visibility, agentId: r.agent_id, listed: r.listed, conformant: r.conformant,
  };
}

function unitItem(r: UnitItemRow): SearchItem {
  return {
    kind: 'unit', seq: Number(r.seq), id: r.id, agentId: r.agent_id, name: r.title, description: r.description, tags: r.tags, domain: r.domain,
    body: r.examples.join('\n'), qualityScore: r.quality_score, createdAt: r.created_at, type: r.type as UnitType,
  };
}

export async function searchItems(db: Queryable, kind: SearchKind, afterSeq: number, limit: number): Promise<SearchItem[]> {
  if (kind === 'skill') return (await run<SkillItemRow>(db, `${SKILL_ITEM} WHERE s.seq > $1 ORDER BY s.seq LIMIT $2`, [afterSeq, limit])).rows.map(skillItem);
  return (await run<UnitItemRow>(db, `${UNIT_ITEM} WHERE ku.seq > $1 ORDER BY ku.seq LIMIT $2`, [afterSeq, limit])).rows.map(unitItem);
}

export async function searchItemsBySeq(db: Queryable, kind: SearchKind, seqs: readonly number[]): Promise<SearchItem[]> {
  if (seqs.length === 0) return [];
  if (kind === 'skill') return (await run<SkillItemRow>(db, `${SKILL_ITEM} WHERE s.seq = ANY($1::bigint[])`, [seqs])).rows.map(skillItem);
  return (await run<UnitItemRow>(db, `${UNIT_ITEM} WHERE ku.seq = ANY($1::bigint[])`, [seqs])).rows.map(unitItem);
}

export async function searchChanges(db: Queryable, afterSeq: number, limit: number): Promise<SearchChange[]> {
  const found = await run<{ seq: string; kind: SearchKind; item_seq: string }>(
    db,
    'SELECT seq, kind, item_seq FROM search_changes WHERE seq > $1 ORDER BY seq LIMIT $2',
    [afterSeq, limit],
  );
  return found.rows.map((c) => ({ seq: Number(c.seq), kind: c.kind, itemSeq: Number(c.item_seq) }));
}

export async function searchChangeBounds(db: Queryable): Promise<{ first: number; last: number }> {
  const [bounds] = (await run<{ first: string; last: string }>(db, 'SELECT coalesce(min(seq), 0) AS first, coalesce(max(seq), 0) AS last FROM search_changes')).rows;
  return { first: Number(bounds!.first), last: Number(bounds!.last) };
}

export async function purgeSearchChanges(db: Queryable, beforeSeq: number): Promise<number> {
  return (await run(db, 'DELETE FROM search_changes WHERE seq < $1', [beforeSeq])).rowCount ?? 0;
}

const toVector = (bytes: Buffer) => new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

export async function itemVectors(db: Queryable, kind: SearchKind, model: string, afterSeq: number, limit: number): Promise<{ seq: number; vector: Float32Array }[]> {
  const found = await run<{ item_seq: string; vector: Buffer }>(
    db,
    'SELECT item_seq, vector FROM search_vectors WHERE kind = $1 AND model = $2 AND item_seq > $3 ORDER BY item_seq LIMIT $4',
    [kind, model, afterSeq, limit],
  );
  return found.rows.map((r) => ({ seq: Number(r.item_seq), vector: toVector(r.vector) }));
}

const WITHOUT_VECTOR = (kind: SearchKind, alias: string) =>
  `NOT EXISTS (SELECT 1 FROM search_vectors sv WHERE sv.kind = '${kind}' AND sv.item_seq = ${alias}.seq AND sv.model = $1)`;

export async function itemsWithoutVectors(db: Queryable, kind: SearchKind, model: string, limit: number): Promise<SearchItem[]> {
  if (kind === 'skill') {
    const sql = `${SKILL_ITEM} WHERE s.latest_version_seq IS NOT NULL AND ${WITHOUT_VECTOR('skill', 's')} ORDER BY s.seq LIMIT $2`;
    return (await run<SkillItemRow>(db, sql, [model, limit])).rows.map(skillItem);
  }
  return (await run<UnitItemRow>(db, `${UNIT_ITEM} WHERE ${WITHOUT_VECTOR('unit', 'ku')} ORDER BY ku.seq LIMIT $2`, [model, limit])).rows.map(unitItem);
}

export async function countItemsWithoutVectors(db: Queryable, kind: SearchKind, model: string): Promise<number> {
  const sql =
    kind === 'skill'
      ? `SELECT count(*) AS n FROM skills s WHERE s.latest_version_seq IS NOT NULL AND ${WITHOUT_VECTOR('skill', 's')}`
      : `SELECT count(*) AS n FROM knowledge_units ku WHERE ${WITHOUT_VECTOR('unit', 'ku')}`;
  return Number((await run<{ n: string }>(db, sql, [model])).rows[0]!.n);
}

export async function saveVectors(db: Queryable, kind: SearchKind, model: string, vectors: readonly { seq: number; vector: Float32Array }[]): Promise<void> {
  if (vectors.length === 0) return;
  const table = kind === 'skill' ? 'skills' : 'knowledge_units';
  await run(
    db,
    `INSERT INTO search_vectors (kind, item_seq, model, vector)
     SELECT $1, t.seq, $2, t.vector FROM unnest($3::bigint[], $4::bytea[]) AS t(seq, vector)
     WHERE EXISTS (SELECT 1 FROM ${table} i WHERE i.seq = t.seq)
     ON CONFLICT (kind, item_seq, model) DO UPDATE SET vector = excluded.vector`,
    [kind, model, vectors.map((v) => v.seq), vectors.map((v) => Buffer.from(v.vector.buffer, v.vector.byteOffset, v.vector.byteLength))],
  );
}

export async function skillSummariesBySeq(db: Queryable, seqs: readonly number[]): Promise<SkillSummary[]> {
  if (seqs.length === 0) return [];
  const found = await run<skillRows.SkillSummaryRow & { seq: string }>(
    db,
    `SELECT s.seq, ${skillRows.SKILL_SUMMARY_COLUMNS} FROM skills s WHERE s.seq = ANY($1::bigint[])`,
    [seqs],
  );
  const bySeq = new Map(found.rows.map((r) => [Number(r.seq), skillRows.toSkillSummary(r, rows.postgresDecode)]));
  return seqs.flatMap((seq) => bySeq.get(seq) ?? []);
}

export async function unitSummariesBySeq(db: Queryable, seqs: readonly number[]): Promise<UnitSummary[]> {
  if (seqs.length === 0) return [];
  const found = await run<rows.UnitRow & { seq: string }>(
    db,
    `SELECT ku.seq, ${UNIT_SUMMARY_COLUMNS} FROM knowledge_units ku WHERE ku.seq = ANY($1::bigint[])`,
    [seqs],
  );
  const bySeq = new Map(found.rows.map((r) => [Number(r.seq), summarizeUnit(rows.toUnit(r, rows.postgresDecode))]));
  return seqs.flatMap((seq) => bySeq.get(seq) ?? []);
}

// ---- the SearchFeed methods ------------------------------------------------------------------------

/**
 * The SearchFeed half of PostgresStore, which extends it (as Store extends SearchFeed): each method calls
 * the function of the same name above on the store's pool.
 */
export abstract class PostgresSearchFeed implements SearchFeed {
  protected abstract readonly pool: Pool;

  searchItems(kind: SearchKind, afterSeq: number, limit: number): Promise<SearchItem[]> {
    return searchItems(this.pool, kind, afterSeq, limit);
  }

  searchItemsBySeq(kind: SearchKind, seqs: readonly number[]): Promise<SearchItem[]> {
    return searchItemsBySeq(this.pool, kind, seqs);
  }

  searchChanges(afterSeq: number, limit: number): Promise<SearchChange[]> {
    return searchChanges(this.pool, afterSeq, limit);
  }

  searchChangeBounds(): Promise<{ first: number; last: number }> {
    return searchChangeBounds(this.pool);
  }

  purgeSearchChanges(beforeSeq: number): Promise<number> {
    return purgeSearchChanges(this.pool, beforeSeq);
  }

  itemVectors(kind: SearchKind, model: string, afterSeq: number, limit: number): Promise<{ seq: number; vector: Float32Array }[]> {
    return itemVectors(this.pool, kind, model, afterSeq, limit);
  }

  itemsWithoutVectors(kind: SearchKind, model: string, limit: number): Promise<SearchItem[]> {
    return itemsWithoutVectors(this.pool, kind, model, limit);
  }

  countItemsWithoutVectors(kind: SearchKind, model: string): Promise<number> {
    return countItemsWithoutVectors(this.pool, kind, model);
  }

  saveVectors(kind: SearchKind, model: string, vectors: readonly { seq: number; vector: Float32Array }[]): Promise<void> {
    return saveVectors(this.pool, kind, model, vectors);
  }

  skillSummariesBySeq(seqs: readonly number[]): Promise<SkillSummary[]> {
    return skillSummariesBySeq(this.pool, seqs);
  }

  unitSummariesBySeq(seqs: readonly number[]): Promise<UnitSummary[]> {
    return unitSummariesBySeq(this.pool, seqs);
  }
}
