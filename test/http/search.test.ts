// Search as the API documents it, through the search index: natural-language queries (stop words
// dropped, any remaining word matches), an exact name first, nothing for a query about nothing, writes
// and deletes seen by the next request (on any instance), a bounded total that says it is capped,
// paging that cuts one ranking, and the list filters applied to what the index finds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { MAX_SEARCH_RESULTS } from '../../src/search/registry-options.js';
import { backends } from '../helpers/backends.js';
import { unitRecord } from '../helpers/records.js';
import {
  call,
  contributeSkill,
  contributeUnit,
  fakeClock,
  register,
  testApp,
  testConfig,
  type TestApp,
} from '../helpers/app.js';

type Page = {
  data: { id: string; name?: string; title?: string; quality_score: number }[];
  total: number;
  capped?: boolean;
};

for (const backend of backends()) {
  describe(`search [${backend.name}]`, () => {
    let t: TestApp;
    let alice: string;
    let bob: string;
    const ids: Record<string, string> = {};
    before(async () => {
      t = await testApp(await backend.open());
      alice = await register(t.app, 'alice');
      bob = await register(t.app, 'bob');
      const skills: [string, string, string?][] = [
        ['pdf-tools', 'Extract text and tables from PDF files.'],
        ['kubernetes-deploy', 'Deploy services to a Kubernetes cluster with rolling updates.'],
        ['git-helper', 'Commit, branch and rebase.'],
        [
          'release-notes',
          'Write release notes from merged pull requests; works with git helper scripts and git history.',
        ],
        ['csv-cleaner', 'Clean and normalize CSV spreadsheets before import.'],
      ];
      for (const [name, description] of skills)
        ids[name] = (await contributeSkill(t.app, alice, { name, description })).id;
      ids['private-pdf'] = (
        await contributeSkill(
          t.app,
          bob,
          { name: 'private-pdf', description: 'Redact PDF files before sharing.' },
          'private',
        )
      ).id;
    });
    after(async () => t.close());

    const skills = async (query: string, key?: string) => {
      const res = await call(t.app, 'GET', `/v1/skills?${query}`, { key });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Page;
    };
    const names = (page: Page) => page.data.map((s) => s.name);

    it('reads a question as an agent writes it: stop words and asking words are dropped', async () => {
      const page = await skills(`q=${encodeURIComponent('How do I extract the text from a PDF?')}`);
      assert.equal(names(page)[0], 'pdf-tools');
      assert.equal(page.capped, false);
      assert.equal((await skills('q=the%20of%20and')).total, 0, 'a query of stop words only is about nothing');
      assert.equal((await skills(`q=${encodeURIComponent('I want help with')}`)).total, 0);
    });

    it('matches an item that shares any remaining word with the query, best coverage first', async () => {
      const page = await skills('q=pdf%20kubernetes');
      assert.deepEqual(new Set(names(page)), new Set(['pdf-tools', 'kubernetes-deploy']));
      const both = await skills(`q=${encodeURIComponent('deploy kubernetes cluster rolling updates csv')}`);
      assert.equal(names(both)[0], 'kubernetes-deploy');
      assert.ok(names(both).includes('csv-cleaner'));
    });

    it('puts an exact name first, above items that repeat its words', async () => {
      assert.equal(names(await skills('q=git-helper'))[0], 'git-helper');
      assert.equal(names(await skills('q=git%20helper'))[0], 'git-helper');
    });

    it('finds nothing for a query about nothing in the registry', async () => {
      const page = await skills(`q=${encodeURIComponent('quantum chromodynamics lattice zebra')}`);
      assert.deepEqual(page.data, []);
      assert.equal(page.total, 0);
    });

    it('keeps private skills to their publisher and admins, and applies every list filter', async () => {
      assert.ok(!names(await skills('q=pdf')).includes('private-pdf'));
      assert.ok(!names(await skills('q=pdf', alice)).includes('private-pdf'));
      assert.ok(names(await skills('q=pdf', bob)).includes('private-pdf'));
      assert.deepEqual(names(await skills('q=pdf&publisher=bob', bob)), ['private-pdf']);
      assert.deepEqual(names(await skills('q=pdf&name=pdf-tools')), ['pdf-tools']);
      assert.equal((await skills('q=pdf&min_quality=1')).total, 0);
      assert.equal((await skills('q=pdf&domain=nowhere')).total, 0);
    });

    it('sees a new skill, a new version and a deletion on the very next request', async () => {
      const made = await contributeSkill(t.app, alice, {
        name: 'zanzibar-maps',
        description: 'Draw maps of Zanzibar.',
      });
      assert.deepEqual(names(await skills('q=zanzibar')), ['zanzibar-maps']);
      const next = await call(t.app, 'POST', '/v1/skills', {
        key: alice,
        body: {
          skill_md_content:
            '---\nname: zanzibar-maps\ndescription: Draw nautical charts of the Tanzanian coast.\n---\nBody.\n',
          visibility: 'public',
        },
      });
      assert.equal(next.statusCode, 201, next.body);
      assert.deepEqual(names(await skills('q=nautical')), ['zanzibar-maps'], 'the new version is what is searched');
      assert.equal((await skills('q=zanzibar')).total, 1, 'its name still matches');
      assert.equal((await call(t.app, 'DELETE', `/v1/skills/${made.id}`, { key: alice })).statusCode, 200);
      assert.equal((await skills('q=nautical')).total, 0);
    });

    it('pages through one ranking: pages put together are the whole list', async () => {
      const all = await skills('q=pdf%20git%20kubernetes%20csv%20release&limit=100');
      const paged: string[] = [];
      for (let offset = 0; offset < all.total; offset += 2)
        paged.push(
          ...names(await skills(`q=pdf%20git%20kubernetes%20csv%20release&limit=2&offset=${offset}`)).map(String),
        );
      assert.deepEqual(paged, names(all));
    });

    it('reports the index as caught up in /readyz', async () => {
      const ready = (await call(t.app, 'GET', '/readyz')).json();
      const { vocabulary, memory, ...rest } = ready.search;
      assert.deepEqual(rest, { pending: 0, indexed: true, model: 'none' });
      assert.ok(
        memory.skills.items > 0 && memory.skills.postings > memory.skills.items && memory.skills.bytes_per_posting > 0,
        JSON.stringify(memory),
      );
      assert.ok(vocabulary.skills.terms > 0 && vocabulary.skills.full === false, JSON.stringify(vocabulary));
    });

    it(`caps the total of a search at ${MAX_SEARCH_RESULTS} and says so`, async () => {
      const now = Date.parse('2026-11-22T12:00:00.000Z');
      await register(t.app, 'bulk');
      for (let i = 0; i <= MAX_SEARCH_RESULTS; i++) {
        const at = new Date(now + i).toISOString();
        const unit = unitRecord('bulk', 'bulk', {
          id: `ku_bulk${String(i).padStart(5, '0')}`,
          title: `Bulk walrus note ${i}`,
          domain: 'testing',
          content: { description: 'Walrus facts in bulk.', examples: [] },
          metadata: { source: 'bulk', confidence: 0.5 },
          created_at: at,
          updated_at: at,
        });
        await t.store.contributeUnit(unit, 0.5, 0);
      }
      const first = (await call(t.app, 'GET', '/v1/knowledge?q=walrus&limit=100')).json();
      assert.equal(first.total, MAX_SEARCH_RESULTS);
      assert.equal(first.capped, true);
      const seen = new Set<string>();
      for (let offset = 0; offset < MAX_SEARCH_RESULTS; offset += 100) {
        const page = (await call(t.app, 'GET', `/v1/knowledge?q=walrus&limit=100&offset=${offset}`)).json();
        for (const unit of page.data) seen.add(unit.id);
      }
      assert.equal(seen.size, MAX_SEARCH_RESULTS, 'pages beyond the first ones neither repeat nor skip');
      const last = (
        await call(t.app, 'GET', `/v1/knowledge?q=walrus&limit=100&offset=${MAX_SEARCH_RESULTS - 50}`)
      ).json();
      assert.equal(last.data.length, 50);
      const beyond = (await call(t.app, 'GET', `/v1/knowledge?q=walrus&limit=100&offset=${MAX_SEARCH_RESULTS}`)).json();
      assert.deepEqual(beyond.data, [], 'paging stops at the bound');
      const browse = (await call(t.app, 'GET', '/v1/knowledge?domain=testing&limit=1')).json();
      assert.equal(browse.total, MAX_SEARCH_RESULTS + 1, 'a list without q counts everything');
      assert.equal(browse.capped, undefined);
    });
  });

  describe(`search across instances [${backend.name}]`, () => {
    it('sees a unit written through another instance, and its deletion, on the next request', async () => {
      const db = await backend.shared();
      const stores = [await db.start(), await db.start()];
      const apps = await Promise.all(
        stores.map((store) =>
          buildApp({
            config: testConfig(),
            store,
            clock: fakeClock(),
            awaitSearchIndex: true,
            limits: { maxEventLoopDelayMs: 0 },
          }),
        ),
      );
      try {
        const [one, two] = apps as [NonNullable<(typeof apps)[0]>, NonNullable<(typeof apps)[0]>];
        const key = await register(one, 'writer');
        const unit = await contributeUnit(one, key, { title: 'Ocelot habitat survey' });
        const seen = (await call(two, 'GET', '/v1/knowledge?q=ocelot')).json();
        assert.deepEqual(
          seen.data.map((u: { id: string }) => u.id),
          [unit.id],
        );
        assert.equal((await call(one, 'DELETE', `/v1/knowledge/${unit.id}`, { key })).statusCode, 200);
        assert.equal((await call(two, 'GET', '/v1/knowledge?q=ocelot')).json().total, 0);
      } finally {
        for (const app of apps) await app.close();
        for (const store of stores) await store.close();
        await db.drop();
      }
    });
  });
}
