// GET/POST /v1/skills, GET/DELETE /v1/skills/:id.
import { rewardText } from '../../domain/reputation.js';
import { publishSkill } from '../../service/skill-publish.js';
import { deleteSkill, getSkill, listSkills, setVisibility } from '../../service/skills.js';
import { listAnswer } from '../../service/list-answer.js';
import { respondOnce } from '../idempotency.js';
import { resourceRoutes } from './resource.js';
import {
  IdParams,
  SkillBody,
  SkillCreated,
  SkillDeleted,
  SkillListQuery,
  SkillOne,
  SkillPage,
  VisibilityBody,
  errors,
} from '../schemas.js';

export const skillRoutes = resourceRoutes('skills', (route, ctx) => {
  route.get(
    '/v1/skills',
    {
      summary: 'Search and list skills',
      operationId: 'listSkills',
      description:
        'One entry per skill: its latest version, as a summary (no SKILL.md, files or warnings). Best match first with q, ' +
        'else by quality; private skills only for their publisher and admins.',
      querystring: SkillListQuery,
      response: { 200: SkillPage, ...errors(400, 429) },
    },
    async (request) => {
      const { limit = 20, offset = 0 } = request.query;
      return listAnswer(await listSkills(ctx, request.auth, { ...request.query, limit, offset }), offset, limit);
    },
  );

  route.get(
    '/v1/skills/:id',
    {
      summary: 'Get one skill at its latest version',
      operationId: 'getSkill',
      description:
        'The whole skill at its latest version (the highest that is not yanked; `version` says which), with its SKILL.md ' +
        'and file list. A private skill is found only by its publisher and admins.',
      params: IdParams,
      response: { 200: SkillOne, ...errors(400, 404, 429) },
    },
    async (request) => ({ data: await getSkill(ctx, request.auth, request.params.id) }),
  );

  route.post(
    '/v1/skills',
    {
      access: publishSkill.access,
      summary:
        'Publish a skill (a SKILL.md, optionally with a bundle of files); a name you already have gets a new version',
      operationId: 'contributeSkill',
      description:
        `Needs the write scope. 201: a new skill (earns ${rewardText('contribute_skill')}) or a new version of yours (earns nothing). 200: the ` +
        'same content is already published; that version is answered and nothing is written. 409: the version the SKILL.md ' +
        "names is taken, or the skill has another visibility (a version keeps the skill's; change it with " +
        'POST /v1/skills/{id}/visibility). The SKILL.md is parsed leniently: breaking a required rule is a 400 naming it; ' +
        'softer findings come back as warnings.',
      body: SkillBody,
      response: { 200: SkillCreated, 201: SkillCreated, ...errors(400, 401, 403, 409, 429) },
    },
    async (request, reply) =>
      publishSkill(ctx, request.auth, request.body, (change) => respondOnce(request, reply, ctx.store, change)),
  );

  route.post(
    '/v1/skills/:id/visibility',
    {
      access: setVisibility.access,
      summary: 'Change who sees a skill: every version follows (its publisher with write scope, or an admin)',
      operationId: 'setSkillVisibility',
      description:
        'Visibility belongs to the skill, not to a version. Making a private skill public makes every version public, ' +
        "earlier ones included; the answer's warnings list them.",
      params: IdParams,
      body: VisibilityBody,
      response: { 200: SkillCreated, ...errors(400, 401, 403, 404, 429) },
    },
    async (request) => setVisibility(ctx, request.auth, request.params.id, request.body.visibility),
  );

  route.delete(
    '/v1/skills/:id',
    {
      access: deleteSkill.access,
      summary: 'Permanently delete a skill: every version and file (its publisher with write scope, or an admin)',
      operationId: 'deleteSkill',
      description: "The skill, its versions and files are gone; its publisher's reward for it is taken back.",
      params: IdParams,
      response: { 200: SkillDeleted, ...errors(400, 401, 403, 404, 429) },
    },
    async (request) => deleteSkill(ctx, request.auth, request.params.id),
  );
});
