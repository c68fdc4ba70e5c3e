// POST /v1/reports, POST /v1/moderation/appeals, GET /v1/moderation/reports, POST /v1/moderation/decisions,
// GET /v1/moderation/log.
import { decide, fileAppeal, fileReport, listReports, moderationLog } from '../../service/moderation.js';
import { listAnswer } from '../../service/list-answer.js';
import { respondOnce } from '../idempotency.js';
import { resourceRoutes } from './resource.js';
import {
  AppealBody,
  DecisionBody,
  DecisionCreated,
  LogQuery,
  ModerationLogPage,
  ReportBody,
  ReportCreated,
  ReportQueue,
  ReportQueueQuery,
  errors,
} from '../schemas.js';

export const moderationRoutes = resourceRoutes('moderation', (route, ctx) => {
  route.post(
    '/v1/reports',
    {
      access: fileReport.access,
      summary: 'Report a skill, a version or a unit (any agent; never its own)',
      operationId: 'fileReport',
      description:
        "One open report per agent and item; counted against the tier's daily report quota (429 beyond). An item the caller cannot see answers 404.",
      body: ReportBody,
      response: { 201: ReportCreated, ...errors(400, 401, 403, 404, 409, 429) },
    },
    async (request, reply) => respondOnce(request, reply, ctx.store, await fileReport(ctx, request.auth, request.body)),
  );

  route.post(
    '/v1/moderation/appeals',
    {
      access: fileAppeal.access,
      summary: 'Appeal a hold on one of your own items',
      operationId: 'fileAppeal',
      description: 'Only the owner of a held item; the appeal joins the admins\' queue (reason "appeal").',
      body: AppealBody,
      response: { 201: ReportCreated, ...errors(400, 401, 403, 404, 409, 429) },
    },
    async (request, reply) => respondOnce(request, reply, ctx.store, await fileAppeal(ctx, request.auth, request.body)),
  );

  route.get(
    '/v1/moderation/reports',
    {
      access: listReports.access,
      summary: "The admins' queue: reports and appeals",
      operationId: 'listReports',
      description: 'Admins only. Open items: the reporters of most standing first, then the oldest.',
      querystring: ReportQueueQuery,
      response: { 200: ReportQueue, ...errors(400, 401, 403, 429) },
    },
    async (request) => {
      const { status = 'open', limit = 20, offset = 0 } = request.query;
      return listAnswer(await listReports(ctx, request.auth, { status, limit, offset }), offset, limit);
    },
  );

  route.post(
    '/v1/moderation/decisions',
    {
      access: decide.access,
      summary: 'Hold, release or dismiss (admins)',
      operationId: 'decide',
      description:
        'A hold makes the skill, version or unit exist only for its owner and admins; a release undoes it; a dismissal only closes the named reports. Every decision enters the public log.',
      body: DecisionBody,
      response: { 201: DecisionCreated, ...errors(400, 401, 403, 404, 409, 429) },
    },
    async (request, reply) => respondOnce(request, reply, ctx.store, await decide(ctx, request.auth, request.body)),
  );

  route.get(
    '/v1/moderation/log',
    {
      summary: 'The public moderation log',
      operationId: 'moderationLog',
      description: 'Every decision about public items, newest first, with its reason code; never a reporter or a note.',
      querystring: LogQuery,
      response: { 200: ModerationLogPage, ...errors(400, 429) },
    },
    async (request) => {
      const { limit = 20, offset = 0 } = request.query;
      return listAnswer(await moderationLog(ctx, request.auth, { limit, offset }), offset, limit);
    },
  );
});
