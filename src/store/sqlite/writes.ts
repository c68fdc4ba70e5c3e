// Every write of the SQLite store, one writer per table. Each runs inside the caller's transaction (a
// group-commit savepoint), so a change and the rows that go with it (search index, reputation, a saved
// idempotent response) commit together or not at all. Bulk imports reuse the same writers.
import type { ReputationAction } from '../../domain/model.js';
import { rewardMove, takeBack as takeBackRule, type StandingMove } from '../../domain/reputation.js';
import * as rows from '../rows.js';
import { render } from '../sql.js';
import { verdictTallyUpdate } from '../verdict-tally.js';
import { agentIdSkeleton } from '../../domain/agent-ids.js';
import { AgentConfusableError, AgentExistsError, PrefixTakenError } from '../store.js';
import type {
  AgentOrigin,
  NewKey,
  NewVerdict,
  SearchKind,
  StorageQuota,
  UnitImport,
  VerdictOutcome,
} from '../store.js';
import { checkQuota } from '../quota.js';
import type { Prepare } from './connection.js';
import { isUniqueViolation } from './errors.js';
import { tagKeys } from '../../domain/tags.js';

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const INSERT_UNIT = `INSERT INTO knowledge_units (${rows.UNIT_INSERT_COLUMNS.join(', ')}) VALUES (${placeholders(rows.UNIT_INSERT_COLUMNS.length)})`;

// ---- agents and keys -----------------------------------------------------------------------------

/**
 * Claims an agent id (AgentExistsError) and its skeleton. A key agent whose id looks like an existing
 * one is refused (AgentConfusableError); an identity-provider agent's id is taken as given, and holds
 * its skeleton only when no other agent does.
 */
export function insertAgent(prepare: Prepare, agentId: string, origin: AgentOrigin, at: string): void {
  try {
    prepare('INSERT INTO agents (agent_id, origin, created_at, updated_at) VALUES (?, ?, ?, ?)').run(
      agentId,
      origin,
      at,
      at,
    );
  } catch (error) {
    if (isUniqueViolation(error, 'agents.agent_id')) throw new AgentExistsError(agentId);
    throw error;
  }
  const claim = prepare('INSERT INTO agent_skeletons (skeleton, agent_id) VALUES (?, ?) ON CONFLICT DO NOTHING');
  if (claim.run(agentIdSkeleton(agentId), agentId).changes === 0 && origin === 'api_key') {
    throw new AgentConfusableError(agentId);
  }
}

export function insertKey(prepare: Prepare, key: NewKey): void {
  try {
    prepare(
      'INSERT INTO api_keys (agent_id, key_hash, key_prefix, scopes, tier, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(key.agentId, key.keyHash, key.keyPrefix, key.scopes.join(' '), key.tier, key.createdAt);
  } catch (error) {
    if (isUniqueViolation(error, 'api_keys.key_prefix')) throw new PrefixTakenError(key.keyPrefix);
    throw error;
  }
}

export function revokeKey(prepare: Prepare, keyId: number, at: string): boolean {
  return prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, keyId).changes === 1;
}

// ---- reputation ----------------------------------------------------------------------------------

const INSERT_EVENT =
  'INSERT INTO reputation_events (agent_id, action, delta_millis, target_id, created_at, private) VALUES (?, ?, ?, ?, ?, ?)';

/** A history item for a reward, and the agent's running totals moved as the reputation rule says. */
export function reward(
  prepare: Prepare,
  agentId: string,
  action: ReputationAction,
  millis: number,
  targetId: string,
  at: string,
  options: { private?: boolean } = {},
): void {
  prepare(INSERT_EVENT).run(agentId, action, millis, targetId, at, options.private ? 1 : 0);
  moveStanding(prepare, agentId, rewardMove(action, millis), at);
}

