// The newest skills and units on PostgreSQL, mirrored by ../sqlite/recent-reads.ts. Newest means first
// published last: the row's seq (an identity), read backwards off the primary key, or off the agent
// indexes, which end in seq (skills_agent, knowledge_agent), so the cost follows the page.
import { summarizeUnit, type SkillSummary, type UnitSummary } from '../../domain/summaries.js';
import type { RecentSkillQuery, RecentUnitQuery } from '../recent-queries.js';
import * as rows from '../rows.js';
import * as skillRows from '../skill-rows.js';
import { run, type Queryable } from './connection.js';
import { UNIT_SUMMARY_COLUMNS } from './lists.js';

export async function recentSkills(db: Queryable, query: RecentSkillQuery): Promise<SkillSummary[]> {
  // As in lists: one entry per skill at its default version; a skill whose versions are all yanked is not shown.
  const conditions = ['s.latest_version_seq IS NOT NULL'];
  const params: unknown[] = [];
  if (query.agentId !== undefined) {
    params.push(query.agentId);
    conditions.push(`s.agent_id = $${params.length}`);
  }
  if (!query.viewer.everything) {
    if (query.viewer.agentId === null) conditions.push(`s.visibility = 'public'`);
    else {
      params.push(query.viewer.agentId);
      conditions.push(`(s.visibility = 'public' OR s.agent_id = $${params.length})`);
    }
  }
  params.push(query.limit);
  const sql = `SELECT ${skillRows.SKILL_SUMMARY_COLUMNS} FROM skills s WHERE ${conditions.join(' AND ')} ORDER BY s.seq DESC LIMIT $${params.length}`;
  const found = await run<skillRows.SkillSummaryRow>(db, sql, params);
  return found.rows.map((row) => skillRows.toSkillSummary(row, rows.postgresDecode));
}

export async function recentUnits(db: Queryable, query: RecentUnitQuery): Promise<UnitSummary[]> {
  const found =
    query.agentId === undefined
      ? await run<rows.UnitRow>(db, `SELECT ${UNIT_SUMMARY_COLUMNS} FROM knowledge_units ku ORDER BY ku.seq DESC LIMIT $1`, [query.limit])
      : await run<rows.UnitRow>(
          db,
          `SELECT ${UNIT_SUMMARY_COLUMNS} FROM knowledge_units ku WHERE ku.agent_id = $1 ORDER BY ku.seq DESC LIMIT $2`,
          [query.agentId, query.limit],
        );
  return found.rows.map((row) => summarizeUnit(rows.toUnit(row, rows.postgresDecode)));
}
