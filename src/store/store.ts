// The one interface every backend implements. Stores keep data consistent; they never decide policy
// (who may do what, what a verdict is worth): the domain decides, and the store is told what to write.
// The list types (list-queries.ts) and skill types (skill-types.ts) live beside it and are re-exported.
import type {
  ApiKeyRecord,
  KeyMetadata,
  KnowledgeUnit,
  ReputationEvent,
  ReputationProfile,
  Skill,
  SkillVersionSummary,
  Verdict,
  Visibility,
} from '../domain/model.js';
import type { SkillSummary, UnitSummary } from '../domain/summaries.js';
import type { VerdictDecision, VerdictState } from '../domain/verdicts.js';
import type { VersionFacts } from '../domain/versions.js';
import type { Page, SkillQuery, UnitQuery } from './list-queries.js';
import type { Condition } from '../domain/filters.js';
import type { ModerationTarget } from '../domain/moderation.js';
import type { AdvisorySeverity, OsvRecord } from '../domain/advisories.js';
import type { RecentSkillQuery, RecentUnitQuery } from './recent-queries.js';
import type { SearchFeed } from './search-feed.js';
import type { DecisionRecord, NewDecision } from './decision-types.js';
import type {
  DiscoveryEntry,
  HostSkill,
  SkillBundle,
  SkillExport,
  SkillFileContent,
  SkillIdentity,
  SkillImport,
  SkillPlan,
} from './skill-types.js';

export type { Page, SkillQuery, UnitQuery, Viewer } from './list-queries.js';
export type { DecisionRecord, NewDecision } from './decision-types.js';
export type { RecentSkillQuery, RecentUnitQuery } from './recent-queries.js';
export type { ChangeRead, LogPosition, SearchFeed, SearchItem, SearchKind } from './search-feed.js';
export {
  PublishRaceError,
  VersionLimitError,
  type DiscoveryEntry,
  type HostSkill,
  type NewSkillVersion,
  type SkillBundle,
  type SkillExport,
  type SkillFileContent,
  type SkillIdentity,
  type SkillImport,
  type SkillPlan,
} from './skill-types.js';

export type AgentOrigin = 'api_key' | 'oidc';

/** A key to store: a record without its row id, not revoked. */
export type NewKey = Omit<ApiKeyRecord, 'id' | 'revokedAt'>;

export interface NewVerdict {
  unitId: string;
  agentId: string;
  valid: boolean;
  feedback: string;
  at: string;
  /** How much the verdict counts (the validator's standing, decided by the domain). */
  weight: number;
  /** The domain's verdict rule, applied inside the store's transaction to what it finds there. */
  decide: (state: VerdictState, verdict: { valid: boolean; weight: number }) => VerdictDecision;
}

export type VerdictOutcome = { recorded: true; first: boolean } | { recorded: false; reason: 'not_found' };

/** Storage an agent may hold; null: no bound. The store enforces it inside the write's transaction. */
export interface StorageQuota {
  units: number | null;
  skills: number | null;
  bytes: number | null;
}

/** Raised when a write would take an agent over its storage quota; nothing is written. */
export class QuotaExceededError extends Error {
  constructor(
    readonly quota: keyof StorageQuota,
    readonly limit: number,
    readonly used: number,
  ) {
    super(`storage quota exceeded: ${quota} ${used} of ${limit}`);
  }
}

/** Raised when a new agent id is confusable with one an existing agent holds (same skeleton). */
export class AgentConfusableError extends Error {
  constructor(readonly agentId: string) {
    super(`agent id ${agentId} is confusable with an existing one`);
  }
}

/** Raised when the agent id of a new agent is already claimed. */
export class AgentExistsError extends Error {
  constructor(readonly agentId: string) {
    super(`agent ${agentId} already exists`);
  }
}

/** Raised when an unrevoked key already has this prefix; the caller draws a new key. */
export class PrefixTakenError extends Error {
  constructor(readonly prefix: string) {
    super(`key prefix ${prefix} is in use`);
  }
}

/**
 * A 2xx response kept for 24 hours under (scope, key hash), written in the same transaction as the
 * change it answers, so a retry can never apply the change twice.
 */