function moveStanding(prepare: Prepare, agentId: string, move: StandingMove, at: string): void {
  const changed = prepare(
    `UPDATE agents SET score_millis = score_millis + ?, contributions = contributions + ?,
       validations = validations + ?, updated_at = ? WHERE agent_id = ?`,
  ).run(move.scoreMillis, move.contributions, move.validations, at, agentId).changes;
  if (changed !== 1) throw new Error(`agent ${agentId} does not exist; create it before its contributions`);
}

// ---- storage usage -------------------------------------------------------------------------------

/**
 * Moves an agent's storage usage by a contribution (or, negative, its removal), refusing a move that
 * would take it over `quota`: inside the write's transaction, so concurrent writes cannot overshoot.
 */
export function moveUsage(
  prepare: Prepare,
  agentId: string,
  units: number,
  skills: number,
  bytes: number,
  quota?: StorageQuota,
): void {
  if (quota) {
    const used = prepare('SELECT unit_count, skill_count, stored_bytes FROM agents WHERE agent_id = ?').get(agentId) as
      { unit_count: number; skill_count: number; stored_bytes: number } | undefined;
    if (used)
      checkQuota(quota, used.unit_count + units, used.skill_count + skills, used.stored_bytes + bytes, {
        units,
        skills,
        bytes,
      });
  }
  prepare(
    'UPDATE agents SET unit_count = unit_count + ?, skill_count = skill_count + ?, stored_bytes = stored_bytes + ? WHERE agent_id = ?',
  ).run(units, skills, bytes, agentId);
}

// ---- knowledge units -----------------------------------------------------------------------------

export function insertUnit(prepare: Prepare, { unit, baseQuality }: UnitImport, quota?: StorageQuota): void {
  moveUsage(prepare, unit.agent_id, 1, 0, rows.unitBytes(unit), quota);
  const { lastInsertRowid } = prepare(INSERT_UNIT).run(...rows.unitValues(unit, baseQuality));
  const tag = prepare('INSERT INTO unit_tags (tag, unit_seq) VALUES (?, ?)');
  for (const key of tagKeys(unit.tags)) tag.run(key, lastInsertRowid);
}

export function deleteUnit(prepare: Prepare, id: string, at: string): boolean {
  const unit = prepare('SELECT seq, agent_id, bytes FROM knowledge_units WHERE id = ?').get(id) as
    { seq: number; agent_id: string; bytes: number } | undefined;
  if (unit === undefined) return false;
  prepare('DELETE FROM knowledge_units WHERE seq = ?').run(unit.seq); // verdicts go by ON DELETE CASCADE
  moveUsage(prepare, unit.agent_id, -1, 0, -unit.bytes);
  takeBack(prepare, unit.agent_id, 'contribute_knowledge', id, at, false);
  return true;
}

/** The contribution reward for `targetId`, taken back as the reputation rule says (a negated history item). */
export function takeBack(
  prepare: Prepare,
  agentId: string,
  action: ReputationAction,
  targetId: string,
  at: string,
  isPrivate: boolean,
): void {
  const given = prepare(
    'SELECT coalesce(sum(delta_millis), 0) FROM reputation_events WHERE agent_id = ? AND action = ? AND target_id = ?',
  )
    .pluck()
    .get(agentId, action, targetId) as number;
  const taken = takeBackRule(action, given);
  if (!taken) return;
  prepare(INSERT_EVENT).run(agentId, action, taken.deltaMillis, targetId, at, isPrivate ? 1 : 0);
  moveStanding(prepare, agentId, taken.move, at);
}

