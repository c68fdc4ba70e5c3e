// GET /healthz, GET /readyz, GET /v1/openapi.json.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { unavailable } from '../../domain/errors.js';
import type { Context } from '../../service/context.js';
import type { IndexMemory, VocabularyStatus } from '../../search/index.js';
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
        summary: 'The database answers and can take writes, and the search index is loaded',
        operationId: 'getReadiness',
        description:
          'warnings: what the configuration turned off or ignored (also logged at start-up). 503 while the search index loads, ' +
          "with how far it is in the message (e.g. 'search index loading: 40% (400,000 of 1,000,000)').",
        tags: ['operations'],
        response: { 200: Readiness, ...errors(503) },
      },
    },
    async (request) => {
      try {
        await ctx.store.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        throw unavailable(
          error instanceof StoreUnavailableError && /disk/.test(error.message)
            ? error.message
            : 'the database is not reachable',
        );
      }
      const search = await ctx.search?.status();
      // Until the search index can answer, searches are refused: the instance is not ready for traffic.
      if (search && !search.ready) throw unavailable(search.loading ?? 'search index loading');
      const memory = (m: IndexMemory | undefined) => ({
        items: m?.items ?? 0,
        postings: m?.postings ?? 0,
        vectors: m?.vectors ?? 0,
        lexical_bytes: m?.lexicalBytes ?? 0,
        vector_bytes: m?.vectorBytes ?? 0,
        bytes_per_item: m?.bytesPerItem ?? 0,
        bytes_per_posting: m?.bytesPerPosting ?? 0,
      });
      const vocabulary = (v: VocabularyStatus | undefined) => ({
        terms: v?.terms ?? 0,
        limit: v?.limit ?? 0,
        full: v?.full ?? false,
        items_cut: v?.documentsCut ?? 0,
      });
      const full = search ? (['skill', 'unit'] as const).filter((kind) => search.vocabulary[kind].full !== false) : [];
      const warnings = [
        ...ctx.config.warnings,
        ...full.map(
          (kind) =>
            `the search index's ${kind} vocabulary is full (${search!.vocabulary[kind].full}): new words are not indexed`,
        ),
      ];
      return {
        status: 'ready',
        ...(warnings.length > 0 ? { warnings } : {}),
        search: {
          pending: search?.pending ?? 0,
          indexed: search?.ready ?? false,
          model: search?.model ?? 'none',
          vocabulary: { skills: vocabulary(search?.vocabulary.skill), units: vocabulary(search?.vocabulary.unit) },
          memory: { skills: memory(search?.memory.skill), units: memory(search?.memory.unit) },
        },
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
