// The PostgreSQL store, for several instances sharing one database. This class only wires the rooms
// together: the connection, the writers, agent and skill reads, lists, idempotent responses, export
// batches and the search index's feed (PostgresSearchFeed, which it extends) live in files of their own,
// mirrored by the SQLite store. Writes that belong together run in one transaction on one pooled connection.
import type { Pool, PoolClient } from 'pg';
import type { ApiKeyRecord, KeyMetadata, KnowledgeUnit, ReputationEvent, ReputationProfile, Skill, SkillVersionSummary, Verdict } from '../../domain/model.js';
import type { SkillSummary, UnitSummary } from '../../domain/summaries.js';
import * as rows from '../rows.js';
import {
  AgentExistsError,
  type AgentOrigin,
  type IdempotentResponse,
  type NewKey,
  type NewVerdict,
  type Page,
  type RecentSkillQuery,
  type RecentUnitQuery,
  type SavedResponse,
  type DiscoveryEntry,
  type HostSkill,
  type SkillBundle,
  type SkillExport,
  type SkillFileContent,
  type SkillIdentity,
  type SkillImport,
  type SkillPlan,
  type SkillQuery,
  type StorageQuota,
  type Store,
  type UnitImport,
  type UnitQuery,
  type VerdictOutcome,
} from '../store.js';
import * as agentReads from './agent-reads.js';
import { appliedMigrations, createPool, inTransaction, migrate, run, type PoolOptions } from './connection.js';
import { refuseUnstorable } from './errors.js';
import * as exports from './export.js';
import { findResponse, purgeResponses, saveResponse } from './idempotency.js';
import { listSkills, listUnits } from './lists.js';
import { PostgresSearchFeed } from './search-feed.js';
import * as recentReads from './recent-reads.js';
import * as skillReads from './skill-reads.js';
import * as skills from './skills.js';
import * as writes from './writes.js';

export class PostgresStore extends PostgresSearchFeed implements Store {
  readonly backend = 'postgres' as const;
  private closed = false;

  private constructor(protected readonly pool: Pool) {
    super();
  }

  /** Opens the pool and brings the schema up to date before the store answers anything. */
  static async open(url: string, options: PoolOptions = {}): Promise<PostgresStore> {
    await migrate(url, options);
    return new PostgresStore(createPool(url, options));
  }

  /** The migration versions recorded in the database. */
  appliedMigrations(): Promise<number[]> {
    return appliedMigrations(this.pool);
  }

