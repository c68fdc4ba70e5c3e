// Every write of the PostgreSQL store but skills' and verdicts', one writer per table, each inside the
// caller's transaction.
import type { PoolClient } from 'pg';
import type { ReputationAction } from '../../domain/model.js';
import { rewardMove, takeBack as takeBackRule } from '../../domain/reputation.js';
import { tagKeys } from '../../domain/tags.js';
import * as rows from '../rows.js';
import { agentIdSkeleton } from '../../domain/agent-ids.js';
import { AgentConfusableError, AgentExistsError, PrefixTakenError } from '../store.js';
import type { AgentOrigin, NewKey, SearchKind, StorageQuota, UnitImport } from '../store.js';
import { checkQuota } from '../quota.js';
import { run, type Queryable } from './connection.js';
import { uniqueViolation } from './errors.js';
import { Sent } from './group-commit.js';
import { chunks, columnsOf, unnestInsert, withWrites, type Statement } from './statements.js';

/** The PostgreSQL types of the unit columns that are not text, for the array parameters of a bulk insert. */
const UNIT_COLUMN_TYPES = {
  examples: 'jsonb',
  tags: 'jsonb',
  findings: 'jsonb',
  confidence: 'float8',
  base_quality: 'float8',
  quality_score: 'float8',
  bytes: 'int8',
};
const INSERT_UNITS = unnestInsert('knowledge_units', rows.UNIT_INSERT_COLUMNS, UNIT_COLUMN_TYPES, 'seq, id');
/** A unit's tag keys, after its insert (named `units`) in the same statement. */
const INSERT_UNIT_TAGS = `INSERT INTO unit_tags (tag, unit_seq)
SELECT t.tag, units.seq FROM unnest($1::text[], $2::text[]) AS t(tag, id) JOIN units ON units.id = t.id`;

// ---- agents and keys -----------------------------------------------------------------------------

/**
 * Claims an agent id (AgentExistsError) and its skeleton. A key agent whose id looks like an existing
 * one is refused (AgentConfusableError); an identity-provider agent's id is taken as given, and holds
 * its skeleton only when no other agent does.
 */
