// Every write of the PostgreSQL store, one writer per table, each inside the caller's transaction.
// Units and skills are inserted as rows of arrays (INSERT … SELECT FROM unnest), so one contribution
// and a bulk import of thousands run the same statement.
import type { PoolClient } from 'pg';
import type { ReputationAction } from '../../domain/model.js';
import * as rows from '../rows.js';
import { AgentExistsError, PrefixTakenError, type AgentOrigin, type NewKey, type NewVerdict, type SkillImport, type UnitImport, type VerdictOutcome } from '../store.js';
import { run, type Queryable } from './connection.js';
import { uniqueViolation } from './errors.js';

/** Rows per statement: large enough to amortise round trips, small enough to keep parameters modest. */
const ROWS_PER_STATEMENT = 1_000;

/**
 * `INSERT INTO table (columns) SELECT … FROM unnest($1::type[], …) WITH ORDINALITY ORDER BY ord`: identity
 * values (seq) follow the given order, as one insert per row would. JSON columns arrive as text.
 */
function unnestInsert(table: string, columns: readonly string[], types: Record<string, string>, returning = ''): string {
  const typeOf = (column: string) => types[column] ?? 'text';
  const arrays = columns.map((column, i) => `$${i + 1}::${typeOf(column) === 'jsonb' ? 'text' : typeOf(column)}[]`);
  const selected = columns.map((column) => (typeOf(column) === 'jsonb' ? `t.${column}::jsonb` : `t.${column}`));
  return `INSERT INTO ${table} (${columns.join(', ')})
SELECT ${selected.join(', ')}
FROM unnest(${arrays.join(', ')}) WITH ORDINALITY AS t(${columns.join(', ')}, ord)
ORDER BY t.ord${returning ? ` RETURNING ${returning}` : ''}`;
}

const UNIT_TYPES = { examples: 'jsonb', tags: 'jsonb', confidence: 'float8', base_quality: 'float8', quality_score: 'float8' };
const SKILL_COLUMNS = [...rows.SKILL_INSERT_COLUMNS, 'body'] as const; // the body alone, for the search vector
const INSERT_UNITS = unnestInsert('knowledge_units', rows.UNIT_INSERT_COLUMNS, UNIT_TYPES);
const INSERT_SKILLS = unnestInsert('skills', SKILL_COLUMNS, { tags: 'jsonb', quality_score: 'float8' }, 'id, seq');
const INSERT_SKILL_TAGS = 'INSERT INTO skill_tags (tag, skill_seq) SELECT t.tag, t.seq FROM unnest($1::text[], $2::bigint[]) AS t(tag, seq)';

