// A skill's versions and files: GET /v1/skills/:id/versions[/:version], the files of a version (and of
// the latest one), a version's archive, and yanking. Files are served as data, never to be run or
// rendered: a safe content type, nosniff, a sandboxing CSP, and their digest.
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { create as contentDisposition } from 'content-disposition';
import { normalizeBundlePath, sha256Digest } from '../../domain/bundles.js';
import { badRequest } from '../../domain/errors.js';
import { isVersion } from '../../domain/versions.js';
import { getSkill, getSkillArchive, getSkillFile, listSkillVersions, setYanked } from '../../service/skills.js';
import type { Skill } from '../../domain/model.js';
import type { SkillFileContent } from '../../store/store.js';
import { PRIVATE_REVALIDATE, PUBLIC_VERSION } from '../conventions.js';
import {
  IdParams,
  PageQuery,
  SkillFileParams,
  SkillOne,
  SkillVersionFileParams,
  SkillVersionList,
  SkillVersionParams,
  errors,
} from '../schemas.js';
import { resourceRoutes } from './resource.js';

const CHUNK = 64 * 1024;

function version(raw: string): string {
  if (!isVersion(raw)) throw badRequest('path parameter version must be a semantic version, e.g. 1.2.3');
  return raw;
}

function filePath(raw: string): string {
  if (raw === 'SKILL.md') return raw;
  const normal = normalizeBundlePath(raw);
  if ('error' in normal) throw badRequest(`the file path ${'error' in normal ? normal.error : ''}`);
  return normal.path;
}

/** RFC 9530's digest header of bytes whose sha256 is `digest` (sha256:<hex>). */
const reprDigest = (digest: string) =>
  `sha-256=:${Buffer.from(digest.replace(/^sha256:/, ''), 'hex').toString('base64')}:`;

/**
 * How long caches may keep a skill's bytes: a public version's files and archive for minutes (their bytes
 * never change, but a skill made private, held or deleted must stop being served by shared caches soon);
 * the latest version's files change with each publication, and a private skill's bytes stay out of shared
 * caches. All are revalidated by their ETag (304).
 */
const cacheControl = (skill: Skill, pinned: boolean) =>
  skill.visibility !== 'public' ? PRIVATE_REVALIDATE : pinned ? PUBLIC_VERSION : 'no-cache';

/** A file of a skill, as data: a safe type, nosniff, a sandboxing CSP, its digest and how caches may keep it. */
function sendFile(
  reply: FastifyReply,
  { skill, file }: { skill: Skill; file: SkillFileContent & { path: string } },
  pinned: boolean,
): FastifyReply {
  const name = file.path.split('/').pop()!;
  const text = file.mediaType.includes('charset=utf-8');
  reply
    .type(file.mediaType)
    .header('content-security-policy', "default-src 'none'; sandbox")
    // Any file name (`docs/说明.md` too): an ASCII fallback, and the name itself in RFC 5987's form.
    .header('content-disposition', contentDisposition(name, { type: text ? 'inline' : 'attachment' }))
    .header('cache-control', cacheControl(skill, pinned))
    .header('x-skill-version', file.version);
  if (file.digest) reply.header('etag', `"${file.digest}"`).header('repr-digest', reprDigest(file.digest));
  return reply.send(Buffer.from(file.content));
}

/** Bytes, documented as such (the payload is a Buffer or a stream: nothing is serialized). */
const binary = (description: string, mediaType: string) =>
  ({
    200: { description, content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } } },
    ...errors(400, 404, 429),
  }) as never;

