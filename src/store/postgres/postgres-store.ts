// The PostgreSQL store, for several instances sharing one database. Writes that belong together run in
// one transaction on one pooled connection; search uses weighted tsvector columns with GIN indexes.
import type { Pool, PoolClient } from 'pg';
import type {
  ApiKeyRecord,
  KeyMetadata,
  KnowledgeUnit,
  ReputationEvent,
  ReputationProfile,
  Skill,
  Verdict,
} from '../../domain/model.js';
import {
  AgentExistsError,
  PrefixTakenError,
  type AgentOrigin,
  type IdempotentResponse,
  type NewKey,
  type NewVerdict,
  type Page,
  type SavedResponse,
  type SkillImport,
  type SkillQuery,
  type Store,
  type UnitImport,
  type UnitQuery,
  type VerdictOutcome,
} from '../store.js';
import { importSkillsPostgres, importUnitsPostgres } from './bulk.js';
import {
  appliedMigrations,
  createPool,
  inTransaction,
  migrate,
  refuseUnstorable,
  run,
  uniqueViolation,
  type PoolOptions,
  type Queryable,
} from './db.js';
import { exportHistory, exportKeys, exportSkills, exportUnits, exportVerdicts } from './export-batches.js';
import { findResponse, purgeResponses, saveResponse } from './idempotency.js';
import { listSkills, listUnits } from './lists.js';
import * as rows from './rows.js';

export class PostgresStore implements Store {
  readonly backend = 'postgres' as const;
  private closed = false;

  private constructor(private readonly pool: Pool) {}

  /** Opens the pool and brings the schema up to date before the store answers anything. */
  static async open(url: string, options: PoolOptions = {}): Promise<PostgresStore> {
    await migrate(url, options);
    return new PostgresStore(createPool(url, options));
  }

  /** The migration versions recorded in the database. */
  appliedMigrations(): Promise<number[]> {
    return appliedMigrations(this.pool);
  }

  async ping(): Promise<void> {
    await run(this.pool, 'SELECT 1');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  // ---- agents and keys -------------------------------------------------------------------------

  async findKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const sql = `SELECT ${rows.KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`;
    const [row] = (await run<rows.KeyRow>(this.pool, sql, [keyHash])).rows;
    return row ? rows.toKey(row) : null;
  }

  async findActiveKeyByPrefix(keyPrefix: string): Promise<ApiKeyRecord | null> {
    const sql = `SELECT ${rows.KEY_COLUMNS} FROM api_keys WHERE key_prefix = $1 AND revoked_at IS NULL`;
    const [row] = (await run<rows.KeyRow>(this.pool, sql, [keyPrefix])).rows;
    return row ? rows.toKey(row) : null;
  }

  async agentExists(agentId: string): Promise<boolean> {
    return (await run(this.pool, 'SELECT 1 FROM agents WHERE agent_id = $1', [agentId])).rowCount === 1;
  }

  async agentOrigin(agentId: string): Promise<AgentOrigin | null> {
    const [row] = (await run<{ origin: AgentOrigin }>(this.pool, 'SELECT origin FROM agents WHERE agent_id = $1', [agentId])).rows;
    return row?.origin ?? null;
  }

  async claimOidcAgent(agentId: string, at: string): Promise<AgentOrigin> {
    refuseUnstorable(agentId, 'agent_id');
    // Two statements on purpose: the SELECT takes a fresh snapshot, so it sees a row that a concurrent
    // instance committed after this INSERT's snapshot was taken.
    await run(
      this.pool,
      `INSERT INTO agents (agent_id, origin, created_at, updated_at) VALUES ($1, 'oidc', $2, $2) ON CONFLICT DO NOTHING`,
      [agentId, at],
    );
    return (await this.agentOrigin(agentId))!;
  }

  async createAgentWithKey(key: NewKey, response?: IdempotentResponse): Promise<void> {
    refuseUnstorable(key);
    await inTransaction(this.pool, async (client) => {
      try {
        await run(client, 'INSERT INTO agents (agent_id, created_at, updated_at) VALUES ($1, $2, $2)', [key.agentId, key.createdAt]);
      } catch (error) {
        if (uniqueViolation(error) === 'agents_pkey') throw new AgentExistsError(key.agentId);
        throw error;
      }
      await this.insertKey(client, key);
      await saveResponse(client, response);
    });
  }

  async addKey(key: NewKey, response?: IdempotentResponse): Promise<void> {
    refuseUnstorable(key);
    await inTransaction(this.pool, async (client) => {
      await this.insertKey(client, key);
      await saveResponse(client, response);
    });
  }

