// Lists and search for the PostgreSQL store: filters as parameterised SQL, search through the weighted
// tsvector columns and their GIN indexes, exact totals, and the contract order.
import type { Pool, QueryResultRow } from 'pg';
import { SUMMARY_DESCRIPTION_CHARS, SUMMARY_EXAMPLE_CHARS, SUMMARY_EXAMPLES, summarizeUnit, type SkillSummary, type UnitSummary } from '../../domain/summaries.js';
import type { Page, SkillQuery, UnitQuery } from '../store.js';
import * as rows from '../rows.js';
import * as skillRows from '../skill-rows.js';
import { inTransaction, READ_ONE_SNAPSHOT, runAdHoc } from './connection.js';

// ts_rank_cd weights for the labels D, C, B, A that migration 3 gives the columns, scaled from SQLite's bm25
// weights (title 10, tags 5, description 4, domain 3, examples 2; name 10, description 5, tags 5, body 1).
// Domain shares C with description, so it counts 4 here where SQLite counts 3; skills leave C unused.
const UNIT_RANK_WEIGHTS = `'{0.2, 0.4, 0.5, 1.0}'`;
const SKILL_RANK_WEIGHTS = `'{0.1, 0.1, 0.5, 1.0}'`;
// ts_rank_cd normalization 1: the rank is divided by 1 + log(document length), so a long body does not
// outrank a short, focused one merely by repeating a word (bm25 normalises for length too).
const RANK_NORMALIZATION = 1;

// A list reads each unit's text only a character past what its summary shows (enough to know it was
// cut), so a page of units that are large in full stays small in memory.
export const UNIT_SUMMARY_COLUMNS = rows.UNIT_COLUMNS.replace(
  'ku.description, ku.examples',
  `left(ku.description, ${SUMMARY_DESCRIPTION_CHARS + 1}) AS description,
  coalesce((SELECT jsonb_agg(left(e.v, ${SUMMARY_EXAMPLE_CHARS + 1}) ORDER BY e.n)
    FROM jsonb_array_elements_text(ku.examples) WITH ORDINALITY AS e(v, n) WHERE e.n <= ${SUMMARY_EXAMPLES + 1}), '[]'::jsonb) AS examples`,
);

/** The values of a statement built per request, handing out their placeholders in order. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export function listSkills(pool: Pool, query: SkillQuery): Promise<Page<SkillSummary>> {
  const params = new Params();
  // One entry per skill, its default version; a skill whose versions are all yanked is not listed.
  const where: string[] = ['s.latest_version_seq IS NOT NULL'];
  if (query.conformant !== undefined) where.push(`s.conformant = ${params.add(query.conformant)}`);
  if (query.agentId !== undefined) where.push(`s.agent_id = ${params.add(query.agentId)}`);
  if (query.name !== undefined) where.push(`s.name = ${params.add(query.name)}`);
  if (!query.viewer.everything) {
    if (query.viewer.agentId === null) where.push(`s.visibility = 'public'`);
    else where.push(`(s.visibility = 'public' OR s.agent_id = ${params.add(query.viewer.agentId)})`);
  }
  if (query.domain !== undefined) where.push(`s.domain = ${params.add(query.domain)}`);
  if (query.minQuality !== undefined) where.push(`s.quality_score >= ${params.add(query.minQuality)}`);
  if (query.tags.length > 0) {
    // A skill matches when it has every requested tag (tags are kept lower-cased).
    const tags = [...new Set(query.tags.map((t) => t.toLowerCase()))];
    where.push(
      `s.seq IN (SELECT skill_seq FROM skill_tags WHERE tag = ANY(${params.add(tags)}::text[])
         GROUP BY skill_seq HAVING count(*) = ${params.add(tags.length)})`,
    );
  }
  const source = { table: 'skills', alias: 's', columns: skillRows.SKILL_SUMMARY_COLUMNS, weights: SKILL_RANK_WEIGHTS };
  return page(pool, source, query, where, params, (row: skillRows.SkillSummaryRow) => skillRows.toSkillSummary(row, rows.postgresDecode));
}

export function listUnits(pool: Pool, query: UnitQuery): Promise<Page<UnitSummary>> {
  const params = new Params();
  const where: string[] = [];
  if (query.types.length > 0) where.push(`ku.type = ANY(${params.add(query.types)}::text[])`);
  if (query.domain !== undefined) where.push(`ku.domain = ${params.add(query.domain)}`);
  if (query.minQuality !== undefined) where.push(`ku.quality_score >= ${params.add(query.minQuality)}`);
  const source = { table: 'knowledge_units', alias: 'ku', columns: UNIT_SUMMARY_COLUMNS, weights: UNIT_RANK_WEIGHTS };
  return page(pool, source, query, where, params, (row: rows.UnitRow) => summarizeUnit(rows.toUnit(row, rows.postgresDecode)));
}

/**
 * One page of a list and its exact total. With search terms the GIN index finds the rows matching
 * any term, ranked by weighted cover density; the list order then breaks ties (quality, newest, id).
 * Count and page run in one read-only REPEATABLE READ transaction: both see one snapshot, so the total
 * always agrees with the items even while other instances write.
 */
async function page<R extends QueryResultRow, T>(
  pool: Pool,
  source: { table: string; alias: string; columns: string; weights: string },
  query: { terms: string[]; limit: number; offset: number },
  where: string[],
  params: Params,
  map: (row: R) => T,
): Promise<Page<T>> {
  const a = source.alias;
  // Ids and timestamps are COLLATE "C" columns, so this is SQLite's byte order.
  let orderBy = `${a}.quality_score DESC, ${a}.created_at DESC, ${a}.id DESC`;
  const conditions = [...where];
  if (query.terms.length > 0) {
    // Terms are letters, digits and marks only (domain/search.ts); plainto_tsquery reads them as plain
    // words, never as operators, through the same configuration and punctuation rule as the indexed text
    // (migration 3). It joins them by AND (its lexemes are quoted, so '&' is only ever an operator):
    // an item matches when it has any of them (CONTRACT.md), so the ANDs become ORs.
    const tsquery = `replace(plainto_tsquery('reg_search', reg_search_text(${params.add(query.terms.join(' '))}::text))::text, '&', '|')::tsquery`;
    conditions.unshift(`${a}.search @@ ${tsquery}`);
    orderBy = `ts_rank_cd(${source.weights}, ${a}.search, ${tsquery}, ${RANK_NORMALIZATION}) DESC, ${orderBy}`;
  }
  const from = `FROM ${source.table} ${a} ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}`;
  return inTransaction(
    pool,
    async (client) => {
      const counted = await runAdHoc<{ total: string }>(client, `SELECT count(*) AS total ${from}`, [...params.values]);
      const total = Number(counted.rows[0]!.total);
      if (total <= query.offset) return { items: [], total };
      const window = `LIMIT ${params.add(query.limit)} OFFSET ${params.add(query.offset)}`;
      const list = await runAdHoc<R>(client, `SELECT ${source.columns} ${from} ORDER BY ${orderBy} ${window}`, params.values);
      return { items: list.rows.map(map), total };
    },
    READ_ONE_SNAPSHOT,
  );
}