export interface IdempotentResponse {
  scope: string;
  keyHash: string;
  requestHash: string;
  status: number;
  /** The response body, sealed with a key only the client's Idempotency-Key can derive. */
  body: string;
  createdAt: string;
  /** A record created before this instant has expired and may be replaced. */
  expiredBefore: string;
}

export type SavedResponse = Omit<IdempotentResponse, 'expiredBefore'>;

/** Raised when a live response is already saved under the key: the write is rolled back. */
export class IdempotencyKeyTakenError extends Error {
  constructor() {
    super('a response is already saved under this idempotency key');
  }
}

/** Raised for text a backend cannot store; routes answer it with 400. */
export class UnstorableTextError extends Error {}

/**
 * Raised when the database cannot be reached or did not answer in time (refused or lost connection, a
 * full server, a statement timeout). The same request may succeed on retry; only a connection lost
 * during COMMIT leaves a write's outcome unknown, which an Idempotency-Key makes safe to retry.
 * The HTTP layer answers it with 503.
 */
export class StoreUnavailableError extends Error {}

/** One unit for the bulk path: the unit as stored, with its score before any verdict. */
export interface UnitImport {
  unit: KnowledgeUnit;
  baseQuality: number;
}

/** Agents and their keys. */
export interface AgentStore {
  findKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  findActiveKeyByPrefix(keyPrefix: string): Promise<ApiKeyRecord | null>;
  agentExists(agentId: string): Promise<boolean>;
  /** Claims a new agent id together with its first key (AgentExistsError, AgentConfusableError, PrefixTakenError). */
  createAgentWithKey(key: NewKey, response?: IdempotentResponse): Promise<void>;
  /** Which credential kind claimed an agent id, or null for an id never seen. */
  agentOrigin(agentId: string): Promise<AgentOrigin | null>;
  /**
   * Makes sure an agent that authenticates through the identity provider exists, claiming the id for
   * `oidc` on first sight. Answers the id's origin: anything but `oidc` means keys claimed it first.
   */
  claimOidcAgent(agentId: string, at: string): Promise<AgentOrigin>;
  /** Adds a key to an existing agent (PrefixTakenError). */
  addKey(key: NewKey, response?: IdempotentResponse): Promise<void>;
  /** Marks a key revoked; false when it was already revoked or is unknown. */
  revokeKey(keyId: number, at: string, response?: IdempotentResponse): Promise<boolean>;
}

/**
 * Answers kept for Idempotency-Key retries. The writes take an optional IdempotentResponse, saved in the
 * write's own transaction (IdempotencyKeyTakenError when a live one exists under that key: then nothing
 * is written).
 */
export interface IdempotencyStore {
  findIdempotentResponse(scope: string, keyHash: string, notBefore: string): Promise<SavedResponse | null>;
  /** Deletes responses created before `before`; answers how many. */
  purgeIdempotentResponses(before: string): Promise<number>;
}

