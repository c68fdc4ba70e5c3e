// GET /v1/export/:agent_id — everything tied to an agent, streamed as one JSON document.
import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { exportAgent, type AgentExport } from '../../service/export.js';
import { AgentParams, ExportDocument, errors } from '../schemas.js';
import { resourceRoutes } from './resource.js';

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

async function* exportDocument(found: AgentExport): AsyncGenerator<string> {
  const j = JSON.stringify;
  yield `{"data":{"agent_id":${j(found.agentId)},"exported_at":${j(found.exportedAt)},"keys":[`;
  yield* jsonArray(found.keys);
  yield '],"knowledge_units":[';
  yield* jsonArray(found.units);
  yield '],"skills":[';
  yield* jsonArray(found.skills);
  yield '],"validations":[';
  yield* jsonArray(found.verdicts);
  yield `],"reputation":${j(found.profile).slice(0, -1)},"history":[`;
  yield* jsonArray(found.history);
  yield ']}}}';
}

export const exportRoutes = resourceRoutes('export', (route, ctx) => {
  route.get(
    '/v1/export/:agent_id',
    {
      access: exportAgent.access,
      summary: 'Export everything tied to an agent (its own key, or an admin)',
      operationId: 'exportAgent',
      description:
        'Streamed. Units, skills (private included), verdicts given, reputation with full history, key metadata.',
      params: AgentParams,
      response: { 200: ExportDocument, ...errors(400, 401, 403, 404, 429) },
    },
    async (request, reply) => {
      const agentId = request.params.agent_id;
      const stream = Readable.from(exportDocument(await exportAgent(ctx, request.auth, agentId)));
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
});
