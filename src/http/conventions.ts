// HTTP conventions every answer follows: compression of large answers, CORS when configured, and
// conditional reads (an ETag on every GET answer; If-None-Match answers 304 without a body).
import { createHash } from 'node:crypto';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * A public version's files and archive: their bytes never change, but the skill may be made private, held or
 * deleted, so a shared cache keeps them five minutes, then asks again (a 304 while they are still served).
 */
export const PUBLIC_VERSION = 'public, max-age=300, must-revalidate';
/** Content of one caller (or content that may change): never in a shared cache, revalidated on each use. */
export const PRIVATE_REVALIDATE = 'private, no-cache';

/**
 * Types worth compressing: JSON and the web pages' text. Event streams (MCP) must flush as they are
 * written, and archives are compressed already; routes that serve exact bytes (skill files, whose
 * digests clients check) turn compression off themselves (`compress: false`).
 */
const COMPRESSIBLE =
  /^(application\/(json|problem\+json|schema\+json)|text\/(html|css|javascript)|application\/javascript|image\/svg\+xml)\b/;

/** The entity tags an If-None-Match header lists (`*` matches any); weak and strong compared alike. */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/** A weak tag from the bytes of an answer (weak: a compressed answer carries the same tag). */
const etagOf = (payload: string | Buffer) =>
  `W/"${createHash('sha256').update(payload).digest('base64url').slice(0, 32)}"`;

async function conditionalGet(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
  if (String(reply.getHeader('cache-control') ?? '').includes('no-store')) return payload;
  let etag = reply.getHeader('etag') as string | undefined;
  if (etag === undefined) {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload; // streamed: no tag
    etag = etagOf(payload);
    reply.header('etag', etag);
  }
  if (!matches(request.headers['if-none-match'], etag)) return payload;
  // 304: no body, and none of the headers that describe one.
  if (typeof (payload as { destroy?: unknown })?.destroy === 'function') (payload as { destroy(): void }).destroy();
  reply.code(304);
  for (const header of ['content-length', 'content-type', 'content-disposition', 'repr-digest'])
    reply.removeHeader(header);
  return '';
}

export interface ConventionOptions {
  corsOrigins: string[] | '*' | null;
}

export async function installConventions(app: FastifyInstance, options: ConventionOptions): Promise<void> {
  app.addHook('onSend', conditionalGet);
  // Answers only: request bodies stay plain JSON (a compressed body is refused as before, not inflated).
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    threshold: 1024,
    encodings: ['gzip', 'br', 'deflate'],
    customTypes: (type) => COMPRESSIBLE.test(type),
  });
  if (options.corsOrigins !== null) {
    await app.register(cors, {
      origin: options.corsOrigins === '*' ? '*' : options.corsOrigins,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: [
        'authorization',
        'content-type',
        'idempotency-key',
        'if-none-match',
        'x-request-id',
        'mcp-session-id',
        'mcp-protocol-version',
      ],
      exposedHeaders: [
        'etag',
        'x-request-id',
        'retry-after',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
        'repr-digest',
        'x-skill-version',
        'mcp-session-id',
      ],
      maxAge: 600,
    });
  }
}