/** Rows of values → one array per column. */
function columnsOf(valueRows: unknown[][], width: number): unknown[][] {
  return Array.from({ length: width }, (_, column) => valueRows.map((values) => values[column]));
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) out.push(items.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

// ---- agents and keys -----------------------------------------------------------------------------

export async function insertAgent(db: Queryable, agentId: string, origin: AgentOrigin, at: string): Promise<void> {
  try {
    await run(db, 'INSERT INTO agents (agent_id, origin, created_at, updated_at) VALUES ($1, $2, $3, $3)', [agentId, origin, at]);
  } catch (error) {
    if (uniqueViolation(error) === 'agents_pkey') throw new AgentExistsError(agentId);
    throw error;
  }
}

export async function insertKey(db: Queryable, key: NewKey): Promise<void> {
  try {
    await run(
      db,
      'INSERT INTO api_keys (agent_id, key_hash, key_prefix, scopes, tier, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [key.agentId, key.keyHash, key.keyPrefix, key.scopes.join(' '), key.tier, key.createdAt],
    );
  } catch (error) {
    if (uniqueViolation(error) === 'api_keys_active_prefix') throw new PrefixTakenError(key.keyPrefix);
    throw error;
  }
}

export async function revokeKey(db: Queryable, keyId: number, at: string): Promise<boolean> {
  return (await run(db, 'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, keyId])).rowCount === 1;
}

// ---- reputation ----------------------------------------------------------------------------------

const INSERT_EVENTS = `
INSERT INTO reputation_events (agent_id, action, delta_millis, target_id, created_at)
SELECT t.agent_id, $4::text, $5::int, t.target_id, t.created_at
FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS t(agent_id, target_id, created_at, ord)
ORDER BY t.ord`;

const MOVE_TOTALS = `
UPDATE agents AS a SET score_millis = a.score_millis + d.millis, contributions = a.contributions + d.contributions,
  validations = a.validations + d.validations, updated_at = d.at
FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[], $5::text[]) AS d(agent_id, millis, contributions, validations, at)
WHERE a.agent_id = d.agent_id`;

interface Rewarded {
  agentId: string;
  targetId: string;
  at: string;
}

/**
 * History items for `items` (`millis` each) and each agent's running totals, moved once per agent in
 * agent-id order (so two writers touching the same agents lock their rows in the same order).
 */
export async function reward(client: PoolClient, items: readonly Rewarded[], action: ReputationAction, millis: number): Promise<void> {
  for (const chunk of chunks(items)) {
    await run(client, INSERT_EVENTS, [chunk.map((i) => i.agentId), chunk.map((i) => i.targetId), chunk.map((i) => i.at), action, millis]);
  }
  const totals = new Map<string, { count: number; lastAt: string }>();
  for (const item of items) {
    const total = totals.get(item.agentId);
    if (total) {
      total.count += 1;
      total.lastAt = item.at;
    } else totals.set(item.agentId, { count: 1, lastAt: item.at });
  }
  const ids = [...totals.keys()].sort();
  const contribution = action !== 'validate_knowledge';
  const updated = await run(client, MOVE_TOTALS, [
    ids,
    ids.map((id) => millis * totals.get(id)!.count),
    ids.map((id) => (contribution ? totals.get(id)!.count : 0)),
    ids.map((id) => (contribution ? 0 : totals.get(id)!.count)),
    ids.map((id) => totals.get(id)!.lastAt),
  ]);
  if (updated.rowCount !== ids.length) throw new Error('a contributing agent does not exist; create agents before their contributions');
}

// ---- knowledge units -----------------------------------------------------------------------------

export async function insertUnits(client: PoolClient, items: readonly UnitImport[]): Promise<void> {
  for (const chunk of chunks(items)) {
    const values = chunk.map(({ unit, baseQuality }) => rows.unitValues(unit, baseQuality));
    await run(client, INSERT_UNITS, columnsOf(values, rows.UNIT_INSERT_COLUMNS.length));
  }
}

export async function deleteUnit(db: Queryable, id: string): Promise<boolean> {
  // One statement: verdicts go by ON DELETE CASCADE, and the search vector lives in the row itself.
  return (await run(db, 'DELETE FROM knowledge_units WHERE id = $1', [id])).rowCount === 1;
}

/** Reads what the verdict rule needs, lets it decide, and writes its decision. */
export async function recordVerdict(client: PoolClient, v: NewVerdict): Promise<VerdictOutcome> {
  // FOR UPDATE: verdicts on one unit, from any instance, queue here, so each one starts from the counts
  // the previous one committed and none is lost.
  const [unit] = (
    await run<{ seq: string; base_quality: number; valid_count: number; invalid_count: number }>(
      client,
      'SELECT seq, base_quality, valid_count, invalid_count FROM knowledge_units WHERE id = $1 FOR UPDATE',
      [v.unitId],
    )
  ).rows;
  if (!unit) return { recorded: false, reason: 'not_found' };
  const [previous] = (
    await run<{ valid: boolean }>(client, 'SELECT valid FROM verdicts WHERE unit_seq = $1 AND agent_id = $2', [unit.seq, v.agentId])
  ).rows;
  const decision = v.decide(
    { baseQuality: unit.base_quality, valid: unit.valid_count, invalid: unit.invalid_count, previous: previous ? previous.valid : null },
    v.valid,
  );
  await run(
    client,
    `INSERT INTO verdicts (unit_seq, unit_id, agent_id, valid, feedback, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (unit_seq, agent_id) DO UPDATE SET valid = excluded.valid, feedback = excluded.feedback, updated_at = excluded.updated_at`,
    [unit.seq, v.unitId, v.agentId, v.valid, v.feedback, v.at],
  );
  if (decision.rewardMillis > 0) {
    await reward(client, [{ agentId: v.agentId, targetId: v.unitId, at: v.at }], 'validate_knowledge', decision.rewardMillis);
  }
  await run(client, 'UPDATE knowledge_units SET valid_count = $1, invalid_count = $2, quality_score = $3, updated_at = $4 WHERE seq = $5', [
    decision.valid,
    decision.invalid,
    decision.qualityScore,
    v.at,
    unit.seq,
  ]);
  return { recorded: true, first: previous === undefined };
}

// ---- skills --------------------------------------------------------------------------------------

export async function insertSkills(client: PoolClient, items: readonly SkillImport[]): Promise<void> {
  for (const chunk of chunks(items)) {
    const values = chunk.map(({ skill, body }) => [...rows.skillValues(skill), body]);
    const inserted = await run<{ id: string; seq: string }>(client, INSERT_SKILLS, columnsOf(values, SKILL_COLUMNS.length));
    const seqOf = new Map(inserted.rows.map((row) => [row.id, row.seq]));
    const tags: string[] = [];
    const seqs: string[] = [];
    for (const { skill } of chunk) {
      for (const tag of rows.skillTagKeys(skill)) {
        tags.push(tag);
        seqs.push(seqOf.get(skill.id)!);
      }
    }
    if (tags.length > 0) await run(client, INSERT_SKILL_TAGS, [tags, seqs]);
  }
}
