// Lists and searches on SQLite: exact totals and deterministic pages whose cost follows the page and
// the matches, not the table. The README's Performance section explains each path and what it costs.
// Run on the main thread or in a read worker (read-pool.ts), always inside one read transaction.
import { SUMMARY_DESCRIPTION_CHARS, SUMMARY_EXAMPLE_CHARS, SUMMARY_EXAMPLES, summarizeUnit, type SkillSummary, type UnitSummary } from '../../domain/summaries.js';
import * as rows from '../rows.js';
import * as skillRows from '../skill-rows.js';
import type { Page, SkillQuery, UnitQuery } from '../store.js';
import type { Prepare } from './connection.js';

// A list reads each unit's text only a character past what its summary shows (enough to know it was
// cut), so a page of units that are large in full stays small in memory.
export const UNIT_SUMMARY_COLUMNS = rows.UNIT_COLUMNS.replace(
  'ku.description, ku.examples',
  `substr(ku.description, 1, ${SUMMARY_DESCRIPTION_CHARS + 1}) AS description,
  (SELECT json_group_array(substr(value, 1, ${SUMMARY_EXAMPLE_CHARS + 1})) FROM
    (SELECT value FROM json_each(ku.examples) ORDER BY key LIMIT ${SUMMARY_EXAMPLES + 1})) AS examples`,
);

const toUnit = (row: rows.UnitRow): UnitSummary => summarizeUnit(rows.toUnit(row, rows.sqliteDecode));
const toSkill = (row: skillRows.SkillSummaryRow): SkillSummary => skillRows.toSkillSummary(row, rows.sqliteDecode);

// ---- knowledge units -----------------------------------------------------------------------------

/** bm25 column weights: title, description, examples, domain, tags. */
export const UNIT_RANK = 'bm25(knowledge_fts, 10.0, 4.0, 2.0, 3.0, 5.0)';
const ORDER = 'ku.quality_score DESC, ku.created_at DESC, ku.id DESC';

/** Where the list paths switch; tests move the switches to reach every path with little data. */
export interface UnitListTuning {
  /** Up to this many matches, bm25 over all of them is cheap and always decides the order. */
  broadMinMatches: number;
  /** Rows ranked beyond the page, so that rows tied with the page's last one are seen and ordered too. */
  tieSlack: number;
}

export const DEFAULT_TUNING: UnitListTuning = { broadMinMatches: 10_000, tieSlack: 64 };

/**
 * Terms are letters and digits only (domain/search.ts); quoting each makes FTS5 read it as a plain word.
 * An item matches when it has any of them (CONTRACT.md: natural-language queries).
 */
export function ftsMatch(terms: string[]): string {
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}

interface Filter {
  sql: string[];
  params: unknown[];
}

/** The query's filters as conditions on `alias` (`ku` for knowledge_units, `c` for unit_counts). */
function filters(query: UnitQuery, alias: string, withQuality: boolean): Filter {
  const sql: string[] = [];
  const params: unknown[] = [];
  if (query.types.length > 0) {
    sql.push(`${alias}.type IN (${query.types.map(() => '?').join(', ')})`);
    params.push(...query.types);
  }
  if (query.domain !== undefined) {
    sql.push(`${alias}.domain = ?`);
    params.push(query.domain);
  }
  if (withQuality && query.minQuality !== undefined) {
    sql.push(`${alias}.quality_score >= ?`);
    params.push(query.minQuality);
  }
  return { sql, params };
}

const where = (conditions: string[]) => (conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '');
const and = (conditions: string[]) => conditions.map((c) => ` AND ${c}`).join('');

export function listUnits(prepare: Prepare, query: UnitQuery, tuning = DEFAULT_TUNING): Page<UnitSummary> {
  return query.terms.length === 0 ? browse(prepare, query) : search(prepare, query, tuning);
}

/** Without `q`: the total from unit_counts, the page straight off the index that ends in the list order. */
function browse(prepare: Prepare, query: UnitQuery): Page<UnitSummary> {
  const total = countByFilters(prepare, query);
  if (total <= query.offset) return { items: [], total };
  const f = filters(query, 'ku', true);
  const items = prepare(
    `SELECT ${UNIT_SUMMARY_COLUMNS} FROM knowledge_units ku ${where(f.sql)} ORDER BY ${ORDER} LIMIT ? OFFSET ?`,
  ).all(...f.params, query.limit, query.offset) as rows.UnitRow[];
  return { items: items.map(toUnit), total };
}

