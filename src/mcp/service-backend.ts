// The RegistryBackend of the /mcp route: the same service functions the REST routes call, with the caller
// the authentication plugin attached to the request, so every access rule is the services' own.
import { requireAgent, requireScope } from '../domain/access.js';
import { isAgent, type Caller } from '../domain/caller.js';
import { ApiError, badRequest, unavailable } from '../domain/errors.js';
import { applyChange, type Context } from '../service/context.js';
import { getUnit, listUnits, prepareUnitContribution, prepareVerdict } from '../service/knowledge.js';
import { reputationProfile } from '../service/reputation.js';
import { findHostSkill, hostSkillPage } from '../service/skill-lookup.js';
import { getSkill, getSkillFile, listSkills, publishSkill } from '../service/skills.js';
import { StoreUnavailableError, UnstorableTextError } from '../store/store.js';
import { bundleFiles, fileContent, type RegistryBackend } from './backend.js';

/** Skills per page of skills/list and resources/list (frontmatter and file listings, no content). */
const SKILL_PAGE = 20;

/** Where the door logs what it hides from the caller (the request's logger). */
export interface ErrorLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Every failure becomes the refusal REST gives for it (the error envelope's mapping): store errors the
 * client can act on, and for anything else a 500 whose details stay in the log, never in the answer.
 */
function asRefusal(error: unknown, log: ErrorLog): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof UnstorableTextError) return badRequest(error.message || 'text contains characters that cannot be stored');
  if (error instanceof StoreUnavailableError) {
    log.warn({ reason: error.message }, 'database unavailable');
    return unavailable('the database is unavailable; retry shortly');
  }
  log.error({ err: error }, 'MCP request failed');
  return new ApiError(500, 'INTERNAL_ERROR', 'internal error; the request id in the logs has the details');
}

export function serviceBackend(ctx: Context, caller: Caller, log: ErrorLog): RegistryBackend {
  const guarded =
    <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await operation(...args);
      } catch (error) {
        throw asRefusal(error, log);
      }
    };
  return {
    authenticated: isAgent(caller),
    searchSkills: guarded(async ({ limit = 20, offset = 0, ...filters }) => {
      const page = await listSkills(ctx, caller, { ...filters, limit, offset });
      return { data: page.items, total: page.total, offset, limit, ...(page.capped !== undefined ? { capped: page.capped } : {}) };
    }),
    getSkill: guarded((id) => getSkill(ctx, caller, id)),
    searchUnits: guarded(async ({ limit = 20, offset = 0, ...filters }) => {
      const page = await listUnits(ctx, { ...filters, limit, offset });
      return { data: page.items, total: page.total, offset, limit, ...(page.capped !== undefined ? { capped: page.capped } : {}) };
    }),
    getUnit: guarded((id) => getUnit(ctx, id)),
    contributeUnit: guarded(async (body) => applyChange(prepareUnitContribution(ctx, requireScope(caller, 'write'), body))),
    contributeSkill: guarded(async (body) => publishSkill(ctx, requireScope(caller, 'write'), body, applyChange)),
    validateUnit: guarded(async (id, verdict) => (await applyChange(await prepareVerdict(ctx, requireAgent(caller), id, verdict))).data),
    reputation: guarded((agentId, historyLimit) => reputationProfile(ctx, caller, agentId, historyLimit)),
    hostSkillPage: guarded((offset) => hostSkillPage(ctx, caller, { limit: SKILL_PAGE, offset })),
    findHostSkill: guarded((publisher, name) => findHostSkill(ctx, caller, publisher, name)),
    skillFiles: async (skill) => bundleFiles(skill),
    readSkillFile: guarded(async (skill, file) =>
      fileContent(file, (await getSkillFile(ctx, caller, skill.id, skill.version, file.path)).content),
    ),
  };
}
