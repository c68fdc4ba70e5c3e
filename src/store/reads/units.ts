// Knowledge units, read once for every backend: one unit whole, lists of summaries with exact totals in
// the list order, the newest units, and summaries by sequence for a search's page. A summary reads each
// unit's text only a character past what it shows (enough to know it was cut), so a page of units that
// are large in full stays small in memory.
import {
  SUMMARY_DESCRIPTION_CHARS,
  SUMMARY_EXAMPLE_CHARS,
  SUMMARY_EXAMPLES,
  summarizeUnit,
  type UnitSummary,
} from '../../domain/summaries.js';
import type { RecentUnitQuery } from '../recent-queries.js';
import * as rows from '../rows.js';
import { byDialect, oneOf, raw, rowsInSeqOrder, sql, where, type Db, type Sql } from '../sql.js';
import type { Page, UnitQuery, UnitStore } from '../store.js';

const CUT_DESCRIPTION = SUMMARY_DESCRIPTION_CHARS + 1;
const CUT_EXAMPLE = SUMMARY_EXAMPLE_CHARS + 1;
const CUT_EXAMPLES = SUMMARY_EXAMPLES + 1;

/** The unit columns of a summary: the description and the first examples cut a character past the summary's bounds. */
export const UNIT_SUMMARY = byDialect({
  sqlite: raw(
    rows.UNIT_COLUMNS.replace(
      'ku.description, ku.examples',
      `substr(ku.description, 1, ${CUT_DESCRIPTION}) AS description,
      (SELECT json_group_array(substr(value, 1, ${CUT_EXAMPLE})) FROM
        (SELECT value FROM json_each(ku.examples) ORDER BY key LIMIT ${CUT_EXAMPLES})) AS examples`,
    ),
  ),
  postgres: raw(
    rows.UNIT_COLUMNS.replace(
      'ku.description, ku.examples',
      `left(ku.description, ${CUT_DESCRIPTION}) AS description,
      coalesce((SELECT jsonb_agg(left(e.v, ${CUT_EXAMPLE}) ORDER BY e.n)
        FROM jsonb_array_elements_text(ku.examples) WITH ORDINALITY AS e(v, n) WHERE e.n <= ${CUT_EXAMPLES}), '[]'::jsonb) AS examples`,
    ),
  ),
});

const ORDER = raw('ku.quality_score DESC, ku.created_at DESC, ku.id DESC');

/** The filters of a unit list, on `alias` (`ku` for knowledge_units, `c` for unit_counts). */
function filters(query: UnitQuery, alias: string, withQuality: boolean): Sql[] {
  const conditions: Sql[] = [];
  if (query.types.length > 0) conditions.push(oneOf(raw(`${alias}.type`), query.types, 'text'));
  if (query.domain !== undefined) conditions.push(sql`${raw(alias)}.domain = ${query.domain}`);
  if (withQuality && query.minQuality !== undefined)
    conditions.push(sql`${raw(alias)}.quality_score >= ${query.minQuality}`);
  return conditions;
}

/** Units per (domain, type, quality bucket): on PostgreSQL the counts and the changes not folded into them yet. */
const COUNTS = byDialect({
  sqlite: raw('unit_counts c'),
  postgres: raw(
    '(SELECT domain, type, bucket, n FROM unit_counts UNION ALL SELECT domain, type, bucket, n FROM unit_count_changes) c',
  ),
});

/** The quality bucket of a score, floor(q × 100), as the counts' triggers compute it. */
const bucketOf = (score: Sql) =>
  byDialect({ sqlite: sql`CAST(${score} * 100 AS INTEGER)`, postgres: sql`floor(${score}::float8 * 100)::integer` });

/**
 * The exact number of units a list's filters admit, without counting every row: the store keeps how many
 * units each (domain, type, quality bucket) holds, exact in every transaction (SQLite: unit_counts, kept by
 * triggers; PostgreSQL: unit_counts and the changes appended since the last fold, postgres/unit-counts.ts).
 * Whole buckets are summed, and only the bucket min_quality cuts through is counted row by row over a
 * short index range: its part above the floor, or its part below it taken off the bucket's count, whichever
 * is shorter.
 */
async function unitTotal(db: Db, query: UnitQuery): Promise<number> {
  const count = async (q: Sql) => Number((await db.get<{ n: number | string }>(q, { adHoc: true }))!.n);
  const { whole, edge } = totalSources(query);
  const buckets = await count(sql`SELECT coalesce(sum(c.n), 0) AS n ${whole}`);
  return edge ? buckets + edge.sign * (await count(sql`SELECT count(*) AS n ${edge.rows}`)) : buckets;
}

/**
 * Where a total's two parts read: the whole buckets, and the units of the bucket min_quality cuts through,
 * counted row by row (none without min_quality), with the sign they take in the total. A floor near its
 * bucket's start (0.6, and every floor of two decimals) counts the few units of the bucket below it and
 * takes them off the bucket's count; a floor near its bucket's end counts the few above it.
 */
