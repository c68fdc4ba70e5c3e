// Skill lists on SQLite: visibility, filters and search, with an exact total and the contract's order.
import type { Statement } from 'better-sqlite3';
import type { Skill } from '../../domain/model.js';
import type { Page, SkillQuery } from '../store.js';
import * as rows from './rows.js';
import { ftsMatch } from './unit-lists.js';

type Prepare = (sql: string) => Statement;

/** bm25 column weights: name, description, tags, body. */
const SKILL_RANK = 'bm25(skills_fts, 10.0, 5.0, 5.0, 1.0)';
const ORDER = 's.quality_score DESC, s.created_at DESC, s.id DESC';

export function listSkills(prepare: Prepare, query: SkillQuery): Page<Skill> {
  const conditions: string[] = [];
  const params: unknown[] = [];
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
  let orderBy = ORDER;
  if (query.terms.length > 0) {
    from = 'skills_fts JOIN skills s ON s.seq = skills_fts.rowid';
    conditions.unshift('skills_fts MATCH ?');
    params.unshift(ftsMatch(query.terms));
    orderBy = `${SKILL_RANK}, ${ORDER}`;
  }
  const whereSql = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const total = prepare(`SELECT count(*) FROM ${from} ${whereSql}`).pluck().get(...params) as number;
  if (total <= query.offset) return { items: [], total };
  const list = prepare(`SELECT ${rows.SKILL_COLUMNS} FROM ${from} ${whereSql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`).all(
    ...params,
    query.limit,
    query.offset,
  ) as rows.SkillRow[];
  return { items: list.map(rows.toSkill), total };
}
