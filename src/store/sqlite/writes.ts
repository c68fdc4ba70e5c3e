// Every write of the SQLite store, one writer per table. Each runs inside the caller's transaction (a
// group-commit savepoint), so a change and the rows that go with it (search index, reputation, a saved
// idempotent response) commit together or not at all. Bulk imports reuse the same writers.
import type { ReputationAction } from '../../domain/model.js';
import * as rows from '../rows.js';
import {
  AgentExistsError,
  PrefixTakenError,
  type AgentOrigin,
  type NewKey,
  type NewVerdict,
  type SkillImport,
  type UnitImport,
  type VerdictOutcome,
} from '../store.js';
import type { Prepare } from './connection.js';
import { isUniqueViolation } from './errors.js';

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const INSERT_UNIT = `INSERT INTO knowledge_units (${rows.UNIT_INSERT_COLUMNS.join(', ')}) VALUES (${placeholders(rows.UNIT_INSERT_COLUMNS.length)})`;
const INSERT_SKILL = `INSERT INTO skills (${rows.SKILL_INSERT_COLUMNS.join(', ')}) VALUES (${placeholders(rows.SKILL_INSERT_COLUMNS.length)})`;

// ---- agents and keys -----------------------------------------------------------------------------

export function insertAgent(prepare: Prepare, agentId: string, origin: AgentOrigin, at: string): void {
  try {
    prepare('INSERT INTO agents (agent_id, origin, created_at, updated_at) VALUES (?, ?, ?, ?)').run(agentId, origin, at, at);
  } catch (error) {
    if (isUniqueViolation(error, 'agents.agent_id')) throw new AgentExistsError(agentId);
    throw error;
  }
}

export function insertKey(prepare: Prepare, key: NewKey): void {
  try {
    prepare('INSERT INTO api_keys (agent_id, key_hash, key_prefix, scopes, tier, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      key.agentId,
      key.keyHash,
      key.keyPrefix,
      key.scopes.join(' '),
      key.tier,
      key.createdAt,
    );
  } catch (error) {
    if (isUniqueViolation(error, 'api_keys.key_prefix')) throw new PrefixTakenError(key.keyPrefix);
    throw error;
  }
}

export function revokeKey(prepare: Prepare, keyId: number, at: string): boolean {
  return prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, keyId).changes === 1;
}

// ---- reputation ----------------------------------------------------------------------------------

/** A history item and the agent's running totals, moved by `count` items of `millis` each. */
export function reward(
  prepare: Prepare,
  agentId: string,
  action: ReputationAction,
  millis: number,
  targetId: string,
  at: string,
): void {
  prepare('INSERT INTO reputation_events (agent_id, action, delta_millis, target_id, created_at) VALUES (?, ?, ?, ?, ?)').run(
    agentId,
    action,
    millis,
    targetId,
    at,
  );
  moveTotals(prepare, agentId, action, millis, 1, at);
}

function moveTotals(prepare: Prepare, agentId: string, action: ReputationAction, millis: number, count: number, at: string): void {
  const contribution = action !== 'validate_knowledge';
  const changed = prepare(
    `UPDATE agents SET score_millis = score_millis + ?, contributions = contributions + ?,
       validations = validations + ?, updated_at = ? WHERE agent_id = ?`,
  ).run(millis * count, contribution ? count : 0, contribution ? 0 : count, at, agentId).changes;
  if (changed !== 1) throw new Error(`agent ${agentId} does not exist; create it before its contributions`);
}

// ---- knowledge units -----------------------------------------------------------------------------

export function insertUnit(prepare: Prepare, { unit, baseQuality }: UnitImport): void {
  const { lastInsertRowid: seq } = prepare(INSERT_UNIT).run(...rows.unitValues(unit, baseQuality));
  prepare('INSERT INTO knowledge_fts (rowid, title, description, examples, domain, tags) VALUES (?, ?, ?, ?, ?, ?)').run(
    seq,
    unit.title,
    unit.content.description,
    unit.content.examples.join('\n'),
    unit.domain,
    unit.tags.join(' '),
  );
}

