// What the search index reads from SQLite (see SearchFeed in ../store.ts): items in keyset batches, the
// change log the migration-7 triggers keep, vectors per embedding model, and summaries by sequence; and
// SqliteSearchFeed, those functions as the SearchFeed methods SqliteStore inherits.
import type { UnitType, Visibility } from '../../domain/model.js';
import { summarizeUnit, type SkillSummary, type UnitSummary } from '../../domain/summaries.js';
import * as rows from '../rows.js';
import * as skillRows from '../skill-rows.js';
import type { IdempotentResponse, SearchChange, SearchFeed, SearchItem, SearchKind } from '../store.js';
import type { Prepare } from './connection.js';
import { UNIT_SUMMARY_COLUMNS } from './lists.js';

const SKILL_ITEM = `SELECT s.seq, s.id, s.name, s.display_name, s.description, s.tags, s.domain, coalesce(v.body, '') AS body,
  s.quality_score, s.created_at, s.visibility, s.agent_id, s.latest_version_seq IS NOT NULL AS listed, s.conformant
  FROM skills s LEFT JOIN skill_versions v ON v.seq = s.latest_version_seq`;
const UNIT_ITEM = `SELECT ku.seq, ku.id, ku.agent_id, ku.title, ku.description, ku.tags, ku.domain, ku.examples, ku.quality_score, ku.created_at, ku.type
  FROM knowledge_units ku`;

interface SkillItemRow {
  seq: number; id: string; name: string; display_name: string; description: string; tags: string; domain: string | null; body: string;
  quality_score: number; created_at: string; visibility: string; agent_id: string; listed: number; conformant: number;
}
interface UnitItemRow {
  seq: number; id: string; agent_id: string; title: string; description: string; tags: string; domain: string; examples: string;
  quality_score: number; created_at: string; type: string;
}

function skillItem(r: SkillItemRow): SearchItem {
  return {
    kind: 'skill', seq: r.seq, id: r.id, name: r.display_name && r.display_name !== r.name ? `${r.name} ${r.display_name}` : r.name,
    description: r.description, tags: JSON.parse(r.tags) as string[], domain: r.domain, body: r.body, qualityScore: r.quality_score,
    createdAt: r.created_at, visibility: r.visibility as Visibility, agentId: r.agent_id, listed: r.listed === 1, conformant: r.conformant === 1,
  };
}

function unitItem(r: UnitItemRow): SearchItem {
  return {
    kind: 'unit', seq: r.seq, id: r.id, agentId: r.agent_id, name: r.title, description: r.description, tags: JSON.parse(r.tags) as string[], domain: r.domain,
    body: (JSON.parse(r.examples) as string[]).join('\n'), qualityScore: r.quality_score, createdAt: r.created_at, type: r.type as UnitType,
  };
}

const seqList = (seqs: readonly number[]) => `(${seqs.map(() => '?').join(', ')})`;

export function searchItems(prepare: Prepare, kind: SearchKind, afterSeq: number, limit: number): SearchItem[] {
  if (kind === 'skill') return (prepare(`${SKILL_ITEM} WHERE s.seq > ? ORDER BY s.seq LIMIT ?`).all(afterSeq, limit) as SkillItemRow[]).map(skillItem);
  return (prepare(`${UNIT_ITEM} WHERE ku.seq > ? ORDER BY ku.seq LIMIT ?`).all(afterSeq, limit) as UnitItemRow[]).map(unitItem);
}

export function searchItemsBySeq(prepare: Prepare, kind: SearchKind, seqs: readonly number[]): SearchItem[] {
  if (seqs.length === 0) return [];
  if (kind === 'skill') return (prepare(`${SKILL_ITEM} WHERE s.seq IN ${seqList(seqs)}`).all(...seqs) as SkillItemRow[]).map(skillItem);
  return (prepare(`${UNIT_ITEM} WHERE ku.seq IN ${seqList(seqs)}`).all(...seqs) as UnitItemRow[]).map(unitItem);
}

export function searchChanges(prepare: Prepare, afterSeq: number, limit: number): SearchChange[] {
  const found = prepare('SELECT seq, kind, item_seq FROM search_changes WHERE seq > ? ORDER BY seq LIMIT ?').all(afterSeq, limit) as {
    seq: number;
    kind: SearchKind;
    item_seq: number;
  }[];
  return found.map((c) => ({ seq: c.seq, kind: c.kind, itemSeq: c.item_seq }));
}

export function searchChangeBounds(prepare: Prepare): { first: number; last: number } {
  // One aggregate per subquery: SQLite reads min() or max() off the primary key only when it is alone.
  const bounds = prepare(
    'SELECT coalesce((SELECT min(seq) FROM search_changes), 0) AS first, coalesce((SELECT max(seq) FROM search_changes), 0) AS last',
  ).get() as { first: number; last: number };
  return bounds;
}

export function purgeSearchChanges(prepare: Prepare, beforeSeq: number): number {
  return prepare('DELETE FROM search_changes WHERE seq < ?').run(beforeSeq).changes;
}

const toVector = (blob: Buffer) => new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));

export function itemVectors(prepare: Prepare, kind: SearchKind, model: string, afterSeq: number, limit: number): { seq: number; vector: Float32Array }[] {
  const found = prepare('SELECT item_seq, vector FROM search_vectors WHERE kind = ? AND model = ? AND item_seq > ? ORDER BY item_seq LIMIT ?').all(
    kind,
    model,
    afterSeq,
    limit,
  ) as { item_seq: number; vector: Buffer }[];
  return found.map((r) => ({ seq: r.item_seq, vector: toVector(r.vector) }));
}

