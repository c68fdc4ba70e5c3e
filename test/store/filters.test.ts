// One declaration, three evaluations: a list's condition as the store's SQL, as the search index's filter
// over its columns, and as the domain's reference (`matches`) admit the same items, on random data and
// random conditions (visibility among them), on every backend.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { matches, type Condition, type FilterValues } from '../../src/domain/filters.js';
import { skillListCondition, unitListCondition } from '../../src/domain/lists.js';
import { noEmbeddings } from '../../src/search/embeddings/provider.js';
import { UNBOUNDED_TERMS } from '../../src/search/lexical.js';
import { KindIndex } from '../../src/search/registry-index.js';
import type { SearchItem } from '../../src/search/feed.js';
import { backends } from '../helpers/backends.js';
import { call, contributeSkill, contributeUnit, register, testApp, type TestApp } from '../helpers/app.js';
import { conditions } from '../helpers/conditions.js';

const DOMAINS = ['data', 'ops', 'web'];
const TAGS = ['pdf', 'csv', 'Http', 'cli'];
const TYPES = ['pattern', 'fact', 'pitfall'];
const AGENTS = ['ann', 'ben', 'cat'];

/** A deterministic generator for the data (the conditions are fast-check's). */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const valuesOf = (item: SearchItem): FilterValues => ({
  domain: item.domain,
  tags: (item.tags ?? []).map((t) => t.toLowerCase()),
  quality: item.qualityScore,
  type: item.type ?? null,
  visibility: item.visibility ?? null,
  publisher: item.agentId,
  name: item.name.split(' ')[0]!,
  listed: item.listed ?? null,
  conformant: item.conformant ?? null,
  held: item.held,
});

for (const backend of backends()) {
  describe(`a list's condition: SQL, the index and the reference agree [${backend.name}]`, () => {
    let t: TestApp;
    const items: Record<'skill' | 'unit', SearchItem[]> = { skill: [], unit: [] };
    const indexes = {
      skill: new KindIndex('skill', noEmbeddings, { limits: UNBOUNDED_TERMS, memoryFull: () => false }),
      unit: new KindIndex('unit', noEmbeddings, { limits: UNBOUNDED_TERMS, memoryFull: () => false }),
    };

    before(async () => {
      t = await testApp(await backend.open());
      const keys = Object.fromEntries(await Promise.all(AGENTS.map(async (a) => [a, await register(t.app, a)])));
      const random = rng(7);
      const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
      const some = <T>(list: readonly T[]) => list.filter(() => random() < 0.4);
      for (let i = 0; i < 40; i++) {
        const agent = pick(AGENTS);
        const tags = some(TAGS);
        const fields: Record<string, string> = {
          name: random() < 0.15 ? `Tool_${i}` : `tool-${i}`,
          description: `Tool number ${i} for ${pick(DOMAINS)} work, with ${'detail '.repeat(Math.floor(random() * 30))}`,
          ...(random() < 0.8 ? { domain: pick(DOMAINS) } : {}),
          ...(tags.length > 0 ? { tags: `[${tags.join(', ')}]` } : {}),
        };
        const skill = await contributeSkill(t.app, keys[agent]!, fields, random() < 0.3 ? 'private' : 'public');
        if (random() < 0.15) {
          const version = (await call(t.app, 'GET', `/v1/skills/${skill.id}`, { key: keys[agent]! })).json().data
            .version;
          await call(t.app, 'POST', `/v1/skills/${skill.id}/versions/${version}/yank`, { key: keys[agent]! });
        }
      }
      for (let i = 0; i < 40; i++) {
        const tags = some(TAGS);
        await contributeUnit(t.app, keys[pick(AGENTS)]!, {
          title: `Unit ${i}`,
          type: pick(TYPES),
          domain: pick(DOMAINS),
          tags,
          metadata: { source: 'a test', confidence: Math.round(random() * 10) / 10 },
          content: {
            description: `About ${'things '.repeat(1 + Math.floor(random() * 40))}`,
            examples: some(['a', 'b']),
          },
        });
      }
      for (const kind of ['skill', 'unit'] as const) {
        items[kind] = await t.store.searchItems(kind, 0, 10_000);
        for (const item of items[kind]) indexes[kind].put(item);
      }
    });
    after(() => t.close());

    const qualities = () => [
      ...new Set([0, 0.5, 1, ...items.skill.map((i) => i.qualityScore), ...items.unit.map((i) => i.qualityScore)]),
    ];

    async function agree(kind: 'skill' | 'unit', condition: Condition): Promise<void> {
      const list = kind === 'skill' ? t.store.listSkills.bind(t.store) : t.store.listUnits.bind(t.store);
      const page = await list({ condition, limit: 100, offset: 0 });
      const bySql = new Set(page.items.map((s) => s.id));
      assert.equal(page.total, bySql.size, 'the total counts what the page holds');
      const admit = indexes[kind].admit(condition);
      const byIndex = new Set(items[kind].filter((item) => admit(item.seq)).map((item) => item.id));
      const byReference = new Set(items[kind].filter((item) => matches(condition, valuesOf(item))).map((i) => i.id));
      const what = JSON.stringify(condition);
      assert.deepEqual([...bySql].sort(), [...byReference].sort(), `SQL, ${what}`);
      assert.deepEqual([...byIndex].sort(), [...byReference].sort(), `index, ${what}`);
    }

    it('skills, any condition over their attributes', async () => {
      await fc.assert(
        fc.asyncProperty(
          conditions({
            domain: DOMAINS,
            visibility: ['public', 'private'],
            publisher: AGENTS,
            name: ['tool-1', 'tool-2', 'tool_3'],
            tags: TAGS.map((t) => t.toLowerCase()),
            quality: qualities(),
          }),
          (condition) => agree('skill', condition),
        ),
        { numRuns: backend.name === 'sqlite' ? 150 : 60 },
      );
    });

    it('units, any condition over their attributes', async () => {
      await fc.assert(
        fc.asyncProperty(
          conditions({
            domain: DOMAINS,
            type: TYPES,
            tags: TAGS.map((t) => t.toLowerCase()),
            quality: qualities(),
            flags: false,
          }),
          (condition) => agree('unit', condition),
        ),
        { numRuns: backend.name === 'sqlite' ? 150 : 60 },
      );
    });

    it('the lists’ own conditions, from their parameters and every kind of viewer', async () => {
      for (const viewer of [
        { agentId: null, everything: false },
        { agentId: 'ann', everything: false },
        { agentId: 'root', everything: true },
      ])
        for (const params of [{}, { domain: 'data' }, { tags: 'PDF,csv' }, { min_quality: 0.5, conformant: true }])
          await agree('skill', skillListCondition(viewer, params));
      for (const viewer of [
        { agentId: null, everything: false },
        { agentId: 'ann', everything: false },
        { agentId: 'root', everything: true },
      ])
        for (const params of [{}, { types: 'fact,pattern' }, { tags: 'http' }, { domain: 'ops', min_quality: 0.4 }])
          await agree('unit', unitListCondition(viewer, params));
    });
  });
}
