// What the search index reads, once for every backend: items in keyset batches, the change log that
// triggers keep for every write, and item vectors per embedding model. (Summaries by sequence are the
// skill and unit reads'; purging the log and saving vectors are each backend's writes.)
import type { UnitType, Visibility } from '../../domain/model.js';
import { byDialect, oneOf, raw, sql, type Db, type Sql } from '../sql.js';
import { countUnits } from './units.js';
import type { ChangeRead, LogPosition, SearchFeed, SearchItem, SearchKind } from '../store.js';

const SKILL_ITEM =
  raw(`SELECT s.seq, s.id, s.name, s.display_name, s.description, s.tags, s.domain, coalesce(v.body, '') AS body,
  s.quality_score, s.created_at, s.visibility, s.agent_id, s.latest_version_seq IS NOT NULL AS listed, s.conformant,
  (s.held_at IS NOT NULL OR s.version_held = true) AS held
  FROM skills s LEFT JOIN skill_versions v ON v.seq = s.latest_version_seq`);
const UNIT_ITEM =
  raw(`SELECT ku.seq, ku.id, ku.agent_id, ku.title, ku.description, ku.tags, ku.domain, ku.examples, ku.quality_score,
  ku.created_at, ku.type, ku.held_at IS NOT NULL AS held FROM knowledge_units ku`);

/** The columns skills and units share, as the index names them. */
interface ItemRow {
  seq: number | string;
  held: unknown;
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
    held: d.bool(r.held),
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
/**
 * The change log's positions in each dialect (search/feed.ts): PostgreSQL orders by (tx, seq), and its
 * horizon is the oldest transaction still running; SQLite commits one write transaction at a time in the
 * order of `seq`, so its changes have tx 0 and are all settled.
 */
const LOG = {
  tx: byDialect({ sqlite: raw('0'), postgres: raw('c.tx') }),
  horizon: byDialect({
    sqlite: raw(String(Number.MAX_SAFE_INTEGER)),
    postgres: raw('pg_snapshot_xmin(pg_current_snapshot())::text::bigint'),
  }),
  after: (p: LogPosition) =>
    byDialect({ sqlite: sql`c.seq > ${p.seq}`, postgres: sql`(c.tx, c.seq) > (${p.tx}, ${p.seq})` }),
  through: (p: LogPosition) =>
    byDialect({ sqlite: sql`c.seq <= ${p.seq}`, postgres: sql`(c.tx, c.seq) <= (${p.tx}, ${p.seq})` }),
  order: byDialect({ sqlite: raw('c.seq'), postgres: raw('c.tx, c.seq') }),
  newest: byDialect({ sqlite: raw('c.seq DESC'), postgres: raw('c.tx DESC, c.seq DESC') }),
};

interface ChangeRow {
  horizon: number | string;
  purged_tx: number | string;
  purged_seq: number | string;
  tx: number | string | null;
  seq: number | string | null;
  kind: SearchKind | null;
  item_seq: number | string | null;
}

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
    /** One statement: the changes, the horizon and the purge mark come from one snapshot. */
    async searchChanges(after, limit, through): Promise<ChangeRead> {
      const range = through ? sql`${LOG.after(after)} AND ${LOG.through(through)}` : LOG.after(after);
      const found = await db.all<ChangeRow>(
        sql`SELECT ${LOG.horizon} AS horizon, m.log_purged_tx AS purged_tx, m.log_purged_seq AS purged_seq,
          c.tx, c.seq, c.kind, c.item_seq
        FROM registry_meta m LEFT JOIN (SELECT ${LOG.tx} AS tx, c.seq, c.kind, c.item_seq FROM search_changes c
          WHERE ${range} ORDER BY ${LOG.order} LIMIT ${limit}) c ON true
        ORDER BY c.tx, c.seq`,
      );
      const first = found[0]!;
      return {
        changes: found.flatMap((c) =>
          c.seq === null ? [] : [{ tx: Number(c.tx), seq: Number(c.seq), kind: c.kind!, itemSeq: Number(c.item_seq) }],
        ),
        horizon: Number(first.horizon),
        purged: { tx: Number(first.purged_tx), seq: Number(first.purged_seq) },
      };
    },
    async changeLogStart(): Promise<LogPosition> {
      if (db.dialect === 'sqlite') {
        const last = await db.get<{ seq: number }>(sql`SELECT coalesce(max(seq), 0) AS seq FROM search_changes`);
        return { tx: 0, seq: last!.seq };
      }
      const row = await db.get<{ horizon: string }>(sql`SELECT ${LOG.horizon} AS horizon`);
      return { tx: Number(row!.horizon), seq: 0 };
    },
    async holdsChange(position) {
      const found = await db.get(
        sql`SELECT 1 AS held FROM search_changes c WHERE c.seq = ${position.seq} AND ${LOG.tx} = ${position.tx}`,
      );
      return found !== undefined;
    },
    async changeLogState() {
      const row = (await db.get<{
        database_id: string;
        purged_tx: number | string;
        purged_seq: number | string;
        tx: number | string | null;
        seq: number | string | null;
      }>(
        sql`SELECT m.database_id, m.log_purged_tx AS purged_tx, m.log_purged_seq AS purged_seq, c.tx, c.seq
        FROM registry_meta m LEFT JOIN (SELECT ${LOG.tx} AS tx, c.seq FROM search_changes c ORDER BY ${LOG.newest} LIMIT 1) c ON true`,
      ))!;
      const purged = { tx: Number(row.purged_tx), seq: Number(row.purged_seq) };
      return {
        database: row.database_id,
        purged,
        last: row.seq === null ? purged : { tx: Number(row.tx), seq: Number(row.seq) },
      };
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
