// What the search index reads, once for every backend: items in keyset batches, the change log that
// triggers keep for every write, and item vectors per embedding model. (Summaries by sequence are the
// skill and unit reads'; purging the log and saving vectors are each backend's writes.)
import type { UnitType, Visibility } from '../../domain/model.js';
import { byDialect, oneOf, raw, sql, type Db, type Sql } from '../sql.js';
import { countUnits } from './units.js';
import type { SearchChange, SearchFeed, SearchItem, SearchKind } from '../store.js';

const SKILL_ITEM =
  raw(`SELECT s.seq, s.id, s.name, s.display_name, s.description, s.tags, s.domain, coalesce(v.body, '') AS body,
  s.quality_score, s.created_at, s.visibility, s.agent_id, s.latest_version_seq IS NOT NULL AS listed, s.conformant
  FROM skills s LEFT JOIN skill_versions v ON v.seq = s.latest_version_seq`);
const UNIT_ITEM =
  raw(`SELECT ku.seq, ku.id, ku.agent_id, ku.title, ku.description, ku.tags, ku.domain, ku.examples, ku.quality_score,
  ku.created_at, ku.type FROM knowledge_units ku`);

/** The columns skills and units share, as the index names them. */
interface ItemRow {
  seq: number | string;
  id: string;
  agent_id: string;
  description: string;
  tags: unknown;
  domain: string | null;
  quality_score: number;
  created_at: string;
}
interface SkillItemRow extends ItemRow {
  name: string;
  display_name: string;
  body: string;
  visibility: string;
  listed: unknown;
  conformant: unknown;
}
interface UnitItemRow extends ItemRow {
  title: string;
  examples: unknown;
  type: string;
}

/** The items of a kind that the condition admits, in sequence order (a skill is indexed by its name and display name). */
function items(db: Db, kind: SearchKind, condition: Sql, tail: Sql = raw('')): Promise<SearchItem[]> {
  const d = db.decode;
  const item = (r: ItemRow, name: string, body: string) => ({
    kind,
    seq: Number(r.seq),
    id: r.id,
    agentId: r.agent_id,
    name,
    description: r.description,
    tags: d.strings(r.tags),
    domain: r.domain,
    body,
    qualityScore: r.quality_score,
    createdAt: r.created_at,
  });
  if (kind === 'skill') {
    return db.all<SkillItemRow>(sql`${SKILL_ITEM} WHERE ${condition} ORDER BY s.seq ${tail}`).then((found) =>
      found.map((r) => ({
        ...item(r, r.display_name && r.display_name !== r.name ? `${r.name} ${r.display_name}` : r.name, r.body),
        visibility: r.visibility as Visibility,
        listed: d.bool(r.listed),
        conformant: d.bool(r.conformant),
      })),
    );
  }
  return db
    .all<UnitItemRow>(sql`${UNIT_ITEM} WHERE ${condition} ORDER BY ku.seq ${tail}`)
    .then((found) =>
      found.map((r) => ({ ...item(r, r.title, d.strings(r.examples).join('\n')), type: r.type as UnitType })),
    );
}

const alias = (kind: SearchKind) => raw(kind === 'skill' ? 's' : 'ku');
/** An item without a vector of `model`; a skill counts only while it is listed. */
const withoutVector = (kind: SearchKind, model: string) =>
  sql`${kind === 'skill' ? sql`s.latest_version_seq IS NOT NULL AND ` : raw('')}NOT EXISTS (SELECT 1 FROM search_vectors sv
    WHERE sv.kind = ${kind} AND sv.item_seq = ${alias(kind)}.seq AND sv.model = ${model})`;
const toVector = (bytes: Uint8Array) =>
  new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
/** SQLite reads min() or max() off the primary key only when it is alone in its query. */
const BOUNDS = byDialect({
  sqlite: raw(
    'SELECT coalesce((SELECT min(seq) FROM search_changes), 0) AS first, coalesce((SELECT max(seq) FROM search_changes), 0) AS last',
  ),
  postgres: raw('SELECT coalesce(min(seq), 0) AS first, coalesce(max(seq), 0) AS last FROM search_changes'),
});

export type SearchFeedReads = Omit<
  SearchFeed,
  'purgeSearchChanges' | 'saveVectors' | 'skillSummariesBySeq' | 'unitSummariesBySeq'
>;

export function searchFeedReads(db: Db): SearchFeedReads {
  return {
    searchItems: (kind, afterSeq, limit) => items(db, kind, sql`${alias(kind)}.seq > ${afterSeq}`, sql`LIMIT ${limit}`),
    searchItemsBySeq: async (kind, seqs) =>
      seqs.length === 0 ? [] : items(db, kind, oneOf(sql`${alias(kind)}.seq`, seqs, 'bigint')),
    async countSearchItems(kind) {
      if (kind === 'unit') return countUnits(db);
      return Number((await db.get<{ n: number | string }>(sql`SELECT count(*) AS n FROM skills`))!.n);
    },
    async searchChanges(afterSeq, limit): Promise<SearchChange[]> {
      const found = await db.all<{ seq: number | string; kind: SearchKind; item_seq: number | string }>(
        sql`SELECT seq, kind, item_seq FROM search_changes WHERE seq > ${afterSeq} ORDER BY seq LIMIT ${limit}`,
      );
      return found.map((c) => ({ seq: Number(c.seq), kind: c.kind, itemSeq: Number(c.item_seq) }));
    },
    async searchChangeBounds() {
      const bounds = (await db.get<{ first: number | string; last: number | string }>(BOUNDS))!;
      return { first: Number(bounds.first), last: Number(bounds.last) };
    },
    async itemVectors(kind, model, afterSeq, limit) {
      const found = await db.all<{ item_seq: number | string; vector: Uint8Array }>(
        sql`SELECT item_seq, vector FROM search_vectors WHERE kind = ${kind} AND model = ${model} AND item_seq > ${afterSeq}
          ORDER BY item_seq LIMIT ${limit}`,
      );
      return found.map((r) => ({ seq: Number(r.item_seq), vector: toVector(r.vector) }));
    },
    itemsWithoutVectors: (kind, model, limit) => items(db, kind, withoutVector(kind, model), sql`LIMIT ${limit}`),
    async countItemsWithoutVectors(kind, model) {
      const table = raw(kind === 'skill' ? 'skills s' : 'knowledge_units ku');
      return Number(
        (await db.get<{ n: number | string }>(
          sql`SELECT count(*) AS n FROM ${table} WHERE ${withoutVector(kind, model)}`,
        ))!.n,
      );
    },
  };
}