function totalSources(query: UnitQuery): { whole: Sql; edge?: { sign: 1 | -1; rows: Sql } } {
  const buckets = filters(query, 'c', false);
  if (query.minQuality === undefined) return { whole: sql`FROM ${COUNTS} ${where(buckets)}` };
  const floor = query.minQuality;
  const bucket = bucketOf(sql`${floor}`);
  // Only which side is shorter is decided here; the bucket condition in SQL decides membership exactly.
  const below = floor * 100 - Math.floor(floor * 100) < 0.5;
  const inBucket = (range: Sql): Sql =>
    sql`FROM knowledge_units ku ${where([
      range,
      sql`${bucketOf(raw('ku.quality_score'))} = ${bucket}`,
      ...filters(query, 'ku', false),
    ])}`;
  // The range's outer bound only narrows the index range (the bucket's edge, and a margin far wider than
  // the rounding of score × 100).
  return below
    ? {
        whole: sql`FROM ${COUNTS} ${where([sql`c.bucket >= ${bucket}`, ...buckets])}`,
        edge: {
          sign: -1,
          rows: inBucket(sql`ku.quality_score >= ${bucket} / 100.0 - 0.000001 AND ku.quality_score < ${floor}`),
        },
      }
    : {
        whole: sql`FROM ${COUNTS} ${where([sql`c.bucket > ${bucket}`, ...buckets])}`,
        edge: {
          sign: 1,
          rows: inBucket(sql`ku.quality_score >= ${floor} AND ku.quality_score < (${bucket} + 1) / 100.0 + 0.000001`),
        },
      };
}

/** How many units there are, from the bucket counts: no scan of a million rows on the event loop. */
export const countUnits = (db: Db): Promise<number> => unitTotal(db, { types: [], limit: 0, offset: 0 });

/** A page of units in the list order. */
const unitPage = (query: UnitQuery) =>
  sql`SELECT ${UNIT_SUMMARY} FROM knowledge_units ku ${where(filters(query, 'ku', true))} ORDER BY ${ORDER}
    LIMIT ${query.limit} OFFSET ${query.offset}`;

/**
 * On PostgreSQL the total and the page in one statement: one snapshot and one round trip instead of a
 * read-only transaction and three. The total is computed once (MATERIALIZED), the page read only when the
 * total reaches past the offset, and a total with no page comes back as one row of NULLs.
 */
async function listInOneStatement(db: Db, query: UnitQuery): Promise<{ total: number; rows: rows.UnitRow[] }> {
  const { whole, edge } = totalSources(query);
  const total = sql`(SELECT coalesce(sum(c.n), 0) ${whole})${
    edge ? sql` ${raw(edge.sign > 0 ? '+' : '-')} (SELECT count(*) ${edge.rows})` : raw('')
  }`;
  const found = await db.all<rows.UnitRow & { list_total: string | number }>(
    sql`WITH total AS MATERIALIZED (SELECT ${total} AS n)
    SELECT total.n AS list_total, page.* FROM total
    LEFT JOIN LATERAL (${unitPage(query)}) page ON total.n > ${query.offset}
    ORDER BY page.quality_score DESC, page.created_at DESC, page.id DESC`,
    { adHoc: true },
  );
  return { total: Number(found[0]!.list_total), rows: found.filter((row) => row.id !== null) };
}

export type UnitReads = Pick<UnitStore, 'getUnit' | 'listUnits' | 'recentUnits' | 'unitSummariesBySeq'>;

export function unitReads(db: Db): UnitReads {
  const summary = (row: rows.UnitRow): UnitSummary => summarizeUnit(rows.toUnit(row, db.decode));
  return {
    async getUnit(id) {
      const row = await db.get<rows.UnitRow>(
        sql`SELECT ${raw(rows.UNIT_COLUMNS)} FROM knowledge_units ku WHERE ku.id = ${id}`,
      );
      return row ? rows.toUnit(row, db.decode) : null;
    },

    /** The total and the page, on one snapshot; the page straight off the index that ends in the list order. */
    async listUnits(query: UnitQuery): Promise<Page<UnitSummary>> {
      if (db.dialect === 'postgres') {
        const { total, rows: found } = await listInOneStatement(db, query);
        return { items: found.map(summary), total };
      }
      return db.snapshot(async (db) => {
        const total = await unitTotal(db, query);
        if (total <= query.offset) return { items: [], total };
        return { items: (await db.all<rows.UnitRow>(unitPage(query), { adHoc: true })).map(summary), total };
      });
    },

    /** Newest first by first publication (the row's seq): the key gives the order, the cost follows the page. */
    async recentUnits(query: RecentUnitQuery) {
      const byAgent = query.agentId === undefined ? [] : [sql`ku.agent_id = ${query.agentId}`];
      const found = await db.all<rows.UnitRow>(
        sql`SELECT ${UNIT_SUMMARY} FROM knowledge_units ku ${where(byAgent)} ORDER BY ku.seq DESC LIMIT ${query.limit}`,
      );
      return found.map(summary);
    },

    /** Summaries in the order of `seqs` (sequences no longer there are left out). */
    unitSummariesBySeq(seqs) {
      return rowsInSeqOrder(db, sql`SELECT ku.seq, ${UNIT_SUMMARY} FROM knowledge_units ku`, 'ku.seq', seqs, summary);
    },
  };
}
