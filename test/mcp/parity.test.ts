// The same scenario over both MCP transports gives the same answers: the tools, a search, a skill with a
// bundle (media types from the registry's own listing), skills/list, resources/list and every file read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, register, skillMd } from '../helpers/app.js';
import { httpClient, listSkills, startedRegistry, stdioClient } from './fixtures.js';

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

async function scenario(client: Client, skillId: string) {
  const resources = (await client.listResources()).resources;
  const reads = [];
  for (const resource of resources.filter((r) => r.uri.startsWith('skill://publisher/')))
    reads.push(await client.readResource({ uri: resource.uri }));
  return {
    tools: (await client.listTools()).tools.map((t) => t.name),
    search: (await client.callTool({ name: 'search_skills', arguments: { q: 'tables' } })).structuredContent,
    skill: (await client.callTool({ name: 'get_skill', arguments: { id: skillId } })).structuredContent,
    skills: (await listSkills(client)).skills,
    resources,
    reads,
  };
}

describe('MCP over Streamable HTTP and over stdio', () => {
  it('answer the same scenario with the same answers', async () => {
    const registry = await startedRegistry();
    const key = await register(registry.app, 'publisher');
    const files = [
      { path: 'scripts/helper.py', content_base64: b64('print("hi")\n') },
      { path: 'assets/logo.png', content_base64: b64(Buffer.from([0x89, 0x50, 0x4e, 0x47])) },
    ];
    const body = {
      skill_md_content: skillMd({ name: 'table-tools', description: 'Extract tables from PDF files.' }),
      visibility: 'public',
      files,
    };
    const published = await call(registry.app, 'POST', '/v1/skills', { key, body });
    assert.equal(published.statusCode, 201, published.body);
    const skillId = published.json().data.id as string;
    const [overHttp, overStdio] = await Promise.all([httpClient(registry.url), stdioClient(registry.url)]);
    try {
      const [viaHttp, viaStdio] = [await scenario(overHttp, skillId), await scenario(overStdio, skillId)];
      assert.deepEqual(viaStdio, viaHttp);
      const helper = viaHttp.resources.find((r) => r.uri.endsWith('/scripts/helper.py'));
      assert.equal(
        helper?.mimeType,
        published
          .json()
          .data.files.find((f: { path: string }) => f.path === 'scripts/helper.py')
          .media_type.split(';')[0],
      );
      assert.equal(viaHttp.reads.length, 3, 'SKILL.md and both files were read');
    } finally {
      await Promise.all([overHttp.close(), overStdio.close()]);
      await registry.close();
    }
  });
});