  private async insertKey(db: Queryable, key: NewKey): Promise<void> {
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

  async revokeKey(keyId: number, at: string, response?: IdempotentResponse): Promise<boolean> {
    const sql = 'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL';
    return inTransaction(this.pool, async (client) => {
      if ((await run(client, sql, [at, keyId])).rowCount !== 1) return false;
      await saveResponse(client, response);
      return true;
    });
  }

  findIdempotentResponse(scope: string, keyHash: string, notBefore: string): Promise<SavedResponse | null> {
    return findResponse(this.pool, scope, keyHash, notBefore);
  }

  purgeIdempotentResponses(before: string): Promise<number> {
    return purgeResponses(this.pool, before);
  }

  // ---- skills ----------------------------------------------------------------------------------

  async contributeSkill(skill: Skill, body: string, rewardMillis: number, response?: IdempotentResponse): Promise<void> {
    refuseUnstorable(skill);
    refuseUnstorable(body, 'body');
    await inTransaction(this.pool, async (client) => {
      const inserted = await run<{ seq: string }>(
        client,
        `INSERT INTO skills (id, agent_id, name, description, domain, tags, license, visibility, quality_score,
           skill_md_content, body, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13) RETURNING seq`,
        [skill.id, skill.agent_id, skill.name, skill.description, skill.domain, JSON.stringify(skill.tags), skill.license,
          skill.visibility, skill.quality_score, skill.skill_md_content, body, skill.created_at, skill.updated_at],
      );
      const tags = [...new Set(skill.tags.map((tag) => tag.toLowerCase()))];
      if (tags.length > 0) {
        await run(client, 'INSERT INTO skill_tags (tag, skill_seq) SELECT unnest($1::text[]), $2::bigint', [
          tags,
          inserted.rows[0]!.seq,
        ]);
      }
      await this.reward(client, skill.agent_id, 'contribute_skill', rewardMillis, skill.id, skill.created_at, true);
      await saveResponse(client, response);
    });
  }

  async getSkill(id: string): Promise<Skill | null> {
    const [row] = (await run<rows.SkillRow>(this.pool, `SELECT ${rows.SKILL_COLUMNS} FROM skills s WHERE s.id = $1`, [id])).rows;
    return row ? rows.toSkill(row) : null;
  }

  listSkills(query: SkillQuery): Promise<Page<Skill>> {
    return listSkills(this.pool, query);
  }

  // ---- knowledge units -------------------------------------------------------------------------

  async contributeUnit(
    unit: KnowledgeUnit,
    baseQuality: number,
    rewardMillis: number,
    response?: IdempotentResponse,
  ): Promise<void> {
    refuseUnstorable(unit);
    await inTransaction(this.pool, async (client) => {
      await run(
        client,
        `INSERT INTO knowledge_units (id, agent_id, title, type, domain, description, examples, source, confidence,
           tags, base_quality, quality_score, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10::jsonb, $11, $12, $13, $14)`,
        [unit.id, unit.agent_id, unit.title, unit.type, unit.domain, unit.content.description,
          JSON.stringify(unit.content.examples), unit.metadata.source, unit.metadata.confidence, JSON.stringify(unit.tags),
          baseQuality, unit.quality_score, unit.created_at, unit.updated_at],
      );
      await this.reward(client, unit.agent_id, 'contribute_knowledge', rewardMillis, unit.id, unit.created_at, true);
      await saveResponse(client, response);
    });
  }

  async getUnit(id: string): Promise<KnowledgeUnit | null> {
    const sql = `SELECT ${rows.UNIT_COLUMNS} FROM knowledge_units ku WHERE ku.id = $1`;
    const [row] = (await run<rows.UnitRow>(this.pool, sql, [id])).rows;
    return row ? rows.toUnit(row) : null;
  }

  listUnits(query: UnitQuery): Promise<Page<KnowledgeUnit>> {
    return listUnits(this.pool, query);
  }

  async deleteUnit(id: string): Promise<boolean> {
    // One statement: verdicts go by ON DELETE CASCADE, and the search vector lives in the row itself.
    return (await run(this.pool, 'DELETE FROM knowledge_units WHERE id = $1', [id])).rowCount === 1;
  }

  async recordVerdict(v: NewVerdict, response?: IdempotentResponse): Promise<VerdictOutcome> {
    refuseUnstorable({ unit_id: v.unitId, agent_id: v.agentId, feedback: v.feedback });
    return inTransaction(this.pool, async (client): Promise<VerdictOutcome> => {
      // FOR UPDATE: verdicts on one unit, from any instance, queue here, so each one starts from the
      // counts the previous one committed and none is lost.
      const [unit] = (
        await run<{ seq: string; base_quality: number; valid_count: number; invalid_count: number }>(
          client,
          'SELECT seq, base_quality, valid_count, invalid_count FROM knowledge_units WHERE id = $1 FOR UPDATE',
          [v.unitId],
        )
      ).rows;
      if (!unit) return { recorded: false, reason: 'not_found' };
      const [previous] = (
        await run<{ valid: boolean }>(client, 'SELECT valid FROM verdicts WHERE unit_seq = $1 AND agent_id = $2', [
          unit.seq,
          v.agentId,
        ])
      ).rows;
      let valid = unit.valid_count + (v.valid ? 1 : 0);
      let invalid = unit.invalid_count + (v.valid ? 0 : 1);
      if (previous) {
        if (previous.valid) valid -= 1;
        else invalid -= 1;
        await run(client, 'UPDATE verdicts SET valid = $1, feedback = $2, updated_at = $3 WHERE unit_seq = $4 AND agent_id = $5', [
          v.valid, v.feedback, v.at, unit.seq, v.agentId,
        ]);
      } else {
        await run(
          client,
          `INSERT INTO verdicts (unit_seq, unit_id, agent_id, valid, feedback, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $6)`,
          [unit.seq, v.unitId, v.agentId, v.valid, v.feedback, v.at],
        );
        await this.reward(client, v.agentId, 'validate_knowledge', v.rewardMillis, v.unitId, v.at, false);
      }
      await run(
        client,
        'UPDATE knowledge_units SET valid_count = $1, invalid_count = $2, quality_score = $3, updated_at = $4 WHERE seq = $5',
        [valid, invalid, v.rescore(unit.base_quality, valid, invalid), v.at, unit.seq],
      );
      await saveResponse(client, response);
      return { recorded: true, first: previous === undefined };
    });
  }

  /** Adds a history item and moves the agent's running totals, in one statement of the caller's transaction. */
  private async reward(
    client: PoolClient,
    agentId: string,
    action: ReputationEvent['action'],
    millis: number,
    targetId: string,
    at: string,
    contribution: boolean,
  ): Promise<void> {
    await run(
      client,
      `WITH event AS (
         INSERT INTO reputation_events (agent_id, action, delta_millis, target_id, created_at) VALUES ($1, $2, $3, $4, $5)
       )
       UPDATE agents SET score_millis = score_millis + $3, contributions = contributions + $6,
         validations = validations + $7, updated_at = $5 WHERE agent_id = $1`,
      [agentId, action, millis, targetId, at, contribution ? 1 : 0, contribution ? 0 : 1],
    );
  }

  // ---- reputation and export -------------------------------------------------------------------

  importUnits(items: readonly UnitImport[], rewardMillis: number): Promise<void> {
    return importUnitsPostgres(this.pool, items, rewardMillis);
  }

  importSkills(items: readonly SkillImport[], rewardMillis: number): Promise<void> {
    return importSkillsPostgres(this.pool, items, rewardMillis);
  }

  async reputation(agentId: string, historyLimit: number): Promise<ReputationProfile | null> {
    const sql = 'SELECT agent_id, score_millis, contributions, validations, updated_at FROM agents WHERE agent_id = $1';
    const [agent] = (await run<rows.AgentRow>(this.pool, sql, [agentId])).rows;
    if (!agent) return null;
    if (historyLimit <= 0) return rows.toProfile(agent, []);
    const history = await run<rows.EventRow>(
      this.pool,
      `SELECT ${rows.EVENT_COLUMNS} FROM reputation_events WHERE agent_id = $1 ORDER BY seq DESC LIMIT $2`,
      [agentId, historyLimit],
    );
    return rows.toProfile(agent, history.rows);
  }

  exportKeys(agentId: string): AsyncIterable<KeyMetadata> {
    return exportKeys(this.pool, agentId);
  }

  exportUnits(agentId: string): AsyncIterable<KnowledgeUnit> {
    return exportUnits(this.pool, agentId);
  }

  exportSkills(agentId: string): AsyncIterable<Skill> {
    return exportSkills(this.pool, agentId);
  }

  exportVerdicts(agentId: string): AsyncIterable<Verdict> {
    return exportVerdicts(this.pool, agentId);
  }

  exportHistory(agentId: string): AsyncIterable<ReputationEvent> {
    return exportHistory(this.pool, agentId);
  }
}
