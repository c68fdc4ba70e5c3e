// The newest skills and units on SQLite, mirrored by ../postgres/recent-reads.ts. Newest means first
// published last: the row's seq, which is the table's rowid, so the primary key (or the agent index,
// which ends in the rowid) gives the order without a sort, and the cost follows the page.
import { summarizeUnit, type SkillSummary, type UnitSummary } from '../../domain/summaries.js';
import type { RecentSkillQuery, RecentUnitQuery } from '../recent-queries.js';
import * as rows from '../rows.js';
import * as skillRows from '../skill-rows.js';
import type { Prepare } from './connection.js';
import { UNIT_SUMMARY_COLUMNS } from './lists.js';

export function recentSkills(prepare: Prepare, query: RecentSkillQuery): SkillSummary[] {
  // As in lists: one entry per skill at its default version; a skill whose versions are all yanked is not shown.
  const conditions = ['s.latest_version_seq IS NOT NULL'];
  const params: unknown[] = [];
  if (query.agentId !== undefined) {
    conditions.push('s.agent_id = ?');
    params.push(query.agentId);
  }
  if (!query.viewer.everything) {
    if (query.viewer.agentId === null) conditions.push(`s.visibility = 'public'`);
    else {
      conditions.push(`(s.visibility = 'public' OR s.agent_id = ?)`);
      params.push(query.viewer.agentId);
    }
  }
  const found = prepare(
    `SELECT ${skillRows.SKILL_SUMMARY_COLUMNS} FROM skills s WHERE ${conditions.join(' AND ')} ORDER BY s.seq DESC LIMIT ?`,
  ).all(...params, query.limit) as skillRows.SkillSummaryRow[];
  return found.map((row) => skillRows.toSkillSummary(row, rows.sqliteDecode));
}

export function recentUnits(prepare: Prepare, query: RecentUnitQuery): UnitSummary[] {
  const byAgent = query.agentId !== undefined;
  const found = prepare(
    `SELECT ${UNIT_SUMMARY_COLUMNS} FROM knowledge_units ku ${byAgent ? 'WHERE ku.agent_id = ?' : ''} ORDER BY ku.seq DESC LIMIT ?`,
  ).all(...(byAgent ? [query.agentId] : []), query.limit) as rows.UnitRow[];
  return found.map((row) => summarizeUnit(rows.toUnit(row, rows.sqliteDecode)));
}
