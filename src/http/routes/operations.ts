// GET /healthz, GET /readyz, GET /v1/openapi.json.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../service/context.js';
import { unavailable } from '../../domain/errors.js';
import { Health, errors } from '../schemas.js';

export const operationRoutes: FastifyPluginAsyncTypebox<Context> = async (app, ctx) => {
  app.get(
    '/healthz',
    {
      config: { rateLimit: false },
      schema: { summary: 'The process is alive', tags: ['operations'], response: { 200: Health } },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: { rateLimit: false },
      schema: { summary: 'The database answers', tags: ['operations'], response: { 200: Health, ...errors(503) } },
    },
    async (request) => {
      try {
        await ctx.store.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        throw unavailable('the database is not reachable');
      }
      return { status: 'ready' };
    },
  );

  app.get(
    '/v1/openapi.json',
    { schema: { summary: 'This OpenAPI 3.1 document', tags: ['operations'] } },
    async () => app.swagger(),
  );
};
