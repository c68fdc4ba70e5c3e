import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import { call, contributeUnit, errorCode, register, testApp, type TestApp } from '../helpers/app.js';

type Unit = { id: string; title: string; quality_score: number; created_at: string; type: string; domain: string };

for (const backend of backends()) {
  describe(`knowledge search and lists [${backend.name}]`, () => {
    let t: TestApp;
    let key: string;
    before(async () => {
      t = await testApp(await backend.open());
      key = await register(t.app, 'writer');
      const confidences = [0.1, 0.9, 0.5, 0.5, 0.3, 0.7, 0.5, 0.2];
      for (const [i, confidence] of confidences.entries()) {
        await contributeUnit(t.app, key, {
          title: i % 2 === 0 ? `Caching strategy number ${i}` : `Database indexing note ${i}`,
          type: i % 3 === 0 ? 'fact' : 'pattern',
          domain: i % 2 === 0 ? 'web-development' : 'databases',
          metadata: { source: 'notes', confidence },
        });
      }
      await contributeUnit(t.app, key, {
        title: 'Postgres vacuum tuning',
        domain: 'databases',
        content: {
          description: 'Tune autovacuum thresholds for write-heavy tables; caching is unrelated.',
          examples: [],
        },
      });
    });
    after(async () => t.close());

    const list = async (query: string) => {
      const res = await call(t.app, 'GET', `/v1/knowledge${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { data: Unit[]; total: number; offset: number; limit: number };
    };

    it('lists by quality, then newest, then id, with an exact total', async () => {
      const page = await list('');
      assert.equal(page.total, 9);
      assert.equal(page.offset, 0);
      assert.equal(page.limit, 20);
      const sorted = [...page.data].sort(
        (a, b) =>
          b.quality_score - a.quality_score || b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id),
      );
      assert.deepEqual(
        page.data.map((u) => u.id),
        sorted.map((u) => u.id),
      );
    });

    it('pages without repeating or skipping an item', async () => {
      const all = (await list('?limit=100')).data.map((u) => u.id);
      const paged: string[] = [];
      for (let offset = 0; offset < all.length; offset += 2) {
        const page = await list(`?limit=2&offset=${offset}`);
        assert.equal(page.total, all.length);
        paged.push(...page.data.map((u) => u.id));
      }
      assert.deepEqual(paged, all);
      const beyond = await list('?offset=50');
      assert.deepEqual(beyond.data, []);
      assert.equal(beyond.total, 9);
    });

    it('filters by type (any of), domain and minimum quality', async () => {
      const facts = await list('?types=fact');
      assert.equal(facts.total, 3);
      assert.deepEqual(
        facts.data.map((u) => u.type),
        ['fact', 'fact', 'fact'],
      );
      const both = await list('?types=fact,pattern');
      assert.equal(both.total, 9);
      const dbs = await list('?domain=databases');
      assert.equal(dbs.total, 5);
      assert.deepEqual(
        dbs.data.map((u) => u.domain),
        Array(5).fill('databases'),
      );
      const threshold = (await list('?limit=100')).data[3]!.quality_score;
      const good = await list(`?min_quality=${threshold}`);
      assert.ok(good.total >= 4 && good.total < 9);
      assert.equal(good.data.length, good.total);
      assert.ok(good.data.every((u) => u.quality_score >= threshold));
      const combined = await list(`?types=pattern&domain=databases&min_quality=0`);
      assert.ok(combined.total > 0 && combined.data.length === combined.total, JSON.stringify(combined));
      assert.ok(combined.data.every((u) => u.type === 'pattern' && u.domain === 'databases'));
    });

    it('searches words in title, description and domain, ranked by relevance', async () => {
      const caching = await list('?q=caching');
      assert.equal(caching.total, 5);
      assert.equal(
        caching.data.at(-1)!.title,
        'Postgres vacuum tuning',
        'a description match ranks below title matches',
      );
      const stemmed = await list('?q=indexes');
      assert.equal(stemmed.total, 4, 'indexes matches indexing (stemming)');
      const both = await list('?q=postgres%20vacuum');
      assert.equal(both.total, 1);
      const filtered = await list('?q=caching&domain=databases');
      assert.equal(filtered.total, 1);
      const domainWord = await list('?q=development');
      assert.equal(domainWord.total, 4);
    });

    it('searches free text as plain words, whatever operators it contains', async () => {
      for (const q of [
        '"',
        '""',
        '*',
        'caching*',
        'OR',
        'caching OR nothing',
        'NEAR(caching',
        'NEAR(a b)',
        '-caching',
        'caching AND',
        'title:caching',
        '^caching',
        '(',
        ')',
        "'",
        ':',
        '{',
        'caching"strategy',
        '\\',
        'é',
      ]) {
        const res = await call(t.app, 'GET', `/v1/knowledge?q=${encodeURIComponent(q)}`);
        assert.equal(res.statusCode, 200, `${q}: ${res.body}`);
        assert.equal(typeof res.json().total, 'number');
      }
      assert.equal(
        (await list(`?q=${encodeURIComponent('caching OR zzyzx')}`)).total,
        5,
        'OR is a stop word, not an operator',
      );
      assert.equal((await list(`?q=${encodeURIComponent('caching NOT zzyzx')}`)).total, 5, 'NOT too');
      assert.equal((await list(`?q=${encodeURIComponent('"caching"')}`)).total, 5);
      assert.equal((await list(`?q=${encodeURIComponent('***')}`)).total, 0, 'no word at all matches nothing');
      assert.equal((await list('?q=')).total, 9, 'a blank q is no filter');
    });

    it('validates every query parameter', async () => {
      const bad = [
        'limit=0',
        'limit=101',
        'limit=abc',
        'limit=1.5',
        'limit=1&limit=2',
        'offset=-1',
        'offset=x',
        'min_quality=1.1',
        'min_quality=-0.1',
        'min_quality=high',
        'types=opinion',
        'types=fact,opinion',
        'unknown=1',
        `q=${'x'.repeat(501)}`,
        'domain=',
        `q=${encodeURIComponent('a\u0000b')}`,
      ];
      for (const query of bad) {
        const res = await call(t.app, 'GET', `/v1/knowledge?${query}`);
        assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
        assert.equal(errorCode(res), 'VALIDATION_ERROR');
      }
      const named = await call(t.app, 'GET', '/v1/knowledge?limit=500');
      assert.match(named.json().error.message, /limit/);
      const unknown = await call(t.app, 'GET', '/v1/knowledge?colour=red');
      assert.match(unknown.json().error.message, /colour is not a known field/);
    });
  });
}