/** Skills, their versions and files. */
export interface SkillStore {
  /** The skill an agent publishes under `name`, with its versions; null for a new name. */
  findSkillByName(agentId: string, name: string): Promise<SkillIdentity | null>;
  /**
   * Writes a planned publication (PublishRaceError: plan again). A new skill earns its reward and counts
   * against `quota` (skills and bytes); a new version counts its bytes. Writes nothing for `same` but
   * the idempotent response.
   */
  publishSkill(plan: SkillPlan, response?: IdempotentResponse, quota?: StorageQuota): Promise<void>;
  /** Skills by id as agent hosts are served them (unknown ids are left out; any order). */
  hostSkills(ids: readonly string[]): Promise<HostSkill[]>;
  /** A skill at `version`, or at the version reads give by default (the newest when all are yanked). */
  getSkill(id: string, version?: string): Promise<Skill | null>;
  /** What a publication plans from: the version with this content, whether `requested` is taken, the highest (domain/versions.ts). */
  skillVersionFacts(id: string, digest: string, requested: string | null): Promise<VersionFacts>;
  /** A page of a skill's versions, newest first (semver precedence), held ones only `withHeld`; null for an unknown skill. */
  listSkillVersions(
    id: string,
    page: { limit: number; offset: number },
    withHeld?: boolean,
  ): Promise<Page<SkillVersionSummary> | null>;
  /** A file of a version (`SKILL.md` included), or of the default version when none is named. */
  getSkillFile(id: string, version: string | null, path: string): Promise<SkillFileContent | null>;
  /** Everything a version holds, for its archive. */
  getSkillBundle(id: string, version: string): Promise<SkillBundle | null>;
  /**
   * Yanks or restores a version, then moves the skill's default version: the highest release that is not
   * yanked, else the highest pre-release (domain/versions.ts latestVersion, which the store's order of
   * versions is tested against). 'unchanged' when it already was so; 'not_found' for an unknown skill or version.
   */
  setSkillYanked(
    id: string,
    version: string,
    yanked: boolean,
    at: string,
  ): Promise<'changed' | 'unchanged' | 'not_found'>;
  /** Who sees a skill: every version of it, and its history items; 'unchanged' when it already was so. */
  setSkillVisibility(id: string, visibility: Visibility, at: string): Promise<'changed' | 'unchanged' | 'not_found'>;
  /** Deletes a skill, every version and file, and takes its contribution reward back. */
  deleteSkill(id: string, at: string): Promise<boolean>;
  /** Public skills with a default version, for /.well-known/agent-skills/index.json (in batches). */
  discoveryIndex(): AsyncIterable<DiscoveryEntry>;
  /** Skill summaries (no SKILL.md) in the list order, with the exact total. */
  listSkills(query: SkillQuery): Promise<Page<SkillSummary>>;
  /** The newest skills (by first publication) a viewer may see, optionally of one publisher. */
  recentSkills(query: RecentSkillQuery): Promise<SkillSummary[]>;
  /** Summaries in the order of `seqs` (sequences no longer there are left out): a search's page. */
  skillSummariesBySeq(seqs: readonly number[]): Promise<SkillSummary[]>;
  /** Which of these skills the condition admits now (a search's page is checked against the store). */
  admittedSkillSeqs(seqs: readonly number[], condition: Condition): Promise<Set<number>>;
  /** The bulk path: many new skills in one transaction, each as publishSkill would write it. */
  importSkills(items: readonly SkillImport[]): Promise<void>;
}

/** Knowledge units and their verdicts. */
export interface UnitStore {
  /** A new unit; `hold` (the scanner's) is applied in the same transaction, as a moderator's decision is. */
  contributeUnit(
    unit: KnowledgeUnit,
    baseQuality: number,
    rewardMillis: number,
    response?: IdempotentResponse,
    quota?: StorageQuota,
    hold?: NewDecision,
  ): Promise<void>;
  getUnit(id: string): Promise<KnowledgeUnit | null>;
  /** Unit summaries (long text cut and marked; the store reads no more than that) in the list order, with the exact total. */
  listUnits(query: UnitQuery): Promise<Page<UnitSummary>>;
  /** The newest units, optionally of one contributor. */
  recentUnits(query: RecentUnitQuery): Promise<UnitSummary[]>;
  /** Summaries in the order of `seqs` (sequences no longer there are left out): a search's page. */
  unitSummariesBySeq(seqs: readonly number[]): Promise<UnitSummary[]>;
  /**
   * Deletes a unit, its verdicts and its search entries, and takes its contribution reward back (a
   * history item of the negated reward, at `at`); validators keep theirs. False for an unknown unit.
   */
  deleteUnit(id: string, at: string): Promise<boolean>;
  recordVerdict(verdict: NewVerdict, response?: IdempotentResponse): Promise<VerdictOutcome>;
  /**
   * The bulk path (benchmark corpora, operator imports): many contributions in one transaction, writing
   * exactly the rows and rewards that one contribute call per item would. The agents must exist.
   */
  importUnits(items: readonly UnitImport[], rewardMillis: number): Promise<void>;
}

export interface ReputationStore {
  /** The profile with its newest history items; items about private skills only with `withPrivate`. */
  reputation(agentId: string, historyLimit: number, withPrivate?: boolean): Promise<ReputationProfile | null>;
}

