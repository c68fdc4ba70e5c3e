// POST /v1/advisories, GET /v1/advisories, GET /v1/advisories/:id, POST /v1/advisories/query.
import { getAdvisory, listAdvisories, publishAdvisory, queryAdvisories } from '../../service/advisories.js';
import { listAnswer } from '../../service/list-answer.js';
import { respondOnce } from '../idempotency.js';
import { resourceRoutes } from './resource.js';
import {
  AdvisoryBody,
  AdvisoryOne,
  AdvisoryPage,
  AdvisoryParams,
  AdvisoryQuery,
  AuditAnswer,
  AuditBody,
  errors,
} from '../schemas.js';

export const advisoryRoutes = resourceRoutes('advisories', (route, ctx) => {
  route.post(
    '/v1/advisories',
    {
      access: publishAdvisory.access,
      summary: "Publish an advisory against a range of a skill's versions (admins)",
      operationId: 'publishAdvisory',
      description:
        'The advisory is an OSV record naming the skill as <publisher>/<name> and the range as SEMVER events; the versions published so far that fall in the range are listed.',
      body: AdvisoryBody,
      response: { 201: AdvisoryOne, ...errors(400, 401, 403, 404, 409, 429) },
    },
    async (request, reply) =>
      respondOnce(request, reply, ctx.store, await publishAdvisory(ctx, request.auth, request.body)),
  );

  route.get(
    '/v1/advisories',
    {
      summary: 'Advisories, newest first',
      operationId: 'listAdvisories',
      description: 'Never one about a skill that is private now.',
      querystring: AdvisoryQuery,
      response: { 200: AdvisoryPage, ...errors(400, 429) },
    },
    async (request) => {
      const { limit = 20, offset = 0, skill_id, modified_since } = request.query;
      const query = {
        limit,
        offset,
        ...(skill_id === undefined ? {} : { skill_id }),
        ...(modified_since === undefined ? {} : { modified_since: new Date(modified_since).toISOString() }),
      };
      return listAnswer(await listAdvisories(ctx, request.auth, query), offset, limit);
    },
  );

  route.get(
    '/v1/advisories/:id',
    {
      summary: 'One advisory',
      operationId: 'getAdvisory',
      description: 'Any advisory by its id, except one about a skill that is private now (404).',
      params: AdvisoryParams,
      response: { 200: AdvisoryOne, ...errors(400, 404, 429) },
    },
    async (request) => ({ data: await getAdvisory(ctx, request.auth, request.params.id) }),
  );

  route.post(
    '/v1/advisories/query',
    {
      summary: 'Audit a lock file: advisories, yanks, holds and verdicts of each locked version',
      operationId: 'queryAdvisories',
      description:
        'One entry per requested skill, in the order asked. A skill the caller may not see (deleted, or private) answers found: false and nothing else.',
      body: AuditBody,
      response: { 200: AuditAnswer, ...errors(400, 429) },
    },
    async (request) => ({ data: await queryAdvisories(ctx, request.auth, request.body.skills) }),
  );
});
