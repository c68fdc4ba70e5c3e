// A list's condition (domain/filters.ts) as SQL: each attribute a kind is filtered on is a column, a
// predicate, or a table of tag keys, named once per kind below; the condition's leaves and its `and` / `or`
// become the WHERE clause, whatever the condition is.
import type { Condition, FilterAttr } from '../../domain/filters.js';
import { byDialect, join, oneOf, raw, sql, type Sql } from '../sql.js';

/** How SQL reads one attribute. */
type Column =
  /** A column (or expression) compared to values. */
  | { value: Sql }
  /** A yes-or-no attribute that is a predicate (and its negation). */
  | { yes: Sql; no: Sql }
  /** Tag keys kept in a table of their own: (key column, owner column) and the item's own key. */
  | { tags: { table: string; owner: string; item: string } };

export type Columns = Partial<Record<FilterAttr, Column>>;

/** What the skill lists read (`s` is the skills row). */
export const SKILL_COLUMNS: Columns = {
  domain: { value: raw('s.domain') },
  tags: { tags: { table: 'skill_tags', owner: 'skill_seq', item: 's.seq' } },
  quality: { value: raw('s.quality_score') },
  conformant: { value: raw('s.conformant') },
  publisher: { value: raw('s.agent_id') },
  name: { value: raw('s.name') },
  visibility: { value: raw('s.visibility') },
  listed: { yes: raw('s.latest_version_seq IS NOT NULL'), no: raw('s.latest_version_seq IS NULL') },
  // Held: the whole skill, or the version its row shows (then every version is held).
  held: {
    yes: byDialect({
      sqlite: raw('(s.held_at IS NOT NULL OR s.version_held <> 0)'),
      postgres: raw('(s.held_at IS NOT NULL OR s.version_held)'),
    }),
    no: byDialect({
      sqlite: raw('(s.held_at IS NULL AND s.version_held = 0)'),
      postgres: raw('(s.held_at IS NULL AND NOT s.version_held)'),
    }),
  },
};

/** What the unit lists read (`ku` is the knowledge_units row). */
export const UNIT_COLUMNS: Columns = {
  domain: { value: raw('ku.domain') },
  tags: { tags: { table: 'unit_tags', owner: 'unit_seq', item: 'ku.seq' } },
  quality: { value: raw('ku.quality_score') },
  type: { value: raw('ku.type') },
  publisher: { value: raw('ku.agent_id') },
  held: { yes: raw('ku.held_at IS NOT NULL'), no: raw('ku.held_at IS NULL') },
};

/** The condition as a WHERE clause's condition over `columns` (an empty `and` is true, an empty `or` false). */
export function conditionSql(condition: Condition, columns: Columns): Sql {
  if ('and' in condition)
    return condition.and.length === 0
      ? raw('1 = 1')
      : sql`(${join(
          condition.and.map((c) => conditionSql(c, columns)),
          ' AND ',
        )})`;
  if ('or' in condition)
    return condition.or.length === 0
      ? raw('1 = 0')
      : sql`(${join(
          condition.or.map((c) => conditionSql(c, columns)),
          ' OR ',
        )})`;
  const column = columns[condition.attr];
  if (!column) throw new Error(`no column for the attribute ${condition.attr}`);
  if ('tags' in column) {
    if (!('allOf' in condition)) throw new Error('tags are filtered by all-of');
    const { table, owner, item } = column.tags;
    if (condition.allOf.length === 0) return raw('1 = 1');
    return sql`${raw(item)} IN (SELECT ${raw(owner)} FROM ${raw(table)} WHERE ${oneOf(raw('tag'), condition.allOf, 'text')}
      GROUP BY ${raw(owner)} HAVING count(*) = ${condition.allOf.length})`;
  }
  if ('yes' in column) {
    if (!('equals' in condition) || typeof condition.equals !== 'boolean')
      throw new Error(`${condition.attr} is compared to true or false`);
    return condition.equals ? column.yes : column.no;
  }
  if ('equals' in condition) return sql`${column.value} = ${condition.equals}`;
  if ('anyOf' in condition)
    return condition.anyOf.length === 0 ? raw('1 = 0') : oneOf(column.value, condition.anyOf, 'text');
  if ('atLeast' in condition) return sql`${column.value} >= ${condition.atLeast}`;
  throw new Error(`${condition.attr} is not a list of tags`);
}

/** The leaves of a condition that is only a conjunction of leaves (null when it has an `or`). */
export function conjunction(condition: Condition): Exclude<Condition, { and: unknown } | { or: unknown }>[] | null {
  if ('or' in condition) return null;
  if (!('and' in condition)) return [condition];
  const leaves = [];
  for (const c of condition.and) {
    const inner = conjunction(c);
    if (inner === null) return null;
    leaves.push(...inner);
  }
  return leaves;
}
