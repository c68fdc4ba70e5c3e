// A store is its backend's writes over the reads every backend shares (reads/): each backend supplies a
// Db (how it runs a query), its writes (SQLite's group commit, PostgreSQL's transactions: what truly
// differs) and, where it runs lists elsewhere (SQLite's read workers), its lists.
import { agentReads } from './reads/agents.js';
import { exportReads } from './reads/exports.js';
import { idempotencyReads } from './reads/idempotency.js';
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
    ...lists,
    ...writes,
  };
}
