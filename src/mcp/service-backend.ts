// The RegistryBackend of the /mcp route: the registry's operations themselves, called with the caller the
// authentication plugin attached to the request, so every access rule is the operations' own and every
// failure is the refusal REST gives for it.
import { isAgent, type Caller } from '../domain/caller.js';
import { listAdvisories } from '../service/advisories.js';
import { applyChange, type Context } from '../service/context.js';
import { refusalOf, type ErrorLog } from '../service/errors.js';
import { contributeUnit, getUnit, listUnits, validateUnit } from '../service/knowledge.js';
import { listAnswer } from '../service/list-answer.js';
import { reputationProfile } from '../service/reputation.js';
import { findHostSkill, hostSkillPage } from '../service/skill-lookup.js';
import { publishSkill } from '../service/skill-publish.js';
import { getSkill, getSkillFile, listSkills } from '../service/skills.js';
import { bundleFiles, fileContent, type RegistryBackend } from './backend.js';

export type { ErrorLog };

/** Skills per page of skills/list and resources/list (frontmatter and file listings, no content). */
const SKILL_PAGE = 20;

export function serviceBackend(ctx: Context, caller: Caller, log: ErrorLog): RegistryBackend {
  const guarded =
    <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await operation(...args);
      } catch (error) {
        throw refusalOf(error, log);
      }
    };
  return {
    authenticated: isAgent(caller),
    searchSkills: guarded(async ({ limit = 20, offset = 0, ...filters }) => {
      return listAnswer(await listSkills(ctx, caller, { ...filters, limit, offset }), offset, limit);
    }),
    getSkill: guarded((id) => getSkill(ctx, caller, id)),
    searchUnits: guarded(async ({ limit = 20, offset = 0, ...filters }) => {
      return listAnswer(await listUnits(ctx, caller, { ...filters, limit, offset }), offset, limit);
    }),
    getUnit: guarded((id) => getUnit(ctx, caller, id)),
    contributeUnit: guarded(async (body) => applyChange(await contributeUnit(ctx, caller, body))),
    contributeSkill: guarded(async (body) => publishSkill(ctx, caller, body, applyChange)),
    validateUnit: guarded(
      async (id, verdict) => (await applyChange(await validateUnit(ctx, caller, id, verdict))).data,
    ),
    skillAdvisories: guarded(
      async (skillId) => (await listAdvisories(ctx, caller, { skill_id: skillId, limit: 100, offset: 0 })).items,
    ),
    reputation: guarded((agentId, historyLimit) => reputationProfile(ctx, caller, agentId, historyLimit)),
    hostSkillPage: guarded((offset) => hostSkillPage(ctx, caller, { limit: SKILL_PAGE, offset })),
    findHostSkill: guarded((publisher, name) => findHostSkill(ctx, caller, publisher, name)),
    skillFiles: async (skill) => bundleFiles(skill),
    readSkillFile: guarded(async (skill, file) =>
      fileContent(file, (await getSkillFile(ctx, caller, skill.id, skill.version, file.path)).file.content),
    ),
  };
}
