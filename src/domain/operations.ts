// Who may call each operation of the registry, as data: anyone ('public'), any authenticated agent
// ('agent'), or an agent whose credential holds a scope ('read', 'write', 'admin'). The services admit
// their callers by it (service/operation.ts), the REST routes name it (the authentication hook admits a
// request by it before the body is read), and the MCP tool table reads it to list and refuse tools, so the
// stdio server needs no service to know who may call what. Which object a caller may touch (its own unit,
// a skill it may see) is decided inside the operation, by access.ts.
import { requireAgent, requireScope } from './access.js';
import type { Agent, Caller } from './caller.js';
import type { Scope } from './model.js';

export type Access = 'public' | 'agent' | Scope;

export const ACCESS = {
  listSkills: 'public',
  getSkill: 'public',
  listSkillVersions: 'public',
  getSkillFile: 'public',
  getSkillArchive: 'public',
  discoveryIndex: 'public',
  findHostSkill: 'public',
  hostSkillPage: 'public',
  publishSkill: 'write',
  setYanked: 'agent',
  setVisibility: 'agent',
  deleteSkill: 'agent',
  listUnits: 'public',
  getUnit: 'public',
  contributeUnit: 'write',
  validateUnit: 'agent',
  deleteUnit: 'agent',
  reputationProfile: 'public',
  exportAgent: 'agent',
  revokeKey: 'agent',
  listKeys: 'agent',
  whoami: 'agent',
  registryOverview: 'public',
  agentOverview: 'public',
  fileReport: 'agent',
  fileAppeal: 'agent',
  listReports: 'admin',
  decide: 'admin',
  moderationLog: 'public',
  publishAdvisory: 'admin',
  getAdvisory: 'public',
  listAdvisories: 'public',
  queryAdvisories: 'public',
} as const satisfies Record<string, Access>;

/** The caller an operation of this access is handed once admitted. */
export type Admitted<A extends Access> = A extends 'public' ? Caller : Agent;

/** The caller, admitted by `access`, or the refusal it should hear (401 unauthenticated, 403 a missing scope). */
export function admit<A extends Access>(access: A, caller: Caller): Admitted<A> {
  if (access === 'public') return caller as Admitted<A>;
  if (access === 'agent') return requireAgent(caller) as Admitted<A>;
  return requireScope(caller, access) as Admitted<A>;
}