/**
 * The exact number of units the filters admit. Whole quality buckets come from unit_counts; only the
 * bucket that min_quality cuts through is counted row by row, over a short index range. A unit is in
 * bucket floor(q × 100) as SQLite computes it, and the same expression places min_quality, so every
 * unit of a higher bucket passes the floor and every unit of a lower one fails it.
 */
function countByFilters(prepare: Prepare, query: UnitQuery): number {
  const c = filters(query, 'c', false);
  if (query.minQuality === undefined) {
    return prepare(`SELECT coalesce(sum(c.n), 0) FROM unit_counts c ${where(c.sql)}`).pluck().get(...c.params) as number;
  }
  const floor = query.minQuality;
  const whole = prepare(
    `SELECT coalesce(sum(c.n), 0) FROM unit_counts c WHERE c.bucket > CAST(? * 100 AS INTEGER)${and(c.sql)}`,
  )
    .pluck()
    .get(floor, ...c.params) as number;
  const ku = filters(query, 'ku', false);
  // The upper bound only narrows the index range; the CAST condition decides membership exactly.
  const edge = prepare(
    `SELECT count(*) FROM knowledge_units ku
     WHERE ku.quality_score >= ? AND ku.quality_score < (CAST(? * 100 AS INTEGER) + 2) / 100.0
       AND CAST(ku.quality_score * 100 AS INTEGER) = CAST(? * 100 AS INTEGER)${and(ku.sql)}`,
  )
    .pluck()
    .get(floor, floor, floor, ...ku.params) as number;
  return whole + edge;
}

/**
 * With `q`: relevance (bm25) first, then the list order. Three paths, by cost:
 * - no filters: rank inside the full-text index, join only the page's rows (and rows tied with its last);
 * - filters: rank the matches that pass them;
 * - a broad query, matching more than half of all units (and more than broadMinMatches): every word of
 *   it is then in most units, where bm25's IDF is zero by its formula. FTS5 clamps it to 1e-6, leaving
 *   score differences in the sixth decimal; those are deliberately ignored (documented in the README),
 *   so the list order decides: the page walks the list-order index and asks the full-text index per row.
 */
function search(prepare: Prepare, query: UnitQuery, tuning: UnitListTuning): Page<UnitSummary> {
  const match = ftsMatch(query.terms);
  const matches = prepare('SELECT count(*) FROM knowledge_fts WHERE knowledge_fts MATCH ?').pluck().get(match) as number;
  if (matches === 0) return { items: [], total: 0 };
  const f = filters(query, 'ku', true);
  const filtered = f.sql.length > 0;
  const total = filtered
    ? (prepare(
        `SELECT count(*) FROM knowledge_fts JOIN knowledge_units ku ON ku.seq = knowledge_fts.rowid
         WHERE knowledge_fts MATCH ?${and(f.sql)}`,
      )
        .pluck()
        .get(match, ...f.params) as number)
    : matches;
  if (total <= query.offset) return { items: [], total };

  let items: rows.UnitRow[] | null;
  if (matches > tuning.broadMinMatches && matches * 2 > unitCount(prepare)) {
    items = prepare(
      `SELECT ${UNIT_SUMMARY_COLUMNS} FROM knowledge_units ku
       WHERE EXISTS (SELECT 1 FROM knowledge_fts WHERE knowledge_fts MATCH ? AND knowledge_fts.rowid = ku.seq)${and(f.sql)}
       ORDER BY ${ORDER} LIMIT ? OFFSET ?`,
    ).all(match, ...f.params, query.limit, query.offset) as rows.UnitRow[];
  } else {
    items = filtered ? null : rankedInIndex(prepare, match, query, tuning.tieSlack);
    items ??= prepare(
      `SELECT ${UNIT_SUMMARY_COLUMNS} FROM knowledge_fts JOIN knowledge_units ku ON ku.seq = knowledge_fts.rowid
       WHERE knowledge_fts MATCH ?${and(f.sql)} ORDER BY ${UNIT_RANK}, ${ORDER} LIMIT ? OFFSET ?`,
    ).all(match, ...f.params, query.limit, query.offset) as rows.UnitRow[];
  }
  return { items: items.map(toUnit), total };
}

