// GET /.well-known/agent-skills/index.json: the Agent Skills discovery index (v0.2.0), so existing skill
// clients can install from the registry. Public skills at their latest version, streamed (it grows with
// the catalogue): a SKILL.md alone is a `skill-md` entry, a bundle an `archive` entry (its ZIP).
import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cutText } from '../../domain/summaries.js';
import type { Context } from '../../service/context.js';
import { discoveryIndex } from '../../service/skills.js';
import type { DiscoveryEntry } from '../../store/store.js';
import { DiscoveryIndex, errors } from '../schemas.js';

export const DISCOVERY_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
/** The discovery format's bound on a description (the registry keeps longer ones). */
const DESCRIPTION_CHARS = 1_024;
const CHUNK_CHARS = 64 * 1024;

function entry(skill: DiscoveryEntry) {
  const base = `/v1/skills/${encodeURIComponent(skill.id)}/versions/${skill.version}`;
  return {
    name: skill.name,
    type: skill.fileCount === 0 ? 'skill-md' : 'archive',
    description: cutText(skill.description, DESCRIPTION_CHARS),
    url: skill.fileCount === 0 ? `${base}/files/SKILL.md` : `${base}/archive.zip`,
    digest: skill.digest,
  };
}

async function* indexDocument(entries: AsyncIterable<DiscoveryEntry>): AsyncGenerator<string> {
  let chunk = `{"$schema":${JSON.stringify(DISCOVERY_SCHEMA)},"skills":[`;
  let first = true;
  for await (const skill of entries) {
    chunk += (first ? '' : ',') + JSON.stringify(entry(skill));
    first = false;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
      await setImmediate();
    }
  }
  yield `${chunk}]}`;
}

export const discoveryRoutes: FastifyPluginAsyncTypebox<Context> = async (app, ctx) => {
  app.get(
    '/.well-known/agent-skills/index.json',
    {
      schema: {
        summary: 'The Agent Skills discovery index (v0.2.0): every public skill at its latest version, with its digest',
        operationId: 'getDiscoveryIndex',
        description:
          'Streamed. Entry URLs are path-absolute; a skill-md entry points at SKILL.md, an archive entry at the version ZIP.',
        tags: ['skills'],
        response: { 200: DiscoveryIndex, ...errors(429) },
      },
    },
    async (request, reply) => {
      const stream = Readable.from(indexDocument(await discoveryIndex(ctx, request.auth)));
      stream.on('error', (error) => {
        reply.log.error({ err: error }, 'discovery index failed mid-stream');
        reply.raw.destroy(error);
      });
      return reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(stream as never);
    },
  );
};