  /** A write in one transaction, with the idempotent response saved in it. */
  private write<T>(work: (client: PoolClient) => Promise<T>, response?: IdempotentResponse): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      const result = await work(client);
      await saveResponse(client, response);
      return result;
    });
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

  findKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return agentReads.findKeyByHash(this.pool, keyHash);
  }

  findActiveKeyByPrefix(keyPrefix: string): Promise<ApiKeyRecord | null> {
    return agentReads.findActiveKeyByPrefix(this.pool, keyPrefix);
  }

  async agentExists(agentId: string): Promise<boolean> {
    return (await this.agentOrigin(agentId)) !== null;
  }

  agentOrigin(agentId: string): Promise<AgentOrigin | null> {
    return agentReads.agentOrigin(this.pool, agentId);
  }

  async claimOidcAgent(agentId: string, at: string): Promise<AgentOrigin> {
    refuseUnstorable(agentId, 'agent_id');
    // The claim and the read that follows are separate statements on purpose: the SELECT takes a fresh
    // snapshot, so it sees a row that a concurrent instance committed after the INSERT's was taken.
    try {
      await this.write((client) => writes.insertAgent(client, agentId, 'oidc', at));
    } catch (error) {
      if (!(error instanceof AgentExistsError)) throw error;
    }
    return (await this.agentOrigin(agentId))!;
  }

  async createAgentWithKey(key: NewKey, response?: IdempotentResponse): Promise<void> {
    refuseUnstorable(key);
    await this.write(async (client) => {
      await writes.insertAgent(client, key.agentId, 'api_key', key.createdAt);
      await writes.insertKey(client, key);
    }, response);
  }

  async addKey(key: NewKey, response?: IdempotentResponse): Promise<void> {
    refuseUnstorable(key);
    await this.write((client) => writes.insertKey(client, key), response);
  }

  revokeKey(keyId: number, at: string, response?: IdempotentResponse): Promise<boolean> {
    // The response is saved only when the key was revoked: a refusal is never replayed.
    return inTransaction(this.pool, async (client) => {
      if (!(await writes.revokeKey(client, keyId, at))) return false;
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

  findSkillByName(agentId: string, name: string): Promise<SkillIdentity | null> {
    return skillReads.findSkillByName(this.pool, agentId, name);
  }

  async publishSkill(plan: SkillPlan, response?: IdempotentResponse, quota?: StorageQuota): Promise<void> {
    refuseUnstorable({ ...plan.version, files: plan.version.files.map((f) => f.path) });
    await this.write((client) => skills.publish(client, plan, quota), response);
  }

  hostSkills(ids: readonly string[]): Promise<HostSkill[]> {
    return skillReads.hostSkills(this.pool, ids);
  }

  getSkill(id: string, version?: string): Promise<Skill | null> {
    return skillReads.getSkill(this.pool, id, version);
  }

  listSkillVersions(id: string): Promise<SkillVersionSummary[] | null> {
    return skillReads.listVersions(this.pool, id);
  }

  getSkillFile(id: string, version: string | null, path: string): Promise<SkillFileContent | null> {
    return skillReads.getFile(this.pool, id, version, path);
  }

  getSkillBundle(id: string, version: string): Promise<SkillBundle | null> {
    return skillReads.getBundle(this.pool, id, version);
  }

  setSkillYanked(id: string, version: string, yanked: boolean, at: string, pickLatest: SkillPlan['pickLatest']) {
    return this.write((client) => skills.setYanked(client, id, version, yanked, at, pickLatest));
  }

  deleteSkill(id: string, at: string): Promise<boolean> {
    return this.write((client) => skills.deleteSkill(client, id, at));
  }

  discoveryIndex(): AsyncIterable<DiscoveryEntry> {
    return skillReads.discoveryIndex(this.pool);
  }

  listSkills(query: SkillQuery): Promise<Page<SkillSummary>> {
    return listSkills(this.pool, query);
  }

  recentSkills(query: RecentSkillQuery): Promise<SkillSummary[]> {
    return recentReads.recentSkills(this.pool, query);
  }

  // ---- knowledge units -------------------------------------------------------------------------

  async contributeUnit(
    unit: KnowledgeUnit,
    baseQuality: number,
    rewardMillis: number,
    response?: IdempotentResponse,
    quota?: StorageQuota,
  ): Promise<void> {
    refuseUnstorable(unit);
    await this.write(async (client) => {
      const usage = { units: 1, skills: 0, bytes: rows.unitBytes(unit) };
      if (quota) await writes.reserveStorage(client, unit.agent_id, quota, usage);
      await writes.insertUnits(client, [{ unit, baseQuality }]);
      await writes.reward(client, [{ agentId: unit.agent_id, targetId: unit.id, at: unit.created_at, usage }], 'contribute_knowledge', rewardMillis);
    }, response);
  }

  async getUnit(id: string): Promise<KnowledgeUnit | null> {
    const [row] = (await run<rows.UnitRow>(this.pool, `SELECT ${rows.UNIT_COLUMNS} FROM knowledge_units ku WHERE ku.id = $1`, [id])).rows;
    return row ? rows.toUnit(row, rows.postgresDecode) : null;
  }

  listUnits(query: UnitQuery): Promise<Page<UnitSummary>> {
    return listUnits(this.pool, query);
  }

  recentUnits(query: RecentUnitQuery): Promise<UnitSummary[]> {
    return recentReads.recentUnits(this.pool, query);
  }

  deleteUnit(id: string, at: string): Promise<boolean> {
    return this.write((client) => writes.deleteUnit(client, id, at));
  }

  recordVerdict(verdict: NewVerdict, response?: IdempotentResponse): Promise<VerdictOutcome> {
    refuseUnstorable({ unit_id: verdict.unitId, agent_id: verdict.agentId, feedback: verdict.feedback });
    return inTransaction(this.pool, async (client) => {
      const outcome = await writes.recordVerdict(client, verdict);
      if (outcome.recorded) await saveResponse(client, response);
      return outcome;
    });
  }

  // ---- bulk, reputation and export -------------------------------------------------------------

  async importUnits(items: readonly UnitImport[], rewardMillis: number): Promise<void> {
    if (items.length === 0) return;
    for (const { unit } of items) refuseUnstorable(unit);
    await this.write(async (client) => {
      await writes.insertUnits(client, items);
      const rewarded = items.map(({ unit }) => ({
        agentId: unit.agent_id,
        targetId: unit.id,
        at: unit.created_at,
        usage: { units: 1, skills: 0, bytes: rows.unitBytes(unit) },
      }));
      await writes.reward(client, rewarded, 'contribute_knowledge', rewardMillis);
    });
  }

  /** Many new skills in one transaction, each through the ordinary publication. */
  async importSkills(items: readonly SkillImport[]): Promise<void> {
    if (items.length === 0) return;
    for (const { plan } of items) refuseUnstorable({ ...plan.version, files: plan.version.files.map((f) => f.path) });
    await this.write(async (client) => {
      for (const { plan } of items) await skills.publish(client, plan, undefined);
    });
  }

  reputation(agentId: string, historyLimit: number, withPrivate = false): Promise<ReputationProfile | null> {
    return agentReads.reputation(this.pool, agentId, historyLimit, withPrivate);
  }

  exportKeys(agentId: string): AsyncIterable<KeyMetadata> {
    return exports.exportKeys(this.pool, agentId);
  }

  exportUnits(agentId: string): AsyncIterable<KnowledgeUnit> {
    return exports.exportUnits(this.pool, agentId);
  }

  exportSkills(agentId: string): AsyncIterable<SkillExport> {
    return skillReads.exportSkills(this.pool, agentId);
  }

  exportVerdicts(agentId: string): AsyncIterable<Verdict> {
    return exports.exportVerdicts(this.pool, agentId);
  }

  exportHistory(agentId: string): AsyncIterable<ReputationEvent> {
    return exports.exportHistory(this.pool, agentId);
  }
}