/**
 * The page's rows ranked inside the full-text index, `slack` rows past the page. Every row ranked
 * at or above the page's last row is among them (the rows after it rank strictly lower), so sorting
 * them by rank and list order gives the exact page. null when more than `slack` rows tie at the edge.
 */
function rankedInIndex(prepare: Prepare, match: string, query: UnitQuery, slack: number): rows.UnitRow[] | null {
  const end = query.offset + query.limit;
  const fetched = prepare(
    `WITH top AS (SELECT rowid AS seq, ${UNIT_RANK} AS rank FROM knowledge_fts WHERE knowledge_fts MATCH ? ORDER BY rank LIMIT ?)
     SELECT top.rank AS rank, ${UNIT_SUMMARY_COLUMNS} FROM top JOIN knowledge_units ku ON ku.seq = top.seq
     ORDER BY top.rank, ${ORDER}`,
  ).all(match, end + slack) as (rows.UnitRow & { rank: number })[];
  if (fetched.length === end + slack && fetched[end - 1]!.rank === fetched[fetched.length - 1]!.rank) return null;
  return fetched.slice(query.offset, end);
}

function unitCount(prepare: Prepare): number {
  return prepare('SELECT coalesce(sum(n), 0) FROM unit_counts').pluck().get() as number;
}

// ---- skills --------------------------------------------------------------------------------------

/** bm25 column weights: name, description, tags, body. */
const SKILL_RANK = 'bm25(skills_fts, 10.0, 5.0, 5.0, 1.0)';
const SKILL_ORDER = 's.quality_score DESC, s.created_at DESC, s.id DESC';

export function listSkills(prepare: Prepare, query: SkillQuery): Page<SkillSummary> {
  // One entry per skill, its default version; a skill whose versions are all yanked is not listed.
  const conditions: string[] = ['s.latest_version_seq IS NOT NULL'];
  const params: unknown[] = [];
  if (query.conformant !== undefined) {
    conditions.push('s.conformant = ?');
    params.push(query.conformant ? 1 : 0);
  }
  if (query.agentId !== undefined) {
    conditions.push('s.agent_id = ?');
    params.push(query.agentId);
  }
  if (query.name !== undefined) {
    conditions.push('s.name = ?');
    params.push(query.name);
  }
  if (!query.viewer.everything) {
    if (query.viewer.agentId === null) conditions.push(`s.visibility = 'public'`);
    else {
      conditions.push(`(s.visibility = 'public' OR s.agent_id = ?)`);
      params.push(query.viewer.agentId);
    }
  }
  if (query.domain !== undefined) {
    conditions.push('s.domain = ?');
    params.push(query.domain);
  }
  if (query.minQuality !== undefined) {
    conditions.push('s.quality_score >= ?');
    params.push(query.minQuality);
  }
  if (query.tags.length > 0) {
    const tags = [...new Set(query.tags.map((t) => t.toLowerCase()))];
    conditions.push(
      `s.seq IN (SELECT skill_seq FROM skill_tags WHERE tag IN (${tags.map(() => '?').join(', ')})
         GROUP BY skill_seq HAVING count(*) = ${tags.length})`,
    );
    params.push(...tags);
  }
  let from = 'skills s';
  let orderBy = SKILL_ORDER;
  if (query.terms.length > 0) {
    from = 'skills_fts JOIN skills s ON s.seq = skills_fts.rowid';
    conditions.unshift('skills_fts MATCH ?');
    params.unshift(ftsMatch(query.terms));
    orderBy = `${SKILL_RANK}, ${SKILL_ORDER}`;
  }
  const whereSql = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const total = prepare(`SELECT count(*) FROM ${from} ${whereSql}`).pluck().get(...params) as number;
  if (total <= query.offset) return { items: [], total };
  const list = prepare(`SELECT ${skillRows.SKILL_SUMMARY_COLUMNS} FROM ${from} ${whereSql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`).all(
    ...params,
    query.limit,
    query.offset,
  ) as skillRows.SkillSummaryRow[];
  return { items: list.map(toSkill), total };
}