export function deleteUnit(prepare: Prepare, id: string): boolean {
  const seq = prepare('SELECT seq FROM knowledge_units WHERE id = ?').pluck().get(id) as number | undefined;
  if (seq === undefined) return false;
  prepare('DELETE FROM knowledge_fts WHERE rowid = ?').run(seq);
  prepare('DELETE FROM knowledge_units WHERE seq = ?').run(seq); // verdicts go by ON DELETE CASCADE
  return true;
}

/** Reads what the verdict rule needs, lets it decide, and writes its decision. */
export function recordVerdict(prepare: Prepare, v: NewVerdict): VerdictOutcome {
  const unit = prepare('SELECT seq, base_quality, valid_count, invalid_count FROM knowledge_units WHERE id = ?').get(v.unitId) as
    | { seq: number; base_quality: number; valid_count: number; invalid_count: number }
    | undefined;
  if (!unit) return { recorded: false, reason: 'not_found' };
  const previous = prepare('SELECT valid FROM verdicts WHERE unit_seq = ? AND agent_id = ?').pluck().get(unit.seq, v.agentId) as
    | number
    | undefined;
  const decision = v.decide(
    { baseQuality: unit.base_quality, valid: unit.valid_count, invalid: unit.invalid_count, previous: previous === undefined ? null : previous === 1 },
    v.valid,
  );
  prepare(
    `INSERT INTO verdicts (unit_seq, unit_id, agent_id, valid, feedback, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (unit_seq, agent_id) DO UPDATE SET valid = excluded.valid, feedback = excluded.feedback, updated_at = excluded.updated_at`,
  ).run(unit.seq, v.unitId, v.agentId, v.valid ? 1 : 0, v.feedback, v.at, v.at);
  if (decision.rewardMillis > 0) reward(prepare, v.agentId, 'validate_knowledge', decision.rewardMillis, v.unitId, v.at);
  prepare('UPDATE knowledge_units SET valid_count = ?, invalid_count = ?, quality_score = ?, updated_at = ? WHERE seq = ?').run(
    decision.valid,
    decision.invalid,
    decision.qualityScore,
    v.at,
    unit.seq,
  );
  return { recorded: true, first: previous === undefined };
}

// ---- skills --------------------------------------------------------------------------------------

export function insertSkill(prepare: Prepare, { skill, body }: SkillImport): void {
  const { lastInsertRowid: seq } = prepare(INSERT_SKILL).run(...rows.skillValues(skill));
  const tagRow = prepare('INSERT OR IGNORE INTO skill_tags (tag, skill_seq) VALUES (?, ?)');
  for (const tag of rows.skillTagKeys(skill)) tagRow.run(tag, seq);
  prepare('INSERT INTO skills_fts (rowid, name, description, tags, body) VALUES (?, ?, ?, ?, ?)').run(
    seq,
    skill.name,
    skill.description,
    skill.tags.join(' '),
    body,
  );
}

// ---- bulk ----------------------------------------------------------------------------------------

/**
 * Many contributions through the same writers, with each agent's totals moved once: exactly the rows
 * and rewards that one contribute call per item would leave. An unknown agent aborts the whole import.
 */
export function importContributions<T>(
  prepare: Prepare,
  items: readonly T[],
  insert: (item: T) => { agentId: string; targetId: string; at: string },
  action: ReputationAction,
  rewardMillis: number,
): void {
  const totals = new Map<string, { count: number; lastAt: string }>();
  const event = prepare('INSERT INTO reputation_events (agent_id, action, delta_millis, target_id, created_at) VALUES (?, ?, ?, ?, ?)');
  for (const item of items) {
    const { agentId, targetId, at } = insert(item);
    event.run(agentId, action, rewardMillis, targetId, at);
    const total = totals.get(agentId);
    if (total) {
      total.count += 1;
      total.lastAt = at;
    } else totals.set(agentId, { count: 1, lastAt: at });
  }
  for (const [agentId, { count, lastAt }] of totals) moveTotals(prepare, agentId, action, rewardMillis, count, lastAt);
}