export const skillVersionRoutes = resourceRoutes('skills', (route, ctx) => {
  route.get(
    '/v1/skills/:id/versions',
    {
      summary: "A skill's versions, newest first (yanked ones flagged)",
      operationId: 'listSkillVersions',
      description:
        "The skill's versions by semantic-version precedence, newest first, each with its digest; paged like every list.",
      params: IdParams,
      querystring: PageQuery,
      response: { 200: SkillVersionList, ...errors(400, 404, 429) },
    },
    async (request) => {
      const { limit = 20, offset = 0 } = request.query;
      const page = await listSkillVersions(ctx, request.auth, request.params.id, { limit, offset });
      return { data: page.items, total: page.total, offset, limit };
    },
  );

  route.get(
    '/v1/skills/:id/versions/:version',
    {
      summary: 'Get one version of a skill (a yanked one too, flagged)',
      operationId: 'getSkillVersion',
      description: 'The whole skill as that version has it: SKILL.md, file list, digest, conformance.',
      params: SkillVersionParams,
      response: { 200: SkillOne, ...errors(400, 404, 429) },
    },
    async (request) => ({
      data: await getSkill(ctx, request.auth, request.params.id, version(request.params.version)),
    }),
  );

  route.get(
    '/v1/skills/:id/files/*',
    {
      compress: false,
      summary: "A file of the skill's latest version (SKILL.md or a bundle file), with its digest",
      operationId: 'getSkillFile',
      description:
        'The bytes, served as data: a safe type, nosniff, a sandboxing CSP; ETag and Repr-Digest carry its sha256.',
      params: SkillFileParams,
      response: binary('the file, as bytes', 'application/octet-stream'),
    },
    async (request, reply) =>
      sendFile(
        reply,
        await getSkillFile(ctx, request.auth, request.params.id, null, filePath(request.params['*'])),
        false,
      ),
  );

  route.get(
    '/v1/skills/:id/versions/:version/files/*',
    {
      compress: false,
      summary: 'A file of one version of a skill (SKILL.md or a bundle file), with its digest',
      operationId: 'getSkillVersionFile',
      description:
        'The bytes, served as data: a safe type, nosniff, a sandboxing CSP; ETag and Repr-Digest carry its sha256.',
      params: SkillVersionFileParams,
      response: binary('the file, as bytes', 'application/octet-stream'),
    },
    async (request, reply) =>
      sendFile(
        reply,
        await getSkillFile(
          ctx,
          request.auth,
          request.params.id,
          version(request.params.version),
          filePath(request.params['*']),
        ),
        true,
      ),
  );

  route.get(
    '/v1/skills/:id/versions/:version/archive.zip',
    {
      compress: false,
      summary: 'One version as a ZIP archive (SKILL.md and its files at the root); its sha256 is the version digest',
      operationId: 'getSkillArchive',
      description: 'Deterministic: the same content always makes the same bytes, so the digest can be pinned.',
      params: SkillVersionParams,
      response: binary('a ZIP archive', 'application/zip'),
    },
    async (request, reply) => {
      const at = version(request.params.version);
      const { skill, archive } = await getSkillArchive(ctx, request.auth, request.params.id, at);
      // The archive's own digest: the version digest when the version has files, else that of SKILL.md alone.
      const digest = sha256Digest(archive);
      const chunks = function* () {
        for (let i = 0; i < archive.length; i += CHUNK) yield archive.subarray(i, i + CHUNK);
      };
      return reply
        .type('application/zip')
        .header('content-length', archive.length)
        .header('content-disposition', `attachment; filename="${skill.name}-${at}.zip"`)
        .header('cache-control', cacheControl(skill, true))
        .header('etag', `"${digest}"`)
        .header('repr-digest', reprDigest(digest))
        .send(Readable.from(chunks()));
    },
  );

  for (const [action, yanked] of [
    ['yank', true],
    ['unyank', false],
  ] as const) {
    route.post(
      `/v1/skills/:id/versions/:version/${action}`,
      {
        access: setYanked.access,
        summary: yanked
          ? 'Yank a version: it stays readable by its number, flagged, and is never chosen as latest (publisher or admin)'
          : 'Restore a yanked version (publisher or admin)',
        operationId: yanked ? 'yankSkillVersion' : 'unyankSkillVersion',
        description: "Answers the version as it now is. The skill's latest version moves accordingly.",
        params: SkillVersionParams,
        response: { 200: SkillOne, ...errors(400, 401, 403, 404, 429) },
      },
      async (request) => ({
        data: await setYanked(ctx, request.auth, request.params.id, version(request.params.version), yanked),
      }),
    );
  }
});
