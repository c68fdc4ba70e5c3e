// GET /healthz, GET /readyz, GET /v1/openapi.json.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { unavailable } from '../../domain/errors.js';
import type { Context } from '../../service/context.js';
import { StoreUnavailableError } from '../../store/store.js';
import { Health, Readiness, errors } from '../schemas.js';

export const operationRoutes: FastifyPluginAsyncTypebox<Context> = async (app, ctx) => {
  app.get(
    '/healthz',
    {
      config: { rateLimit: false },
      schema: {
        summary: 'The process is alive',
        operationId: 'getHealth',
        description: 'No database access; not rate limited.',
        tags: ['operations'],
        response: { 200: Health },
      },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: { rateLimit: false },
      schema: {
        summary: 'The database answers and can take writes',
        operationId: 'getReadiness',
        description: 'warnings: what the configuration turned off or ignored (also logged at start-up).',
        tags: ['operations'],
        response: { 200: Readiness, ...errors(503) },
      },
    },
    async (request) => {
      try {
        await ctx.store.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        throw unavailable(error instanceof StoreUnavailableError && /disk/.test(error.message) ? error.message : 'the database is not reachable');
      }
      const search = (await ctx.search?.status()) ?? { ready: false, pending: 0, model: 'none' };
      return {
        status: 'ready',
        ...(ctx.config.warnings.length > 0 ? { warnings: ctx.config.warnings } : {}),
        search: { pending: search.pending, indexed: search.ready, model: search.model },
      };
    },
  );

  app.get(
    '/v1/openapi.json',
    {
      schema: {
        summary: 'This OpenAPI 3.1 document',
        operationId: 'getOpenApiDocument',
        description: 'Generated from the route schemas; the page at /docs shows it.',
        tags: ['operations'],
      },
    },
    async () => app.swagger(),
  );
};
