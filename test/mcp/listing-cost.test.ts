// Listings for agent hosts (skills/list, resources/list, skill://index.json) serve what was kept at
// publication: no skill is read whole and no SKILL.md parsed per entry, so an anonymous client looping
// over them costs what a REST list costs. A store that counts whole-skill reads proves it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/store.js';
import { call, register, skillMd } from '../helpers/app.js';
import { httpClient, listSkills, resourceText, startedRegistry, type Registry } from './fixtures.js';

const WHOLE_SKILL_READS = new Set(['getSkill', 'getSkillFile', 'getSkillBundle']);

/** The store, counting the calls that read a skill's whole version (SKILL.md content and files). */
function countingStore(store: Store, reads: Map<string, number>): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (typeof property === 'string' && WHOLE_SKILL_READS.has(property))
          reads.set(property, (reads.get(property) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('MCP listings for agent hosts', () => {
  const reads = new Map<string, number>();
  let registry: Registry;
  let client: Client;

  before(async () => {
    registry = await startedRegistry({ store: countingStore(openSqliteStore('sqlite::memory:'), reads) });
    const key = await register(registry.app, 'lister');
    // Ordinary-looking skills with a large frontmatter and a bundle: what made listings expensive.
    const metadata = `{ ${Array.from({ length: 150 }, (_, i) => `note-${i}: "${'x'.repeat(150)}"`).join(', ')} }`;
    const files = Array.from({ length: 8 }, (_, i) => ({
      path: `references/part-${i}.md`,
      content_base64: Buffer.from(`# Part ${i}\n`).toString('base64'),
    }));
    for (let i = 0; i < 12; i++) {
      const body = {
        skill_md_content: skillMd({ name: `listed-${i}`, description: `Listed skill ${i}.`, metadata }),
        visibility: 'public',
        files,
      };
      const res = await call(registry.app, 'POST', '/v1/skills', { key, body });
      assert.equal(res.statusCode, 201, res.body);
    }
    client = await httpClient(registry.url);
    reads.clear();
  });
  after(async () => {
    await client?.close();
    await registry.close();
  });

  it('read no skill whole: skills/list, resources/list and skill://index.json serve the kept frontmatter and file listing', async () => {
    const { skills } = await listSkills(client);
    assert.equal(skills.length, 12);
    for (const entry of skills) {
      assert.equal(Object.keys(entry.frontmatter.metadata as object).length, 150);
      assert.equal(entry.resources.length, 9, 'SKILL.md and its eight bundle files, with digests');
      assert.ok(entry.resources.every((r) => /^sha256:[0-9a-f]{64}$/.test(r.digest)));
    }
    const { resources } = await client.listResources();
    assert.equal(resources.filter((r) => r.uri.endsWith('/SKILL.md')).length, 12);
    const index = JSON.parse(resourceText(await client.readResource({ uri: 'skill://index.json' })));
    assert.equal(index.skills.length, 12);
    assert.deepEqual(Object.fromEntries(reads), {}, 'listings read skills whole');
  });

  it('reads one skill, not the list, to serve one of its files', async () => {
    const { contents } = await client.readResource({ uri: 'skill://lister/listed-3/references/part-3.md' });
    assert.equal(resourceText({ contents }), '# Part 3\n');
    assert.deepEqual(Object.fromEntries(reads), { getSkill: 1, getSkillFile: 1 });
  });
});
