// Holds and advisories through MCP, on both transports (the /mcp route over the services, and the stdio
// proxy over REST), and through the command line: a held skill is not found, listed, searched or readable
// as a resource for anyone but its owner, who sees why; get_skill carries the advisories of a skill.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, contributeSkill, register, testConfig } from '../helpers/app.js';
import { cli } from '../cli/run.js';
import { httpClient, listSkills, type Registry, startedRegistry, stdioClient, structured } from './fixtures.js';

describe('holds and advisories on MCP and the command line', () => {
  let registry: Registry;
  let carol: string;
  let root: string;
  let held: { id: string };
  let advised: { id: string };
  let home: string;

  before(async () => {
    registry = await startedRegistry({ config: testConfig({ openAdminRegistration: true }) });
    home = mkdtempSync(join(tmpdir(), 'kreg-held-'));
    carol = await register(registry.app, 'carol');
    root = await register(registry.app, 'root', ['read', 'write', 'admin']);
    held = await contributeSkill(registry.app, carol, { name: 'held-walrus', description: 'Walrus tools, held.' });
    advised = await contributeSkill(registry.app, carol, { name: 'advised-walrus', description: 'Walrus, advised.' });
    const hold = await call(registry.app, 'POST', '/v1/moderation/decisions', {
      key: root,
      body: { target: held.id, action: 'hold', reason: 'malware' },
    });
    assert.equal(hold.statusCode, 201, hold.body);
    const advisory = await call(registry.app, 'POST', '/v1/advisories', {
      key: root,
      body: { skill_id: advised.id, versions: '*', severity: 'critical', summary: 'Steals keys', details: 'd' },
    });
    assert.equal(advisory.statusCode, 201, advisory.body);
  });
  after(async () => {
    await registry.close();
    rmSync(home, { recursive: true, force: true });
  });

  for (const [transport, connect] of [
    ['Streamable HTTP', httpClient],
    ['stdio', stdioClient],
  ] as const) {
    it(`hides a held skill from all but its owner, and shows advisories in get_skill (${transport})`, async () => {
      const anonymous: Client = await connect(registry.url);
      const owner: Client = await connect(registry.url, carol);
      try {
        const missing = await anonymous.callTool({ name: 'get_skill', arguments: { id: held.id } });
        assert.equal(missing.isError, true);
        const found = structured(await anonymous.callTool({ name: 'search_skills', arguments: { q: 'walrus' } }));
        assert.deepEqual(
          found.skills.map((r: { id: string }) => r.id),
          [advised.id],
        );
        const listed = (await listSkills(anonymous)).skills.map((s) => s.uri);
        assert.ok(!listed.some((uri) => uri.includes('held-walrus')), 'not in skills/list');
        const resources = (await anonymous.listResources()).resources.map((r) => r.uri);
        assert.ok(!resources.some((uri) => uri.includes('held-walrus')), 'not in resources/list');

        const own = structured(await owner.callTool({ name: 'get_skill', arguments: { id: held.id } }));
        assert.deepEqual([own.held.reason, own.held.by], ['malware', 'moderator']);

        const skill = structured(await anonymous.callTool({ name: 'get_skill', arguments: { id: advised.id } }));
        assert.equal(skill.advisories.length, 1);
        assert.deepEqual(
          [skill.advisories[0].severity, skill.advisories[0].summary, skill.advisories[0].affects_this_version],
          ['critical', 'Steals keys', true],
        );
      } finally {
        await anonymous.close();
        await owner.close();
      }
    });
  }

  it('answers not found to kreg show and kreg install of a held skill, and installs nothing', async () => {
    const show = await cli(home, ['--url', registry.url, 'show', held.id]);
    assert.equal(show.code, 1);
    assert.match(show.stderr, /NOT_FOUND/);
    const install = await cli(home, ['--url', registry.url, 'install', held.id, '--dir', join(home, 'held')]);
    assert.equal(install.code, 1);
    assert.match(install.stderr, /NOT_FOUND/);
    const owner = await cli(home, ['--url', registry.url, '--key', carol, '--json', 'show', held.id]);
    assert.equal(owner.code, 0, owner.stderr);
    assert.equal(JSON.parse(owner.stdout).data.held.reason, 'malware');
  });
});
