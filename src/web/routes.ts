// The web front's routes: home, results, a skill, a unit, an agent, and the pages' own files. Each page
// is a thin door like a REST route: it reads the caller the authentication layer attached (browsers send
// no credential, so pages are the anonymous view), calls the same services under the same access rules,
// and renders. Hidden from the OpenAPI document (they are not API operations); public reads, rate limited
// per caller as the API is, except the fingerprinted files.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../domain/errors.js';
import { splitFrontmatter } from '../domain/skill-md/frontmatter.js';
import { skillUri } from '../domain/skill-address.js';
import { agentOverview, registryOverview } from '../service/browse.js';
import type { Context } from '../service/context.js';
import { getUnit, listUnits } from '../service/knowledge.js';
import { getSkill, listSkills, listSkillVersions } from '../service/skills.js';
import { listAdvisories } from '../service/advisories.js';
import { advisoryBriefs } from '../domain/advisories.js';
import type { Assets } from './assets.js';
import { sendErrorPage } from './errors.js';
import { IMMUTABLE, sendPage, setFrontHeaders } from './headers.js';
import { renderMarkdown, safeHttpUrl } from './markdown.js';
import type { Pages } from './render.js';
import { moderationPages } from './moderation-pages.js';
import { readSearch, RESULTS_PER_PAGE, SearchQuery, searchView } from './search.js';

export interface WebOptions {
  ctx: Context;
  pages: Pages;
  assets: Assets;
}

const HOME_SHELF = 5;
const AGENT_SIZES = { skills: 10, units: 10, history: 20 };

const hidden = { hide: true } as const;
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const AgentParams = Type.Object({ agent_id: Type.String({ minLength: 1, maxLength: 256 }) });
const VersionQuery = Type.Object({ version: Type.Optional(Type.String({ maxLength: 64 })) });
const AssetParams = Type.Object({ file: Type.String({ minLength: 1, maxLength: 100 }) });

/** The markdown after the frontmatter; the whole text if a stored SKILL.md ever has none. */
function skillBody(content: string): string {
  try {
    return splitFrontmatter(content).body;
  } catch {
    return content;
  }
}

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

export const webRoutes: FastifyPluginAsyncTypebox<WebOptions> = async (app, { ctx, pages, assets }) => {
  app.addHook('onSend', async (_request, reply) => setFrontHeaders(reply));
  app.setErrorHandler((error: FastifyError, request, reply) => sendErrorPage(pages, error, request, reply));

  app.get(
    '/assets/:file',
    { config: { rateLimit: false }, schema: { ...hidden, params: AssetParams } },
    async (request, reply) => {
      const asset = assets.byName(request.params.file);
      if (!asset) throw notFound('file');
      reply.header('cache-control', IMMUTABLE).header('etag', asset.etag).type(asset.type);
      if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
      return reply.send(asset.body);
    },
  );

  app.get('/', { schema: hidden }, async (request, reply) => {
    const overview = await registryOverview(ctx, request.auth, HOME_SHELF);
    return sendPage(
      reply,
      200,
      pages.render(
        'home',
        { title: 'Skills and knowledge for AI agents', searchBox: false, section: 'home' },
        { overview },
      ),
    );
  });

  app.get('/search', { schema: { ...hidden, querystring: SearchQuery } }, async (request, reply) => {
    const search = readSearch(request.query);
    const paging = { limit: RESULTS_PER_PAGE, offset: (search.page - 1) * RESULTS_PER_PAGE };
    const found: { items: unknown[]; total: number; capped?: boolean } =
      search.kind === 'skills'
        ? await listSkills(ctx, request.auth, { q: search.q, ...search.params, ...paging })
        : await listUnits(ctx, request.auth, { q: search.q, ...search.params, ...paging });
    const view = searchView(search, found, paging.offset);
    const title = search.q
      ? `${search.q} · ${search.kind === 'skills' ? 'Skills' : 'Knowledge'}`
      : search.kind === 'skills'
        ? 'Skills'
        : 'Knowledge units';
    return sendPage(
      reply,
      200,
      pages.render('search', { title, searchBox: false, section: search.kind }, { search: view }),
    );
  });

  app.get(
    '/skills/:id',
    { schema: { ...hidden, params: IdParams, querystring: VersionQuery } },
    async (request, reply) => {
      const { id } = request.params;
      const version = request.query.version?.trim() || undefined;
      const skill = await getSkill(ctx, request.auth, id, version);
      const [versions, advisories] = await Promise.all([
        listSkillVersions(ctx, request.auth, id, { limit: 100, offset: 0 }).then((page) => page.items),
        listAdvisories(ctx, request.auth, { skill_id: skill.id, limit: 100, offset: 0 }),
      ]);
      const base = `/v1/skills/${encodeURIComponent(id)}/versions/${encodeURIComponent(skill.version)}`;
      const fileHref = (path: string) => `${base}/files/${encodePath(path)}`;
      const files = skill.files.map((file) => ({ ...file, href: fileHref(file.path) }));
      const origin = `${request.protocol}://${request.host || '127.0.0.1'}`;
      const install = {
        cli: `kreg --url ${origin} install ${skill.id}`,
        mcp: JSON.stringify({ mcpServers: { 'knowledge-registry': { type: 'http', url: `${origin}/mcp` } } }, null, 2),
        uri: skill.conformance.conformant ? skillUri(skill) : null,
      };
      const bodyHtml = renderMarkdown(skillBody(skill.skill_md_content), {
        files: new Map(files.map((f) => [f.path, f.href])),
      });
      const title = skill.yanked ? `${skill.name} ${skill.version} (yanked)` : skill.name;
      return sendPage(
        reply,
        200,
        pages.render(
          'skill',
          { title, section: 'skills' },
          {
            skill,
            versions,
            advisories: advisoryBriefs(advisories.items, skill.id, skill.version),
            files,
            install,
            bodyHtml,
            rawHref: fileHref('SKILL.md'),
            archiveHref: `${base}/archive.zip`,
          },
        ),
      );
    },
  );

  app.get('/knowledge/:id', { schema: { ...hidden, params: IdParams } }, async (request, reply) => {
    const unit = await getUnit(ctx, request.auth, request.params.id);
    const data = {
      unit,
      descriptionHtml: renderMarkdown(unit.content.description),
      sourceHref: safeHttpUrl(unit.metadata.source),
    };
    return sendPage(reply, 200, pages.render('unit', { title: unit.title, section: 'knowledge' }, data));
  });

  app.get('/agents/:agent_id', { schema: { ...hidden, params: AgentParams } }, async (request, reply) => {
    const agent = await agentOverview(ctx, request.auth, request.params.agent_id, AGENT_SIZES);
    return sendPage(reply, 200, pages.render('agent', { title: agent.profile.agent_id, section: 'agents' }, { agent }));
  });

  moderationPages(app, ctx, pages);
};
