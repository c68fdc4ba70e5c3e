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
import { allOf, type Condition } from '../../domain/filters.js';
import { conditionSql, conjunction, UNIT_COLUMNS } from './filters.js';

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

/** What a unit total can read from the bucket counts: the unit types (any of), the domain, a quality floor. */
interface BucketQuery {
  types: readonly string[];
  domain?: string;
  minQuality?: number;
}

/**
 * The visibility part of a unit list's condition (access.ts: not held, or the viewer's own) and the rest.
 * The bucket counts hold every unit, so a total counts the rest from them and takes off the held units the
 * viewer may not see, read row by row through the index of held units (there are few).
 */
function splitVisibility(condition: Condition): { hidden: Sql | null; rest: Condition } {
  const parts = 'and' in condition ? condition.and : [condition];
  const isNotHeld = (c: Condition) => 'attr' in c && c.attr === 'held' && 'equals' in c && c.equals === false;
  for (const [i, part] of parts.entries()) {
    let hidden: Sql | null = null;
    if (isNotHeld(part)) hidden = raw('ku.held_at IS NOT NULL');
    else if ('or' in part && part.or.length === 2 && isNotHeld(part.or[0]!)) {
      const own = part.or[1]!;
      if ('attr' in own && own.attr === 'publisher' && 'equals' in own)
        hidden = sql`ku.held_at IS NOT NULL AND ku.agent_id <> ${own.equals}`;
    }
    if (hidden) return { hidden, rest: allOf(parts.filter((_, j) => j !== i)) };
  }
  return { hidden: null, rest: condition };
}

/** The list's condition as bucket dimensions, when it is no more than that (else its total counts rows). */
function bucketQuery(condition: Condition): BucketQuery | null {
  const leaves = conjunction(condition);
  if (leaves === null) return null;
  const query: { types: string[]; domain?: string; minQuality?: number } = { types: [] };
  for (const leaf of leaves) {
    if (leaf.attr === 'type' && 'anyOf' in leaf && query.types.length === 0 && leaf.anyOf.length > 0)
      query.types = [...leaf.anyOf];
    else if (
      leaf.attr === 'domain' &&
      'equals' in leaf &&
      query.domain === undefined &&
      typeof leaf.equals === 'string'
    )
      query.domain = leaf.equals;
    else if (leaf.attr === 'quality' && 'atLeast' in leaf && query.minQuality === undefined)
      query.minQuality = leaf.atLeast;
    else return null;
  }
  return query;
}

