// GET /v1/export/:agent_id — everything tied to an agent, streamed as one JSON document.
import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { assertMayExport, requireAgent } from '../../domain/access.js';
import { notFound } from '../../domain/errors.js';
import type { ReputationProfile } from '../../domain/model.js';
import type { Context } from '../../service/context.js';
import type { Store } from '../../store/store.js';
import { AgentParams, ExportDocument, errors } from '../schemas.js';

const CHUNK_BYTES = 64 * 1024;

/**
 * Writes the items of `source` as JSON array elements, gathered into chunks of about CHUNK_BYTES. After
 * each chunk it yields to the event loop: reading a batch from SQLite and serializing it are synchronous,
 * and an export of large units must not hold every other request up until it is done.
 */
async function* jsonArray<T>(source: AsyncIterable<T>): AsyncGenerator<string> {
  let chunk = '';
  let first = true;
  for await (const item of source) {
    chunk += (first ? '' : ',') + JSON.stringify(item);
    first = false;
    if (chunk.length >= CHUNK_BYTES) {
      yield chunk;
      chunk = '';
      await setImmediate();
    }
  }
  if (chunk) yield chunk;
}

async function* exportDocument(store: Store, profile: ReputationProfile, exportedAt: string): AsyncGenerator<string> {
  const id = profile.agent_id;
  const j = JSON.stringify;
  yield `{"data":{"agent_id":${j(id)},"exported_at":${j(exportedAt)},"keys":[`;
  yield* jsonArray(store.exportKeys(id));
  yield '],"knowledge_units":[';
  yield* jsonArray(store.exportUnits(id));
  yield '],"skills":[';
  yield* jsonArray(store.exportSkills(id));
  yield '],"validations":[';
  yield* jsonArray(store.exportVerdicts(id));
  const { history: _newest, ...totals } = profile;
  yield `],"reputation":${j(totals).slice(0, -1)},"history":[`;
  yield* jsonArray(store.exportHistory(id));
  yield ']}}}';
}

export const exportRoutes: FastifyPluginAsyncTypebox<Context> = async (app, ctx) => {
  app.get(
    '/v1/export/:agent_id',
    {
      config: { access: 'agent' },
      schema: {
        summary: 'Export everything tied to an agent (its own key, or an admin)',
        operationId: 'exportAgent',
        description: 'Streamed. Units, skills (private included), verdicts given, reputation with full history, key metadata.',
        tags: ['export'],
        security: [{ bearerAuth: [] }],
        params: AgentParams,
        response: { 200: ExportDocument, ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const agentId = request.params.agent_id;
      assertMayExport(requireAgent(request.auth), agentId);
      const profile = await ctx.store.reputation(agentId, 0);
      if (!profile) throw notFound('agent');
      const stream = Readable.from(exportDocument(ctx.store, profile, ctx.clock().toISOString()));
      // A failure mid-stream cannot change the status any more: cut the connection so the client sees a
      // truncated document rather than a complete-looking one.
      stream.on('error', (error) => {
        request.log.error({ err: error }, 'export failed mid-stream');
        reply.raw.destroy(error);
      });
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="export-${encodeURIComponent(agentId)}.json"`)
        .send(stream as never); // streamed: the 200 schema documents the shape, it is not serialized
    },
  );
};
