// A store is its backend's writes over the reads every backend shares (reads/): each backend supplies a
// Db (how it runs a query), its writes (SQLite's group commit, PostgreSQL's transactions: what truly
// differs) and, where it runs lists elsewhere (SQLite's read workers), its lists.
import { advisoryReads } from './reads/advisories.js';
import { agentReads } from './reads/agents.js';
import { exportReads } from './reads/exports.js';
import { idempotencyReads } from './reads/idempotency.js';
import { moderationReads } from './reads/moderation.js';
import { searchFeedReads } from './reads/search-feed.js';
import { skillReads } from './reads/skills.js';
import { unitReads } from './reads/units.js';
import type { Db } from './sql.js';
import type { Store } from './store.js';

/** The writes a backend brings (and its connection's life). */
export type StoreWrites = Pick<
  Store,
  | 'backend'
  | 'ping'
  | 'close'
  | 'createAgentWithKey'
  | 'claimOidcAgent'
  | 'addKey'
  | 'revokeKey'
  | 'purgeIdempotentResponses'
  | 'publishSkill'
  | 'setSkillYanked'
  | 'setSkillVisibility'
  | 'deleteSkill'
  | 'importSkills'
  | 'contributeUnit'
  | 'deleteUnit'
  | 'recordVerdict'
  | 'importUnits'
  | 'purgeSearchChanges'
  | 'saveVectors'
  | 'fileReport'
  | 'decide'
  | 'publishAdvisory'
>;

export function composeStore(db: Db, writes: StoreWrites, lists?: Pick<Store, 'listSkills' | 'listUnits'>): Store {
  const { exportedVersions, ...skills } = skillReads(db);
  return {
    ...agentReads(db),
    ...idempotencyReads(db),
    ...skills,
    ...unitReads(db),
    ...exportReads(db, exportedVersions),
    ...searchFeedReads(db),
    ...moderationReads(db),
    ...advisoryReads(db),
    ...lists,
    ...writes,
  };
}