/** Everything tied to an agent, read in batches so an export of any size runs in flat memory. */
export interface ExportStore {
  exportKeys(agentId: string): AsyncIterable<KeyMetadata>;
  exportUnits(agentId: string): AsyncIterable<KnowledgeUnit>;
  exportSkills(agentId: string): AsyncIterable<SkillExport>;
  exportVerdicts(agentId: string): AsyncIterable<Verdict>;
  exportHistory(agentId: string): AsyncIterable<ReputationEvent>;
}

/** A report or an appeal, as the admins' queue shows it. */
export interface ReportRecord {
  id: string;
  reporter: string;
  target: { kind: 'skill' | 'unit'; id: string };
  version: string | null;
  reason: string;
  details: string;
  status: 'open' | 'closed';
  /** The reporter's standing when it reported (0.1 to 1: the verdict weight); the queue is ordered by it. */
  standing: number;
  createdAt: string;
  closedAt: string | null;
  decisionId: string | null;
}

export type NewReport = Omit<ReportRecord, 'status' | 'closedAt' | 'decisionId'>;

/** Reports, appeals, decisions and holds. */
export interface ModerationStore {
  /** What a report or decision names: a skill (or one version of it) or a unit; null when it does not exist. */
  moderationTarget(id: string, version: string | null): Promise<ModerationTarget | null>;
  /**
   * Files a report unless the reporter already has one open on the same target and version ('duplicate') or
   * has filed `quota.perDay` since `quota.since` ('quota'), in one transaction.
   */
  fileReport(
    report: NewReport,
    quota: { perDay: number | null; since: string },
    response?: IdempotentResponse,
  ): Promise<'filed' | 'duplicate' | 'quota'>;
  listReports(status: 'open' | 'closed', page: { limit: number; offset: number }): Promise<Page<ReportRecord>>;
  /**
   * Records a decision and applies it in one transaction: a hold or a release of the named skill, version or
   * unit (a version's skill then takes its default version again), and closes the named open reports of
   * that target. 'stale' when the target's hold is no longer what the decision was taken on (nothing written).
   */
  decide(
    decision: NewDecision,
    expectHeld: boolean | null,
    response?: IdempotentResponse,
  ): Promise<'decided' | 'stale' | 'not_found'>;
  /** Decisions the public may see, newest first. */
  moderationLog(page: { limit: number; offset: number }): Promise<Page<DecisionRecord>>;
}

/** A locked version as an audit sees it. */
export interface VersionState {
  publisher: string;
  visibility: Visibility;
  yanked: boolean;
  /** The version, or its whole skill, is held. */
  held: boolean;
  verdict: string | null;
}

export interface NewAdvisory {
  record: OsvRecord;
  skillId: string;
  publisher: string;
  skillName: string;
  range: string;
  severity: AdvisorySeverity;
}

/** Advisories in OSV, and what an audit of locked versions asks. */
export interface AdvisoryStore {
  publishAdvisory(advisory: NewAdvisory, response?: IdempotentResponse): Promise<void>;
  advisory(id: string): Promise<OsvRecord | null>;
  listAdvisories(query: {
    skillId?: string;
    modifiedSince?: string;
    limit: number;
    offset: number;
  }): Promise<Page<OsvRecord>>;
  /** The advisories in force about these skills, oldest first. */
  advisoriesOf(skillIds: readonly string[]): Promise<OsvRecord[]>;
  /** Each (skill id, version)'s state, in the order asked; null for one that does not exist. */
  versionStates(pairs: readonly { id: string; version: string }[]): Promise<(VersionState | null)[]>;
  /** Every version number a skill has published, newest first. */
  skillVersionNumbers(skillId: string): Promise<string[]>;
}

/** Every aggregate of one backend. */
export interface Store
  extends
    AgentStore,
    IdempotencyStore,
    SkillStore,
    UnitStore,
    ReputationStore,
    ExportStore,
    SearchFeed,
    ModerationStore,
    AdvisoryStore {
  readonly backend: 'sqlite' | 'postgres';
  /** PostgreSQL: the pool's connections (total, idle) and the requests waiting for one, for metrics. */
  poolUse?(): { total: number; idle: number; waiting: number };
  ping(): Promise<void>;
  close(): Promise<void>;
}
