// The RegistryBackend of the /mcp route: the same service functions the REST routes call, with the caller
// the authentication plugin attached to the request, so every access rule is the services' own.
import { requireAgent, requireScope } from '../domain/access.js';
import { isAgent, type Caller } from '../domain/caller.js';
import { ApiError, badRequest, unavailable } from '../domain/errors.js';
import { applyChange, type Context } from '../service/context.js';
import { getUnit, listUnits, prepareUnitContribution, prepareVerdict } from '../service/knowledge.js';
import { reputationProfile } from '../service/reputation.js';
import { findSkillByName } from '../service/skill-lookup.js';
import { getSkill, listSkills, prepareSkillContribution } from '../service/skills.js';
import { StoreUnavailableError, UnstorableTextError } from '../store/store.js';
import { skillMdOnly, type RegistryBackend } from './backend.js';

/** Skills read per page of skills/list and resources/list (each read whole). */
const SKILL_PAGE = 50;

/** Store failures the client can act on become the refusals REST gives for them; anything else is a bug. */
function asRefusal(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof UnstorableTextError) return badRequest(error.message || 'text contains characters that cannot be stored');
  if (error instanceof StoreUnavailableError) return unavailable('the database is unavailable; retry shortly');
  return error;
}

const guarded = <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    try {
      return await operation(...args);
    } catch (error) {
      throw asRefusal(error);
    }
  };

export function serviceBackend(ctx: Context, caller: Caller): RegistryBackend {
  return {
    authenticated: isAgent(caller),
    skillPageSize: SKILL_PAGE,
    searchSkills: guarded(async ({ limit = 20, offset = 0, ...filters }) => {
      const page = await listSkills(ctx, caller, { ...filters, limit, offset });
      return { data: page.items, total: page.total, offset, limit };
    }),
    getSkill: guarded((id) => getSkill(ctx, caller, id)),
    searchUnits: guarded(async ({ limit = 20, offset = 0, ...filters }) => {
      const page = await listUnits(ctx, { ...filters, limit, offset });
      return { data: page.items, total: page.total, offset, limit };
    }),
    getUnit: guarded((id) => getUnit(ctx, id)),
    contributeUnit: guarded(async (body) => applyChange(prepareUnitContribution(ctx, requireScope(caller, 'write'), body))),
    contributeSkill: guarded(async (body) => applyChange(prepareSkillContribution(ctx, requireScope(caller, 'write'), body))),
    validateUnit: guarded(async (id, verdict) => (await applyChange(await prepareVerdict(ctx, requireAgent(caller), id, verdict))).data),
    reputation: guarded((agentId, historyLimit) => reputationProfile(ctx, caller, agentId, historyLimit)),
    findSkill: guarded((publisher, name) => findSkillByName(ctx, caller, publisher, name)),
    skillFiles: skillMdOnly,
    readSkillFile: async (skill) => ({ text: skill.skill_md_content }),
  };
}