export async function insertAgent(db: Queryable, agentId: string, origin: AgentOrigin, at: string): Promise<void> {
  try {
    await run(db, 'INSERT INTO agents (agent_id, origin, created_at, updated_at) VALUES ($1, $2, $3, $3)', [
      agentId,
      origin,
      at,
    ]);
  } catch (error) {
    if (uniqueViolation(error) === 'agents_pkey') throw new AgentExistsError(agentId);
    throw error;
  }
  const claimed = await run(
    db,
    'INSERT INTO agent_skeletons (skeleton, agent_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [agentIdSkeleton(agentId), agentId],
  );
  if (claimed.rowCount === 0 && origin === 'api_key') throw new AgentConfusableError(agentId);
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
  return (
    (await run(db, 'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, keyId]))
      .rowCount === 1
  );
}

// ---- reputation ----------------------------------------------------------------------------------

const INSERT_EVENTS = `
INSERT INTO reputation_events (agent_id, action, delta_millis, target_id, created_at, private)
SELECT t.agent_id, $4::text, $5::int, t.target_id, t.created_at, t.private
FROM unnest($1::text[], $2::text[], $3::text[], $6::boolean[]) WITH ORDINALITY AS t(agent_id, target_id, created_at, private, ord)
ORDER BY t.ord`;

const MOVE_TOTALS = `
UPDATE agents AS a SET score_millis = a.score_millis + d.millis, contributions = a.contributions + d.contributions,
  validations = a.validations + d.validations, unit_count = a.unit_count + d.units, skill_count = a.skill_count + d.skills,
  stored_bytes = a.stored_bytes + d.bytes, updated_at = d.at
FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[], $5::text[], $6::int[], $7::int[], $8::bigint[])
  AS d(agent_id, millis, contributions, validations, at, units, skills, bytes)
WHERE a.agent_id = d.agent_id
RETURNING a.agent_id, a.unit_count, a.skill_count, a.stored_bytes`;

interface Rewarded {
  agentId: string;
  targetId: string;
  at: string;
  isPrivate?: boolean;
  /** Storage the contribution takes (units, skills, bytes), moved with the agent's totals. */
  usage?: { units: number; skills: number; bytes: number };
}

/**
 * History items for `items` (`millis` each) and each agent's running totals, moved once per agent in
 * agent-id order (so two writers touching the same agents lock their rows in the same order). With a
 * quota, storage that takes an agent over it is refused (QuotaExceededError, the transaction rolls back):
 * the totals are moved first and checked as they come back, so the agent's row is locked only from here to
 * the commit, not while the contribution itself is written. The writes `along` (the contribution itself)
 * and the history go in the same statement as the totals, one round trip, when the history fits in one.
 */
export async function reward(
  client: PoolClient,
  items: readonly Rewarded[],
  action: ReputationAction,
  millis: number,
  quota?: StorageQuota,
  along: readonly (Statement & { name: string })[] = [],
): Promise<void> {
  const events = chunks(items).map((chunk) => ({
    name: 'history',
    text: INSERT_EVENTS,
    values: [
      chunk.map((i) => i.agentId),
      chunk.map((i) => i.targetId),
      chunk.map((i) => i.at),
      action,
      millis,
      chunk.map((i) => i.isPrivate ?? false),
    ],
  }));
  const before = events.length === 1 ? [...along, events[0]!] : [];
  if (before.length === 0)
    for (const statement of [...along, ...events]) await run(client, statement.text, statement.values);
  const totals = new Map<string, { count: number; lastAt: string; units: number; skills: number; bytes: number }>();
  for (const item of items) {
    const total = totals.get(item.agentId) ?? { count: 0, lastAt: item.at, units: 0, skills: 0, bytes: 0 };
    totals.set(item.agentId, total);
    total.count += 1;
    total.lastAt = item.at;
    total.units += item.usage?.units ?? 0;
    total.skills += item.usage?.skills ?? 0;
    total.bytes += item.usage?.bytes ?? 0;
  }
  const ids = [...totals.keys()].sort();
  const moves = ids.map((id) => rewardMove(action, millis, totals.get(id)!.count));
  const of = (id: string) => totals.get(id)!;
  const statement = withWrites(before, {
    text: MOVE_TOTALS,
    values: [
      ids,
      moves.map((m) => m.scoreMillis),
      moves.map((m) => m.contributions),
      moves.map((m) => m.validations),
      ids.map((id) => of(id).lastAt),
      ids.map((id) => of(id).units),
      ids.map((id) => of(id).skills),
      ids.map((id) => of(id).bytes),
    ],
  });
  const updated = await run<{ agent_id: string; unit_count: number; skill_count: number; stored_bytes: string }>(
    client,
    statement.text,
    statement.values,
  );
  if (updated.rowCount !== ids.length)
    throw new Error('a contributing agent does not exist; create agents before their contributions');
  if (!quota) return;
  for (const held of updated.rows) {
    const growth = of(held.agent_id);
    checkQuota(quota, held.unit_count, held.skill_count, Number(held.stored_bytes), growth);
  }
}

// ---- knowledge units -----------------------------------------------------------------------------

/** The insert of up to ROWS_PER_STATEMENT units, then their tag keys (domain/tags.ts), as two parts of one statement. */
function unitsInsert(items: readonly UnitImport[]): [Statement & { name: string }, Statement & { name: string }] {
  const values = items.map(({ unit, baseQuality }) => rows.unitValues(unit, baseQuality));
  const tags = items.flatMap(({ unit }) => tagKeys(unit.tags).map((tag) => [tag, unit.id]));
  return [
    { name: 'units', text: INSERT_UNITS, values: columnsOf(values, rows.UNIT_INSERT_COLUMNS.length) },
    { name: 'unit_tags', text: INSERT_UNIT_TAGS, values: columnsOf(tags, 2) },
  ];
}

export async function insertUnits(client: PoolClient, items: readonly UnitImport[]): Promise<void> {
  for (const chunk of chunks(items)) {
    const [units, tags] = unitsInsert(chunk);
    const statement = withWrites([units], tags);
    await run(client, statement.text, statement.values);
  }
}

/**
 * A contribution: the unit, its reward in the history and the agent's totals (with its quota), one statement,
 * sent and left unanswered (the group sends the next write behind it; the quota refusal comes with its answer).
 */
export function contribute(
  client: PoolClient,
  item: UnitImport,
  rewardMillis: number,
  quota: StorageQuota | undefined,
): Sent<void> {
  const { unit } = item;
  const usage = { units: 1, skills: 0, bytes: rows.unitBytes(unit) };
  const rewarded = { agentId: unit.agent_id, targetId: unit.id, at: unit.created_at, usage };
  return new Sent(
    undefined,
    reward(client, [rewarded], 'contribute_knowledge', rewardMillis, quota, unitsInsert([item])),
  );
}

/**
 * Locks an agent's row for the rest of the transaction. Every write that touches an agent's objects and its
 * totals takes this lock first, so two such writes queue in one order instead of deadlocking.
 */
export async function lockAgent(client: PoolClient, agentId: string): Promise<void> {
  await run(client, 'SELECT 1 FROM agents WHERE agent_id = $1 FOR UPDATE', [agentId]);
}

/** Deletes a unit (verdicts go by ON DELETE CASCADE) and takes its reward back, its contributor locked first. */
export async function deleteUnit(client: PoolClient, id: string, at: string): Promise<boolean> {
  const [owner] = (await run<{ agent_id: string }>(client, 'SELECT agent_id FROM knowledge_units WHERE id = $1', [id]))
    .rows;
  if (!owner) return false;
  await lockAgent(client, owner.agent_id);
  const [unit] = (
    await run<{ agent_id: string; bytes: string }>(
      client,
      'DELETE FROM knowledge_units WHERE id = $1 RETURNING agent_id, bytes',
      [id],
    )
  ).rows;
  if (!unit) return false;
  await takeBack(client, unit.agent_id, 'contribute_knowledge', id, at, false, {
    units: -1,
    skills: 0,
    bytes: -Number(unit.bytes),
  });
  return true;
}

/**
 * The contribution reward for `targetId`, taken back as the reputation rule says (a negated history item),
 * with the storage the contribution held given back.
 */
export async function takeBack(
  client: PoolClient,
  agentId: string,
  action: ReputationAction,
  targetId: string,
  at: string,
  isPrivate: boolean,
  usage: { units: number; skills: number; bytes: number },
): Promise<void> {
  const [{ given }] = (
    await run<{ given: string }>(
      client,
      'SELECT coalesce(sum(delta_millis), 0) AS given FROM reputation_events WHERE agent_id = $1 AND action = $2 AND target_id = $3',
      [agentId, action, targetId],
    )
  ).rows as [{ given: string }];
  const taken = takeBackRule(action, Number(given));
  if (taken) {
    await run(
      client,
      'INSERT INTO reputation_events (agent_id, action, delta_millis, target_id, created_at, private) VALUES ($1, $2, $3, $4, $5, $6)',
      [agentId, action, taken.deltaMillis, targetId, at, isPrivate],
    );
  }
  const move = taken?.move ?? { scoreMillis: 0, contributions: 0, validations: 0 };
  await run(
    client,
    `UPDATE agents SET score_millis = score_millis + $2, contributions = contributions + $3, validations = validations + $4,
       unit_count = unit_count + $5, skill_count = skill_count + $6, stored_bytes = stored_bytes + $7, updated_at = $8 WHERE agent_id = $1`,
    [agentId, move.scoreMillis, move.contributions, move.validations, usage.units, usage.skills, usage.bytes, at],
  );
}

// ---- the search index's feed ------------------------------------------------------------------------

/**
 * Forgets all but the newest `keep` settled changes (below the oldest transaction still running) and marks
 * how far the log is purged, in one statement. At least one change stays, as on SQLite.
 */
export async function purgeSearchChanges(db: Queryable, keep: number): Promise<number> {
  const { rows } = await run<{ n: string }>(
    db,
    `WITH below AS (
       SELECT tx, seq FROM search_changes WHERE tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
       ORDER BY tx DESC, seq DESC OFFSET $1 LIMIT 1
     ), gone AS (
       DELETE FROM search_changes c USING below WHERE (c.tx, c.seq) <= (below.tx, below.seq) RETURNING 1
     ), marked AS (
       UPDATE registry_meta m SET log_purged_tx = below.tx, log_purged_seq = below.seq FROM below
       WHERE (m.log_purged_tx, m.log_purged_seq) < (below.tx, below.seq)
     )
     SELECT count(*) AS n FROM gone`,
    [Math.max(1, keep)],
  );
  return Number(rows[0]!.n);
}

/** Keeps vectors of items that still exist (a vector for a deleted item is dropped). */
export async function saveVectors(
  db: Queryable,
  kind: SearchKind,
  model: string,
  vectors: readonly { seq: number; vector: Float32Array }[],
): Promise<void> {
  if (vectors.length === 0) return;
  const table = kind === 'skill' ? 'skills' : 'knowledge_units';
  await run(
    db,
    `INSERT INTO search_vectors (kind, item_seq, model, vector)
     SELECT $1, t.seq, $2, t.vector FROM unnest($3::bigint[], $4::bytea[]) AS t(seq, vector)
     WHERE EXISTS (SELECT 1 FROM ${table} i WHERE i.seq = t.seq)
     ON CONFLICT (kind, item_seq, model) DO UPDATE SET vector = excluded.vector`,
    [
      kind,
      model,
      vectors.map((v) => v.seq),
      vectors.map((v) => Buffer.from(v.vector.buffer, v.vector.byteOffset, v.vector.byteLength)),
    ],
  );
}
