// Who may do what: every access rule of the registry, as pure functions over the caller and the object.
// Each door (REST routes, MCP tools) calls these, so a rule is written once. A refusal is thrown as the
// error the caller should hear; anything a caller may not see is reported exactly as if it did not exist.
import { isAdmin, isAgent, type Agent, type Caller } from './caller.js';
import { forbidden, notFound, unauthorized } from './errors.js';
import type { ApiKeyRecord, KeyTier, KnowledgeUnit, Scope, Skill } from './model.js';
import { matches, type Condition } from './filters.js';

/** Any authenticated caller (401 otherwise). */
export function requireAgent(caller: Caller): Agent {
  if (!isAgent(caller)) throw unauthorized();
  return caller;
}

/** An authenticated caller whose credential holds `scope` (401, then 403). */
export function requireScope(caller: Caller, scope: Scope): Agent {
  const agent = requireAgent(caller);
  if (!agent.scopes.includes(scope)) throw forbidden(`this credential lacks the ${scope} scope`);
  return agent;
}

/** Who is looking at skills: an agent sees its own private skills, `everything` (an admin) sees all. */
export interface Viewer {
  agentId: string | null;
  everything: boolean;
}

/**
 * The visibility rule, the one place it is decided: a private skill, and a held skill, version or unit,
 * exist only for their owner and admins. A condition like every list filter (filters.ts), so the store's
 * lists, the search index and a read by id apply the same rule; null: the viewer sees everything.
 */
export function visibleCondition(viewer: Viewer, kind: 'skill' | 'unit' = 'skill'): Condition | null {
  if (viewer.everything) return null;
  const notHeld: Condition = { attr: 'held', equals: false };
  const open: Condition = kind === 'skill' ? { and: [{ attr: 'visibility', equals: 'public' }, notHeld] } : notHeld;
  return viewer.agentId === null ? open : { or: [open, { attr: 'publisher', equals: viewer.agentId }] };
}

/** Whether a viewer sees a skill (its visibility, its publisher, whether it is held, with its default version). */
export function visibleTo(viewer: Viewer, skill: Pick<Skill, 'visibility' | 'agent_id'> & { held?: unknown }): boolean {
  const condition = visibleCondition(viewer);
  return (
    condition === null ||
    matches(condition, { visibility: skill.visibility, publisher: skill.agent_id, held: Boolean(skill.held) })
  );
}

/** Whether a viewer sees a unit (held units only for their contributor and admins). */
export function unitVisibleTo(viewer: Viewer, unit: Pick<KnowledgeUnit, 'agent_id'> & { held?: unknown }): boolean {
  const condition = visibleCondition(viewer, 'unit');
  return condition === null || matches(condition, { publisher: unit.agent_id, held: Boolean(unit.held) });
}

export function canSeeSkill(
  caller: Caller,
  skill: Pick<Skill, 'visibility' | 'agent_id'> & { held?: unknown },
): boolean {
  return visibleTo(viewerOf(caller), skill);
}

/** History items about private skills: for the agent itself and admins. */
export function mayReadPrivateHistory(caller: Caller, agentId: string): boolean {
  return caller.agentId === agentId || isAdmin(caller);
}

/** Who is looking: an agent sees its own private or held items, an admin everything. */
export function viewerOf(caller: Caller): Viewer {
  return { agentId: caller.agentId, everything: isAdmin(caller) };
}

/** Deleting a unit: its contributor with write scope, or an admin. */
export function assertMayDeleteUnit(caller: Agent, unit: Pick<KnowledgeUnit, 'agent_id'>): void {
  if (isAdmin(caller)) return;
  if (unit.agent_id !== caller.agentId) throw forbidden('only the contributor or an admin may delete this unit');
  requireScope(caller, 'write');
}

/** Yanking a version or deleting a skill: its publisher with write scope, or an admin. */
export function assertMayManageSkill(caller: Agent, skill: Pick<Skill, 'agent_id'>): void {
  if (isAdmin(caller)) return;
  if (skill.agent_id !== caller.agentId) throw forbidden('only the publisher or an admin may change this skill');
  requireScope(caller, 'write');
}

/** A verdict comes from anyone but the unit's contributor. */
export function assertMayValidate(caller: Agent, unit: Pick<KnowledgeUnit, 'agent_id'>): void {
  if (unit.agent_id === caller.agentId) throw forbidden('an agent may not validate its own knowledge unit');
}

/** An export is for the agent itself, or an admin. */
export function assertMayExport(caller: Agent, agentId: string): void {
  if (caller.agentId !== agentId && !isAdmin(caller)) throw forbidden('an agent may export only its own data');
}

/**
 * Revoking a key: one of the caller's own agent's keys whose scopes the caller's key also holds (a
 * read-only key cannot revoke a write or admin key), or any key for an admin. Every other key is
 * reported exactly as a missing one, so prefixes reveal nothing.
 */
export function assertMayRevoke(caller: Agent, key: ApiKeyRecord | null, prefix: string): asserts key is ApiKeyRecord {
  if (key && isAdmin(caller)) return;
  if (!key || key.agentId !== caller.agentId || key.scopes.some((s) => !caller.scopes.includes(s))) {
    throw notFound(`active key with prefix ${prefix}`);
  }
}

const FIRST_ADMIN_HINT =
  'the admin scope is granted only to a caller with admin scope (or with REG_OPEN_ADMIN_REGISTRATION set); ' +
  'an operator creates the first admin key on the server host with: npm run admin:create -- --agent-id <id>';

/**
 * A new key's scopes: `admin` only for an admin caller (or with open admin registration), and a key of
 * an agent may mint further keys for it, but none with a scope it does not hold itself.
 */
export function assertMayGrantScopes(
  caller: Caller,
  agentId: string,
  scopes: readonly Scope[],
  openAdminRegistration: boolean,
): void {
  if (scopes.includes('admin') && !isAdmin(caller) && !openAdminRegistration) throw forbidden(FIRST_ADMIN_HINT);
  if (caller.authenticated && caller.agentId === agentId && !isAdmin(caller)) {
    const extra = scopes.filter((s) => !caller.scopes.includes(s));
    if (extra.length > 0) throw forbidden(`a new key cannot have scopes the calling key lacks: ${extra.join(', ')}`);
  }
}

/** Tiers outside REG_SELF_SERVICE_TIERS are granted by admins only (otherwise agents choose their tier). */
export function assertMayChooseTier(caller: Caller, tier: KeyTier, selfService: readonly KeyTier[]): void {
  if (!selfService.includes(tier) && !isAdmin(caller)) {
    throw forbidden(`the ${tier} tier is granted by an admin; tiers open to everyone here: ${selfService.join(', ')}`);
  }
}

/** Whether the caller may add keys to an agent id that is already claimed: the agent itself, or an admin. */
export function actsForAgent(caller: Caller, agentId: string): boolean {
  return caller.authenticated && (caller.agentId === agentId || isAdmin(caller));
}
