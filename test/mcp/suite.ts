// One suite for both MCP transports: the same tools, answers, refusals and skill:// resources whether an
// agent reaches the registry over Streamable HTTP (POST /mcp) or through the command line's stdio server.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parse } from 'yaml';
import { SkillBody, SkillListQuery, UnitBody } from '../../src/http/schemas.js';
import { call, contributeSkill, contributeUnit, register, skillMd } from '../helpers/app.js';
import {
  getSkillEntry,
  listSkills,
  type Registry,
  resourceText,
  startedRegistry,
  structured,
  text,
} from './fixtures.js';

export interface Transport {
  name: string;
  connect(url: string, key?: string): Promise<Client>;
  /** Skills per page of skills/list on this transport. */
  pageSize: number;
}

const READ_TOOLS = ['search_skills', 'get_skill', 'search_knowledge', 'get_knowledge_unit', 'get_reputation'];
const ALL_TOOLS = [...READ_TOOLS, 'contribute_knowledge_unit', 'contribute_skill', 'validate_knowledge_unit'].sort();
const json = (schema: unknown) => JSON.parse(JSON.stringify(schema));
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

export function describeMcpTransport(transport: Transport): void {
  describe(`MCP over ${transport.name}`, () => {
    let registry: Registry;
    let keys: Record<'alice' | 'bob' | 'reader', string>;
    let clients: Record<'anonymous' | 'alice' | 'bob' | 'reader', Client>;
    let pdf: { id: string; content: string };
    let secretId: string;
    let unitId: string;

    before(async () => {
      registry = await startedRegistry();
      const alice = await register(registry.app, 'alice');
      keys = {
        alice,
        bob: await register(registry.app, 'bob'),
        reader: await register(registry.app, 'alice', ['read'], 'free', alice),
      };
      const content = skillMd({ license: 'MIT', metadata: '{ version: "1.2" }' });
      const res = await call(registry.app, 'POST', '/v1/skills', {
        key: alice,
        body: { skill_md_content: content, visibility: 'public' },
      });
      pdf = { id: res.json().data.id, content };
      secretId = (
        await contributeSkill(registry.app, alice, { name: 'secret-notes', description: 'Private notes.' }, 'private')
      ).id;
      // Not the Agent Skills format (a name that is not a slug): a skill of the registry, not an MCP skill.
      await contributeSkill(registry.app, keys.bob, { name: 'PDF Helper', description: 'Helps with PDFs.' });
      unitId = (await contributeUnit(registry.app, alice)).id;
      const connect = (key?: string) => transport.connect(registry.url, key);
      const [anonymous, aliceClient, bob, reader] = await Promise.all([
        connect(),
        connect(keys.alice),
        connect(keys.bob),
        connect(keys.reader),
      ]);
      clients = { anonymous: anonymous!, alice: aliceClient!, bob: bob!, reader: reader! };
    });
    after(async () => {
      await Promise.all(Object.values(clients ?? {}).map((client) => client.close()));
      await registry.close();
    });

    it('lists the read tools to anonymous callers and every tool to agents, with the REST routes’ schemas', async () => {
      const anonymous = (await clients.anonymous.listTools()).tools;
      assert.deepEqual(anonymous.map((t) => t.name).sort(), [...READ_TOOLS].sort());
      const all = (await clients.alice.listTools()).tools;
      assert.deepEqual(all.map((t) => t.name).sort(), ALL_TOOLS);
      const tool = (name: string) => all.find((t) => t.name === name)!;
      assert.deepEqual(tool('search_skills').inputSchema, json(SkillListQuery));
      assert.deepEqual(tool('contribute_knowledge_unit').inputSchema, json(UnitBody));
      assert.deepEqual(tool('contribute_skill').inputSchema, json(SkillBody));
      assert.equal(tool('search_skills').annotations?.readOnlyHint, true);
      assert.equal(tool('contribute_skill').annotations?.readOnlyHint, false);
      for (const t of all) {
        assert.ok(t.description && t.description.length > 40, t.name);
        assert.equal(t.outputSchema?.type, 'object', t.name);
      }
    });

    it('answers every tool as the REST API does, sized for a model: summaries, then the whole item by id', async () => {
      const found = structured(
        await clients.anonymous.callTool({ name: 'search_skills', arguments: { q: 'pdf tables' } }),
      );
      const hit = found.skills.find((s: { id: string }) => s.id === pdf.id);
      assert.deepEqual(hit.uri, 'skill://alice/pdf-tools/SKILL.md');
      assert.equal('skill_md_content' in hit, false, 'search hits carry no SKILL.md');
      assert.equal(found.next_offset, null);

      const skill = structured(await clients.anonymous.callTool({ name: 'get_skill', arguments: { id: pdf.id } }));
      assert.equal(skill.skill_md_content, pdf.content);
      assert.deepEqual(skill.files, [
        {
          path: 'SKILL.md',
          uri: 'skill://alice/pdf-tools/SKILL.md',
          digest: sha256(pdf.content),
          size: Buffer.byteLength(pdf.content),
        },
      ]);

      const units = structured(
        await clients.anonymous.callTool({ name: 'search_knowledge', arguments: { q: 'backoff', limit: 5 } }),
      );
      assert.equal(units.units[0].id, unitId);
      assert.equal(units.limit, 5);
      assert.ok(units.units[0].summary.length <= 280);
      const unit = structured(
        await clients.anonymous.callTool({ name: 'get_knowledge_unit', arguments: { id: unitId } }),
      );
      assert.deepEqual(unit, (await call(registry.app, 'GET', `/v1/knowledge/${unitId}`)).json().data);

      const created = structured(
        await clients.alice.callTool({
          name: 'contribute_knowledge_unit',
          arguments: { ...unitBodyFor('Cache DNS lookups'), tags: ['dns'] },
        }),
      );
      assert.equal(created.agent_id, 'alice');
      assert.deepEqual((await call(registry.app, 'GET', `/v1/knowledge/${created.id}`)).json().data, created);

      const published = structured(
        await clients.alice.callTool({
          name: 'contribute_skill',
          arguments: {
            skill_md_content: skillMd({ name: 'csv-tools', description: 'Read and write CSV files.' }),
            visibility: 'public',
          },
        }),
      );
      assert.equal(published.skill.uri, 'skill://alice/csv-tools/SKILL.md');
      assert.deepEqual(published.warnings, []);

      const verdict = structured(
        await clients.bob.callTool({
          name: 'validate_knowledge_unit',
          arguments: { id: unitId, valid: true, feedback: 'checked' },
        }),
      );
      assert.deepEqual(verdict, { id: unitId, validated: true, feedback: 'checked' });

      const reputation = structured(
        await clients.anonymous.callTool({ name: 'get_reputation', arguments: { agent_id: 'bob' } }),
      );
      const rest = (await call(registry.app, 'GET', '/v1/reputation/bob')).json().data;
      assert.deepEqual(reputation, rest);
      assert.equal(reputation.validations, 1);
    });

    it('refuses as the registry does, with tool errors that say why', async () => {
      const anonymousWrite = await clients.anonymous.callTool({
        name: 'contribute_skill',
        arguments: { skill_md_content: skillMd(), visibility: 'public' },
      });
      assert.equal(anonymousWrite.isError, true);
      assert.match(text(anonymousWrite), /^authentication required: this tool needs an API key with write scope/);
      const anonymousVerdict = await clients.anonymous.callTool({
        name: 'validate_knowledge_unit',
        arguments: { id: unitId, valid: true },
      });
      assert.match(text(anonymousVerdict), /^authentication required: this tool needs an API key \(any scope\)/);

      const readOnly = await clients.reader.callTool({
        name: 'contribute_knowledge_unit',
        arguments: unitBodyFor('Read-only'),
      });
      assert.equal(readOnly.isError, true);
      assert.equal(text(readOnly), 'FORBIDDEN: this credential lacks the write scope');
      const own = await clients.alice.callTool({
        name: 'validate_knowledge_unit',
        arguments: { id: unitId, valid: true },
      });
      assert.equal(text(own), 'FORBIDDEN: an agent may not validate its own knowledge unit');

      const tooMany = await clients.anonymous.callTool({ name: 'search_skills', arguments: { limit: 500 } });
      assert.equal(tooMany.isError, true);
      assert.match(text(tooMany), /^VALIDATION_ERROR: limit must be <= 100/);
      const unknownField = await clients.anonymous.callTool({
        name: 'get_skill',
        arguments: { id: pdf.id, version: 2 },
      });
      assert.equal(text(unknownField), 'VALIDATION_ERROR: version is not a known field');
      const missing = await clients.anonymous.callTool({ name: 'get_skill', arguments: { id: 'sk_nothing' } });
      assert.equal(text(missing), 'NOT_FOUND: skill not found');
      const privateSkill = await clients.bob.callTool({ name: 'get_skill', arguments: { id: secretId } });
      assert.equal(text(privateSkill), 'NOT_FOUND: skill not found', 'a private skill does not exist for others');
      await assert.rejects(clients.anonymous.callTool({ name: 'delete_everything', arguments: {} }), /Unknown tool/);
    });

    it('serves skills as skill://<publisher>/<name>/SKILL.md resources, private ones to their publisher only', async () => {
      const uris = async (client: Client) => (await client.listResources()).resources.map((r) => r.uri);
      const anonymous = await uris(clients.anonymous);
      assert.equal(anonymous[0], 'skill://index.json');
      assert.ok(anonymous.includes('skill://alice/pdf-tools/SKILL.md'));
      assert.ok(!anonymous.includes('skill://alice/secret-notes/SKILL.md'));
      assert.ok(
        !anonymous.some((uri) => uri.startsWith('skill://bob/')),
        'a skill outside the Agent Skills format is no MCP skill',
      );
      assert.ok((await uris(clients.alice)).includes('skill://alice/secret-notes/SKILL.md'));
      assert.ok(!(await uris(clients.bob)).includes('skill://alice/secret-notes/SKILL.md'));

      const pdfResource = (await clients.anonymous.listResources()).resources.find(
        (r) => r.uri === 'skill://alice/pdf-tools/SKILL.md',
      )!;
      assert.equal(pdfResource.name, 'pdf-tools');
      assert.equal(pdfResource.description, 'Extract text and tables from PDF files.');
      assert.equal(pdfResource.mimeType, 'text/markdown');

      const read = await clients.anonymous.readResource({ uri: 'skill://alice/pdf-tools/SKILL.md' });
      assert.deepEqual(read.contents, [
        { uri: 'skill://alice/pdf-tools/SKILL.md', mimeType: 'text/markdown', text: pdf.content },
      ]);
      await assert.rejects(clients.anonymous.readResource({ uri: 'skill://alice/secret-notes/SKILL.md' }), /not found/);
      await assert.rejects(clients.bob.readResource({ uri: 'skill://alice/secret-notes/SKILL.md' }), /not found/);
      assert.equal(
        (await clients.alice.readResource({ uri: 'skill://alice/secret-notes/SKILL.md' })).contents.length,
        1,
      );
      await assert.rejects(
        clients.anonymous.readResource({ uri: 'skill://alice/pdf-tools/references/NONE.md' }),
        /not found/,
      );

      const templates = (await clients.anonymous.listResourceTemplates()).resourceTemplates;
      assert.deepEqual(
        templates.map((t) => t.uriTemplate),
        ['skill://{publisher}/{name}/SKILL.md'],
      );
    });

    it('implements the Skills extension (SEP-2640): skills/list and skills/get with verbatim frontmatter and digests', async () => {
      assert.deepEqual(clients.anonymous.getServerCapabilities()?.extensions, { 'io.modelcontextprotocol/skills': {} });
      const { skills } = await listSkills(clients.anonymous);
      const entry = skills.find((s) => s.uri === 'skill://alice/pdf-tools/SKILL.md')!;
      const frontmatter = parse(pdf.content.split('---\n')[1]!);
      assert.deepEqual(entry, {
        uri: 'skill://alice/pdf-tools/SKILL.md',
        frontmatter,
        resources: [{ uri: 'skill://alice/pdf-tools/SKILL.md', digest: sha256(pdf.content) }],
      });
      assert.deepEqual(frontmatter.metadata, { version: '1.2' });
      assert.ok(!skills.some((s) => s.uri.includes('secret-notes') || s.uri.startsWith('skill://bob/')));
      assert.deepEqual((await getSkillEntry(clients.anonymous, entry.uri)).skill, entry);
      await assert.rejects(
        getSkillEntry(clients.anonymous, 'skill://alice/secret-notes/SKILL.md'),
        (e: { code?: number }) => e.code === -32602,
      );
      await assert.rejects(
        getSkillEntry(clients.anonymous, 'skill://bob/pdf-helper/SKILL.md'),
        (e: { code?: number }) => e.code === -32602,
      );
      await assert.rejects(
        getSkillEntry(clients.anonymous, 'skill://alice/pdf-tools/README.md'),
        (e: { code?: number }) => e.code === -32602,
      );
      assert.equal(
        (await getSkillEntry(clients.alice, 'skill://alice/secret-notes/SKILL.md')).skill.frontmatter.name,
        'secret-notes',
      );

      const index = JSON.parse(resourceText(await clients.anonymous.readResource({ uri: 'skill://index.json' })));
      assert.equal(index.$schema, 'https://schemas.agentskills.io/discovery/0.2.0/schema.json');
      assert.ok(
        index.skills.some(
          (s: Record<string, string>) =>
            s.name === 'pdf-tools' && s.type === 'skill-md' && s.url === 'skill://alice/pdf-tools/SKILL.md',
        ),
      );
    });

    it('pages skills/list and resources/list with cursors, every skill exactly once', async () => {
      const many = await register(registry.app, 'many');
      for (let i = 0; i < transport.pageSize; i++)
        await contributeSkill(registry.app, many, { name: `bulk-${i}`, description: `Bulk skill ${i}.` });
      const seen: string[] = [];
      let pages = 0;
      for (let cursor: string | undefined; ;) {
        const page = await listSkills(clients.anonymous, cursor);
        pages++;
        seen.push(...page.skills.map((s) => s.uri));
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      assert.ok(pages >= 2, `${pages} pages`);
      assert.equal(new Set(seen).size, seen.length);
      assert.equal(seen.filter((uri) => uri.startsWith('skill://many/')).length, transport.pageSize);
      const first = await clients.anonymous.listResources();
      assert.ok(first.nextCursor);
      const second = await clients.anonymous.listResources({ cursor: first.nextCursor });
      assert.ok(!second.resources.some((r) => first.resources.some((f) => f.uri === r.uri)));
      await assert.rejects(listSkills(clients.anonymous, 'not-a-cursor'), (e: { code?: number }) => e.code === -32602);
    });
  });
}

export function unitBodyFor(title: string) {
  return {
    title,
    type: 'technique',
    domain: 'networking',
    content: { description: `${title}: keep answers for their TTL and refresh them in the background.`, examples: [] },
    metadata: { source: 'https://example.org/dns', confidence: 0.7 },
  };
}