/** The bucket dimensions of a total, on `alias` (`ku` for knowledge_units, `c` for unit_counts). */
function filters(query: BucketQuery, alias: string): Sql[] {
  const conditions: Sql[] = [];
  if (query.types.length > 0) conditions.push(oneOf(raw(`${alias}.type`), query.types, 'text'));
  if (query.domain !== undefined) conditions.push(sql`${raw(alias)}.domain = ${query.domain}`);
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
async function unitTotal(db: Db, condition: Condition): Promise<number> {
  const count = async (q: Sql) => Number((await db.get<{ n: number | string }>(q, { adHoc: true }))!.n);
  const { whole, edge, hidden } = totalSources(condition);
  const buckets = await count(sql`SELECT ${whole.sum} AS n ${whole.from}`);
  const edged = edge ? buckets + edge.sign * (await count(sql`SELECT count(*) AS n ${edge.rows}`)) : buckets;
  return hidden ? edged - (await count(sql`SELECT count(*) AS n ${hidden}`)) : edged;
}

/**
 * Where a total's two parts read: the whole buckets, and the units of the bucket min_quality cuts through,
 * counted row by row (none without min_quality), with the sign they take in the total. A floor near its
 * bucket's start (0.6, and every floor of two decimals) counts the few units of the bucket below it and
 * takes them off the bucket's count; a floor near its bucket's end counts the few above it. A condition
 * the buckets cannot answer (tags, say) is counted row by row, over its indexes.
 */
function totalSources(condition: Condition): {
  whole: { sum: Sql; from: Sql };
  edge?: { sign: 1 | -1; rows: Sql };
  /** The units the buckets count that the viewer may not see (held), to take off. */
  hidden?: Sql;
} {
  const { hidden, rest } = splitVisibility(condition);
  const query = bucketQuery(rest);
  if (query === null)
    return {
      whole: {
        sum: raw('count(*)'),
        from: sql`FROM knowledge_units ku WHERE ${conditionSql(condition, UNIT_COLUMNS)}`,
      },
    };
  const sources = bucketSources(query);
  return hidden === null
    ? sources
    : { ...sources, hidden: sql`FROM knowledge_units ku WHERE ${hidden} AND ${conditionSql(rest, UNIT_COLUMNS)}` };
}

function bucketSources(query: BucketQuery): { whole: { sum: Sql; from: Sql }; edge?: { sign: 1 | -1; rows: Sql } } {
  const sum = raw('coalesce(sum(c.n), 0)');
  const buckets = filters(query, 'c');
  if (query.minQuality === undefined) return { whole: { sum, from: sql`FROM ${COUNTS} ${where(buckets)}` } };
  const floor = query.minQuality;
  const bucket = bucketOf(sql`${floor}`);
  // Only which side is shorter is decided here; the bucket condition in SQL decides membership exactly.
  const below = floor * 100 - Math.floor(floor * 100) < 0.5;
  const inBucket = (range: Sql): Sql =>
    sql`FROM knowledge_units ku ${where([
      range,
      sql`${bucketOf(raw('ku.quality_score'))} = ${bucket}`,
      ...filters(query, 'ku'),
    ])}`;
  // The range's outer bound only narrows the index range (the bucket's edge, and a margin far wider than
  // the rounding of score × 100).
  return below
    ? {
        whole: { sum, from: sql`FROM ${COUNTS} ${where([sql`c.bucket >= ${bucket}`, ...buckets])}` },
        edge: {
          sign: -1,
          rows: inBucket(sql`ku.quality_score >= ${bucket} / 100.0 - 0.000001 AND ku.quality_score < ${floor}`),
        },
      }
    : {
        whole: { sum, from: sql`FROM ${COUNTS} ${where([sql`c.bucket > ${bucket}`, ...buckets])}` },
        edge: {
          sign: 1,
          rows: inBucket(sql`ku.quality_score >= ${floor} AND ku.quality_score < (${bucket} + 1) / 100.0 + 0.000001`),
        },
      };
}

/** How many units there are, from the bucket counts: no scan of a million rows on the event loop. */
export const countUnits = (db: Db): Promise<number> => unitTotal(db, allOf([]));

/** A page of units in the list order. */
const unitPage = (query: UnitQuery) =>
  sql`SELECT ${UNIT_SUMMARY} FROM knowledge_units ku WHERE ${conditionSql(query.condition, UNIT_COLUMNS)} ORDER BY ${ORDER}
    LIMIT ${query.limit} OFFSET ${query.offset}`;

/**
 * On PostgreSQL the total and the page in one statement: one snapshot and one round trip instead of a
 * read-only transaction and three. The total is computed once (MATERIALIZED), the page read only when the
 * total reaches past the offset, and a total with no page comes back as one row of NULLs.
 */
async function listInOneStatement(db: Db, query: UnitQuery): Promise<{ total: number; rows: rows.UnitRow[] }> {
  const { whole, edge, hidden } = totalSources(query.condition);
  const total = sql`(SELECT ${whole.sum} ${whole.from})${
    edge ? sql` ${raw(edge.sign > 0 ? '+' : '-')} (SELECT count(*) ${edge.rows})` : raw('')
  }${hidden ? sql` - (SELECT count(*) ${hidden})` : raw('')}`;
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
        const total = await unitTotal(db, query.condition);
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