const WITHOUT_VECTOR = (kind: SearchKind, alias: string) =>
  `NOT EXISTS (SELECT 1 FROM search_vectors sv WHERE sv.kind = '${kind}' AND sv.item_seq = ${alias}.seq AND sv.model = ?)`;

export function itemsWithoutVectors(prepare: Prepare, kind: SearchKind, model: string, limit: number): SearchItem[] {
  if (kind === 'skill') {
    const sql = `${SKILL_ITEM} WHERE s.latest_version_seq IS NOT NULL AND ${WITHOUT_VECTOR('skill', 's')} ORDER BY s.seq LIMIT ?`;
    return (prepare(sql).all(model, limit) as SkillItemRow[]).map(skillItem);
  }
  return (prepare(`${UNIT_ITEM} WHERE ${WITHOUT_VECTOR('unit', 'ku')} ORDER BY ku.seq LIMIT ?`).all(model, limit) as UnitItemRow[]).map(unitItem);
}

export function countItemsWithoutVectors(prepare: Prepare, kind: SearchKind, model: string): number {
  const sql =
    kind === 'skill'
      ? `SELECT count(*) FROM skills s WHERE s.latest_version_seq IS NOT NULL AND ${WITHOUT_VECTOR('skill', 's')}`
      : `SELECT count(*) FROM knowledge_units ku WHERE ${WITHOUT_VECTOR('unit', 'ku')}`;
  return prepare(sql).pluck().get(model) as number;
}

export function saveVectors(prepare: Prepare, kind: SearchKind, model: string, vectors: readonly { seq: number; vector: Float32Array }[]): void {
  const table = kind === 'skill' ? 'skills' : 'knowledge_units';
  const save = prepare(
    `INSERT INTO search_vectors (kind, item_seq, model, vector) SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM ${table} WHERE seq = ?)
     ON CONFLICT (kind, item_seq, model) DO UPDATE SET vector = excluded.vector`,
  );
  for (const { seq, vector } of vectors) save.run(kind, seq, model, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), seq);
}

/** Summaries in the order of `seqs` (sequences no longer there are left out). */
export function skillSummariesBySeq(prepare: Prepare, seqs: readonly number[]): SkillSummary[] {
  if (seqs.length === 0) return [];
  const found = prepare(`SELECT s.seq, ${skillRows.SKILL_SUMMARY_COLUMNS} FROM skills s WHERE s.seq IN ${seqList(seqs)}`).all(...seqs) as (skillRows.SkillSummaryRow & {
    seq: number;
  })[];
  const bySeq = new Map(found.map((r) => [r.seq, skillRows.toSkillSummary(r, rows.sqliteDecode)]));
  return seqs.flatMap((seq) => bySeq.get(seq) ?? []);
}

export function unitSummariesBySeq(prepare: Prepare, seqs: readonly number[]): UnitSummary[] {
  if (seqs.length === 0) return [];
  const found = prepare(`SELECT ku.seq, ${UNIT_SUMMARY_COLUMNS} FROM knowledge_units ku WHERE ku.seq IN ${seqList(seqs)}`).all(...seqs) as (rows.UnitRow & {
    seq: number;
  })[];
  const bySeq = new Map(found.map((r) => [r.seq, summarizeUnit(rows.toUnit(r, rows.sqliteDecode))]));
  return seqs.flatMap((seq) => bySeq.get(seq) ?? []);
}

// ---- the SearchFeed methods ------------------------------------------------------------------------

/**
 * The SearchFeed half of SqliteStore, which extends it (as Store extends SearchFeed): each method calls
 * the function of the same name above, reading on the writer's connection and writing in a group commit.
 */
export abstract class SqliteSearchFeed implements SearchFeed {
  protected abstract readonly prepare: Prepare;
  protected abstract write<T>(work: (prepare: Prepare) => T, response?: IdempotentResponse): Promise<T>;

  async searchItems(kind: SearchKind, afterSeq: number, limit: number): Promise<SearchItem[]> {
    return searchItems(this.prepare, kind, afterSeq, limit);
  }

  async searchItemsBySeq(kind: SearchKind, seqs: readonly number[]): Promise<SearchItem[]> {
    return searchItemsBySeq(this.prepare, kind, seqs);
  }

  async searchChanges(afterSeq: number, limit: number): Promise<SearchChange[]> {
    return searchChanges(this.prepare, afterSeq, limit);
  }

  async searchChangeBounds(): Promise<{ first: number; last: number }> {
    return searchChangeBounds(this.prepare);
  }

  purgeSearchChanges(beforeSeq: number): Promise<number> {
    return this.write((prepare) => purgeSearchChanges(prepare, beforeSeq));
  }

  async itemVectors(kind: SearchKind, model: string, afterSeq: number, limit: number): Promise<{ seq: number; vector: Float32Array }[]> {
    return itemVectors(this.prepare, kind, model, afterSeq, limit);
  }

  async itemsWithoutVectors(kind: SearchKind, model: string, limit: number): Promise<SearchItem[]> {
    return itemsWithoutVectors(this.prepare, kind, model, limit);
  }

  async countItemsWithoutVectors(kind: SearchKind, model: string): Promise<number> {
    return countItemsWithoutVectors(this.prepare, kind, model);
  }

  saveVectors(kind: SearchKind, model: string, vectors: readonly { seq: number; vector: Float32Array }[]): Promise<void> {
    return this.write((prepare) => saveVectors(prepare, kind, model, vectors));
  }

  async skillSummariesBySeq(seqs: readonly number[]): Promise<SkillSummary[]> {
    return skillSummariesBySeq(this.prepare, seqs);
  }

  async unitSummariesBySeq(seqs: readonly number[]): Promise<UnitSummary[]> {
    return unitSummariesBySeq(this.prepare, seqs);
  }
}