/** Reads what the verdict rule needs, lets it decide, and writes its decision. */
export function recordVerdict(prepare: Prepare, v: NewVerdict): VerdictOutcome {
  const unit = prepare(
    'SELECT seq, base_quality, valid_count, invalid_count, valid_weight, invalid_weight FROM knowledge_units WHERE id = ?',
  ).get(v.unitId) as
    | {
        seq: number;
        base_quality: number;
        valid_count: number;
        invalid_count: number;
        valid_weight: number;
        invalid_weight: number;
      }
    | undefined;
  if (!unit) return { recorded: false, reason: 'not_found' };
  const previous = prepare('SELECT valid, weight FROM verdicts WHERE unit_seq = ? AND agent_id = ?').get(
    unit.seq,
    v.agentId,
  ) as { valid: number; weight: number } | undefined;
  const decision = v.decide(rows.toVerdictState(unit, previous, rows.sqliteDecode), {
    valid: v.valid,
    weight: v.weight,
  });
  prepare(
    `INSERT INTO verdicts (unit_seq, unit_id, agent_id, valid, feedback, created_at, updated_at, weight) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (unit_seq, agent_id) DO UPDATE SET valid = excluded.valid, feedback = excluded.feedback,
       updated_at = excluded.updated_at, weight = excluded.weight`,
  ).run(unit.seq, v.unitId, v.agentId, v.valid ? 1 : 0, v.feedback, v.at, v.at, v.weight);
  if (decision.rewardMillis > 0)
    reward(prepare, v.agentId, 'validate_knowledge', decision.rewardMillis, v.unitId, v.at);
  const tally = render(verdictTallyUpdate(decision, v.at, unit.seq), 'sqlite');
  prepare(tally.text).run(...tally.values);
  return { recorded: true, first: previous === undefined };
}

// ---- the search index's feed ------------------------------------------------------------------------

/**
 * Forgets all but the newest `keep` changes and marks how far the log is purged. The newest change always
 * stays: a change's number is the highest one plus one, so an empty log would number the next change
 * again from 1, behind every reader.
 */
export function purgeSearchChanges(prepare: Prepare, keep: number): number {
  const below = prepare('SELECT seq FROM search_changes ORDER BY seq DESC LIMIT 1 OFFSET ?')
    .pluck()
    .get(Math.max(1, keep)) as number | undefined;
  if (below === undefined) return 0;
  prepare('UPDATE registry_meta SET log_purged_seq = max(log_purged_seq, ?)').run(below);
  return prepare('DELETE FROM search_changes WHERE seq <= ?').run(below).changes;
}

/** Keeps vectors of items that still exist (a vector for a deleted item is dropped). */
export function saveVectors(
  prepare: Prepare,
  kind: SearchKind,
  model: string,
  vectors: readonly { seq: number; vector: Float32Array }[],
): void {
  const table = kind === 'skill' ? 'skills' : 'knowledge_units';
  const save = prepare(
    `INSERT INTO search_vectors (kind, item_seq, model, vector) SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM ${table} WHERE seq = ?)
     ON CONFLICT (kind, item_seq, model) DO UPDATE SET vector = excluded.vector`,
  );
  for (const { seq, vector } of vectors)
    save.run(kind, seq, model, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), seq);
}

// ---- bulk ----------------------------------------------------------------------------------------

/**
 * Many contributions through the same writers, with each agent's totals moved once: exactly the rows
 * and rewards that one contribute call per item would leave. An unknown agent aborts the whole import.
 */
export function importContributions<T>(
  prepare: Prepare,
  items: readonly T[],
  insert: (item: T) => { agentId: string; targetId: string; at: string; isPrivate?: boolean },
  action: ReputationAction,
  rewardMillis: number,
): void {
  const totals = new Map<string, { count: number; lastAt: string }>();
  const event = prepare(INSERT_EVENT);
  for (const item of items) {
    const { agentId, targetId, at, isPrivate } = insert(item);
    event.run(agentId, action, rewardMillis, targetId, at, isPrivate ? 1 : 0);
    const total = totals.get(agentId);
    if (total) {
      total.count += 1;
      total.lastAt = at;
    } else totals.set(agentId, { count: 1, lastAt: at });
  }
  for (const [agentId, { count, lastAt }] of totals)
    moveStanding(prepare, agentId, rewardMove(action, rewardMillis, count), lastAt);
}
