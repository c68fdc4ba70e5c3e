// The embedded store: SQLite through better-sqlite3, WAL journal, FTS5 for search. This class only
// wires the rooms together: the connection, group commit, the writers, agent and skill reads, lists (here
// or in read workers), idempotent responses, export batches and the search index's feed (SqliteSearchFeed,
// which it extends) live in files of their own, mirrored by the PostgreSQL store.
import { dirname } from 'node:path';
import type { Database as Db } from 'better-sqlite3';
import type { ApiKeyRecord, KeyMetadata, KnowledgeUnit, ReputationEvent, ReputationProfile, Skill, SkillVersionSummary, Verdict } from '../../domain/model.js';
import type { SkillSummary, UnitSummary } from '../../domain/summaries.js';
import * as rows from '../rows.js';
import {
  StoreUnavailableError,
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
import { freeBytesOn, MIN_FREE_BYTES, openWriter, sqliteFilename, statementCache, type Prepare } from './connection.js';
import * as exports from './export.js';
import { GroupCommit } from './group-commit.js';
import { findResponse, purgeResponses, saveResponse } from './idempotency.js';
import { DEFAULT_TUNING, listSkills, listUnits, type UnitListTuning } from './lists.js';
import { ReadPool } from './read-pool.js';
import { SqliteSearchFeed } from './search-feed.js';
import * as recentReads from './recent-reads.js';
import * as skillReads from './skill-reads.js';
import * as skills from './skills.js';
import * as writes from './writes.js';

export { sqliteFilename };

const CACHE_KIB = 32 * 1024;
const READER_CACHE_KIB = 24 * 1024;
/** Searches waiting for a read worker at most; more answer 503, while gets and writes go on. */
const MAX_WAITING_READS = 64;

export interface SqliteOptions {
  /** Where the unit-list paths switch (tests move them). */
  tuning?: UnitListTuning;
  /** Worker threads for lists and searches (0: on the main thread; always 0 for `:memory:`). */
  readWorkers?: number;
  /** Free bytes on the database's disk (tests fake a full disk). */
  freeBytes?: () => number;
}

export class SqliteStore extends SqliteSearchFeed implements Store {
  readonly backend = 'sqlite' as const;
  private readonly db: Db;
  protected readonly prepare: Prepare;
  private readonly commits: GroupCommit;
  private readonly reads: Pick<ReadPool, 'listUnits' | 'listSkills'>;
  private readonly pool: ReadPool | null = null;
  private readonly freeBytes: (() => number) | null;

  constructor(url: string, options: SqliteOptions = {}) {
    super();
    const filename = sqliteFilename(url);
    this.freeBytes = options.freeBytes ?? (filename === ':memory:' ? null : () => freeBytesOn(dirname(filename)));
    this.db = openWriter(filename, CACHE_KIB);
    this.prepare = statementCache(this.db);
    this.commits = new GroupCommit(this.db);
    const tuning = options.tuning ?? DEFAULT_TUNING;
    const workers = options.readWorkers ?? 0;
    // An in-memory database lives in this thread only; so does every read when no worker is asked for.
    if (filename === ':memory:' || workers === 0) {
      this.reads = {
        listUnits: async (query) => listUnits(this.prepare, query, tuning),
        listSkills: async (query) => listSkills(this.prepare, query),
      };
    } else {
      this.pool = new ReadPool({ filename, tuning, cacheKib: READER_CACHE_KIB }, { workers, maxWaiting: MAX_WAITING_READS });
      this.reads = this.pool;
    }
  }

  /** A write in the next group commit, with the idempotent response saved in the same transaction. */
  protected write<T>(work: (prepare: Prepare) => T, response?: IdempotentResponse): Promise<T> {
    return this.commits.write(() => {
      const result = work(this.prepare);
      saveResponse(this.prepare, response);
      return result;
    });
  }

  /** The database answers, and its disk has room for writes (a full disk would fail every write). */
  async ping(): Promise<void> {
    this.prepare('SELECT 1').get();
    const free = this.freeBytes?.();
    if (free !== undefined && free < MIN_FREE_BYTES) {
      throw new StoreUnavailableError(`the disk holding the database is full (${free} bytes free)`);
    }
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    await this.pool?.close();
    this.commits.commitQueued();
    this.db.close();
  }

  // ---- agents and keys -------------------------------------------------------------------------

  async findKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return agentReads.findKeyByHash(this.prepare, keyHash);
  }

  async findActiveKeyByPrefix(keyPrefix: string): Promise<ApiKeyRecord | null> {
    return agentReads.findActiveKeyByPrefix(this.prepare, keyPrefix);
  }

  async agentExists(agentId: string): Promise<boolean> {
    return (await this.agentOrigin(agentId)) !== null;
  }

  async agentOrigin(agentId: string): Promise<AgentOrigin | null> {
    return agentReads.agentOrigin(this.prepare, agentId);
  }

  async claimOidcAgent(agentId: string, at: string): Promise<AgentOrigin> {
    await this.write((prepare) => {
      if (prepare('SELECT 1 FROM agents WHERE agent_id = ?').get(agentId) === undefined) writes.insertAgent(prepare, agentId, 'oidc', at);
    });
    return (await this.agentOrigin(agentId))!;
  }

  createAgentWithKey(key: NewKey, response?: IdempotentResponse): Promise<void> {
    return this.write((prepare) => {
      writes.insertAgent(prepare, key.agentId, 'api_key', key.createdAt);
      writes.insertKey(prepare, key);
    }, response);
  }

  addKey(key: NewKey, response?: IdempotentResponse): Promise<void> {
    return this.write((prepare) => writes.insertKey(prepare, key), response);
  }

  async revokeKey(keyId: number, at: string, response?: IdempotentResponse): Promise<boolean> {
    // The response is saved only when the key was revoked: a refusal is never replayed.
    return this.commits.write(() => {
      if (!writes.revokeKey(this.prepare, keyId, at)) return false;
      saveResponse(this.prepare, response);
      return true;
    });
  }

  // ---- idempotency -----------------------------------------------------------------------------

  async findIdempotentResponse(scope: string, keyHash: string, notBefore: string): Promise<SavedResponse | null> {
    return findResponse(this.prepare, scope, keyHash, notBefore);
  }

  purgeIdempotentResponses(before: string): Promise<number> {
    return this.write((prepare) => purgeResponses(prepare, before));
  }

  // ---- skills ----------------------------------------------------------------------------------

  async findSkillByName(agentId: string, name: string): Promise<SkillIdentity | null> {
    return skillReads.findSkillByName(this.prepare, agentId, name);
  }

  publishSkill(plan: SkillPlan, response?: IdempotentResponse, quota?: StorageQuota): Promise<void> {
    return this.write((prepare) => skills.publish(prepare, plan, quota), response);
  }

  async hostSkills(ids: readonly string[]): Promise<HostSkill[]> {
    return skillReads.hostSkills(this.prepare, ids);
  }

  async getSkill(id: string, version?: string): Promise<Skill | null> {
    return skillReads.getSkill(this.prepare, id, version);
  }

  async listSkillVersions(id: string): Promise<SkillVersionSummary[] | null> {
    return skillReads.listVersions(this.prepare, id);
  }

  async getSkillFile(id: string, version: string | null, path: string): Promise<SkillFileContent | null> {
    return skillReads.getFile(this.prepare, id, version, path);
  }

  async getSkillBundle(id: string, version: string): Promise<SkillBundle | null> {
    return skillReads.getBundle(this.prepare, id, version);
  }

  setSkillYanked(id: string, version: string, yanked: boolean, at: string, pickLatest: SkillPlan['pickLatest']) {
    return this.write((prepare) => skills.setYanked(prepare, id, version, yanked, at, pickLatest));
  }

  deleteSkill(id: string, at: string): Promise<boolean> {
    return this.write((prepare) => skills.deleteSkill(prepare, id, at));
  }

  discoveryIndex(): AsyncIterable<DiscoveryEntry> {
    return skillReads.discoveryIndex(this.prepare);
  }

  listSkills(query: SkillQuery): Promise<Page<SkillSummary>> {
    return this.reads.listSkills(query);
  }

  async recentSkills(query: RecentSkillQuery): Promise<SkillSummary[]> {
    return recentReads.recentSkills(this.prepare, query);
  }

  // ---- knowledge units -------------------------------------------------------------------------

  contributeUnit(
    unit: KnowledgeUnit,
    baseQuality: number,
    rewardMillis: number,
    response?: IdempotentResponse,
    quota?: StorageQuota,
  ): Promise<void> {
    return this.write((prepare) => {
      writes.insertUnit(prepare, { unit, baseQuality }, quota);
      writes.reward(prepare, unit.agent_id, 'contribute_knowledge', rewardMillis, unit.id, unit.created_at);
    }, response);
  }

  async getUnit(id: string): Promise<KnowledgeUnit | null> {
    const row = this.prepare(`SELECT ${rows.UNIT_COLUMNS} FROM knowledge_units ku WHERE ku.id = ?`).get(id) as rows.UnitRow | undefined;
    return row ? rows.toUnit(row, rows.sqliteDecode) : null;
  }

  listUnits(query: UnitQuery): Promise<Page<UnitSummary>> {
    return this.reads.listUnits(query);
  }

  async recentUnits(query: RecentUnitQuery): Promise<UnitSummary[]> {
    return recentReads.recentUnits(this.prepare, query);
  }

  deleteUnit(id: string, at: string): Promise<boolean> {
    return this.write((prepare) => writes.deleteUnit(prepare, id, at));
  }

  recordVerdict(verdict: NewVerdict, response?: IdempotentResponse): Promise<VerdictOutcome> {
    return this.commits.write(() => {
      const outcome = writes.recordVerdict(this.prepare, verdict);
      if (outcome.recorded) saveResponse(this.prepare, response);
      return outcome;
    });
  }

  // ---- bulk, reputation and export -------------------------------------------------------------

  importUnits(items: readonly UnitImport[], rewardMillis: number): Promise<void> {
    return this.write((prepare) =>
      writes.importContributions(prepare, items, (item) => {
        writes.insertUnit(prepare, item);
        return { agentId: item.unit.agent_id, targetId: item.unit.id, at: item.unit.created_at };
      }, 'contribute_knowledge', rewardMillis),
    );
  }

  /** Many new skills in one transaction, each through the ordinary publication. */
  importSkills(items: readonly SkillImport[]): Promise<void> {
    return this.write((prepare) => {
      for (const { plan } of items) skills.publish(prepare, plan, undefined);
    });
  }

  async reputation(agentId: string, historyLimit: number, withPrivate = false): Promise<ReputationProfile | null> {
    return agentReads.reputation(this.prepare, agentId, historyLimit, withPrivate);
  }

  exportKeys(agentId: string): AsyncIterable<KeyMetadata> {
    return exports.exportKeys(this.prepare, agentId);
  }

  exportUnits(agentId: string): AsyncIterable<KnowledgeUnit> {
    return exports.exportUnits(this.prepare, agentId);
  }

  exportSkills(agentId: string): AsyncIterable<SkillExport> {
    return skillReads.exportSkills(this.prepare, agentId);
  }

  exportVerdicts(agentId: string): AsyncIterable<Verdict> {
    return exports.exportVerdicts(this.prepare, agentId);
  }

  exportHistory(agentId: string): AsyncIterable<ReputationEvent> {
    return exports.exportHistory(this.prepare, agentId);
  }
}
