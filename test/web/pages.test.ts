// The web pages without a browser: statuses, headers, escaping, visibility and the same ranking as the
// API, on every backend.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import {
  call,
  contributeUnit,
  errorCode,
  register,
  testApp,
  testConfig,
  type Res,
  type TestApp,
} from '../helpers/app.js';
import { PAGE_CSP } from '../../src/web/headers.js';
import { seed, type Seeded } from './seed.js';

const html = { accept: 'text/html,application/xhtml+xml' };

/** The hrefs of the result links on a results page, in order. */
function resultIds(res: Res, kind: 'skills' | 'knowledge'): string[] {
  const list = res.body.slice(res.body.indexOf('<ol class="items"'), res.body.indexOf('</ol>'));
  return [...list.matchAll(new RegExp(`<h3><a href="/${kind}/([^"?]+)"`, 'g'))].map((m) => decodeURIComponent(m[1]!));
}

function assertPageHeaders(res: Res): void {
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(res.headers['content-security-policy'], PAGE_CSP);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['x-frame-options'], 'DENY');
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
}

for (const backend of backends())
  describe(`the web pages [${backend.name}]`, () => {
    let t: TestApp;
    let s: Seeded;
    before(async () => {
      t = await testApp(await backend.open());
      s = await seed(t.app);
    });
    after(async () => t.close());

    it('serves a home page with counts, shelves and a search form, under a strict CSP', async () => {
      const res = await call(t.app, 'GET', '/');
      assert.equal(res.statusCode, 200);
      assertPageHeaders(res);
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.match(res.body, /^<!doctype html>\n<html lang="en">/);
      assert.match(res.body, /<title>Skills and knowledge for AI agents · Knowledge Registry<\/title>/);
      assert.match(
        res.body,
        /<form role="search" action="\/search" method="get">[\s\S]*?<input type="search" id="home-q" name="q"/,
      );
      // Three public skills (the private one is not counted for a visitor), three units.
      assert.match(res.body, /<strong>3<\/strong> <a href="\/search">skills<\/a>/);
      assert.match(res.body, /<strong>3<\/strong> <a href="\/search\?kind=knowledge">knowledge units<\/a>/);
      for (const shelf of [
        'Newest skills',
        'Best-rated skills',
        'Newest knowledge units',
        'Best-rated knowledge units',
      ])
        assert.ok(res.body.includes(shelf), shelf);
      // Newest first: bob's hostile skill was published last, the unit likewise.
      const newest = res.body.slice(res.body.indexOf('id="newest-skills"'), res.body.indexOf('id="best-skills"'));
      assert.ok(newest.indexOf(`/skills/${s.hostileSkill}`) < newest.indexOf(`/skills/${s.pdfSkill}`));
      assert.ok(!res.body.includes(s.privateSkill));
    });

    it('shows the owner its private skill, counted, when the request carries its key', async () => {
      const res = await call(t.app, 'GET', '/', { key: s.aliceKey });
      assert.match(res.body, /<strong>4<\/strong> <a href="\/search">skills<\/a>/);
      assert.ok(res.body.includes(`/skills/${s.privateSkill}`));
      assert.equal(res.headers.vary, 'authorization');
    });

    it('serves the stylesheet and the script fingerprinted, immutable, outside the rate limits', async () => {
      const limited = await testApp(await backend.open(), {
        config: testConfig({ rateLimits: { anonymous: 2, free: 2, pro: 2, enterprise: 2 } }),
      });
      try {
        const page = await call(limited.app, 'GET', '/');
        const style = /<link rel="stylesheet" href="(\/assets\/style\.[0-9a-f]{16}\.css)">/.exec(page.body)?.[1];
        const script = /<script type="module" src="(\/assets\/copy\.[0-9a-f]{16}\.js)"><\/script>/.exec(page.body)?.[1];
        assert.ok(style && script, 'both are linked by fingerprinted URLs');
        for (let i = 0; i < 5; i++) {
          const css = await call(limited.app, 'GET', style);
          assert.equal(css.statusCode, 200);
          assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
          assert.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable');
          assert.equal(css.headers['x-ratelimit-limit'], undefined, 'not counted against the caller');
          assert.equal(css.headers['x-content-type-options'], 'nosniff');
        }
        const js = await call(limited.app, 'GET', script);
        assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
        const etag = js.headers.etag as string;
        assert.equal((await call(limited.app, 'GET', script, { headers: { 'if-none-match': etag } })).statusCode, 304);
        const stale = await call(limited.app, 'GET', '/assets/style.0000000000000000.css');
        assert.equal(stale.statusCode, 404);
        // Pages are counted like any API request: the page above and one more use the budget of 2.
        assert.equal((await call(limited.app, 'GET', '/search')).statusCode, 200);
        const refused = await call(limited.app, 'GET', '/search');
        assert.equal(refused.statusCode, 429);
        assertPageHeaders(refused);
        assert.ok(Number(refused.headers['retry-after']) > 0);
        assert.match(refused.body, /Too many requests/);
        // The API shares the same per-caller budget.
        assert.equal(errorCode(await call(limited.app, 'GET', '/v1/skills')), 'RATE_LIMITED');
      } finally {
        await limited.close();
      }
    });

    it('ranks results exactly as the API does, for skills and for units with filters', async () => {
      for (const q of ['pdf csv tables', 'csv', 'how do I clean files']) {
        const page = await call(t.app, 'GET', `/search?q=${encodeURIComponent(q)}`);
        assert.equal(page.statusCode, 200);
        assertPageHeaders(page);
        const api = (await call(t.app, 'GET', `/v1/skills?q=${encodeURIComponent(q)}&limit=20`)).json();
        assert.deepEqual(
          resultIds(page, 'skills'),
          api.data.map((x: { id: string }) => x.id),
          q,
        );
      }
      const filtered = await call(
        t.app,
        'GET',
        '/search?kind=knowledge&q=retry+versions&types=pattern&types=pitfall&domain=&min_quality=0.1',
      );
      const api = (
        await call(t.app, 'GET', '/v1/knowledge?q=retry+versions&types=pattern,pitfall&min_quality=0.1')
      ).json();
      assert.deepEqual(
        resultIds(filtered, 'knowledge'),
        api.data.map((x: { id: string }) => x.id),
      );
      assert.match(filtered.body, /<input type="checkbox" name="types" value="pitfall" checked>/);
      const tagged = await call(t.app, 'GET', '/search?tags=pdf&domain=documents');
      assert.deepEqual(resultIds(tagged, 'skills'), [s.pdfSkill]);
    });

    it('pages through results, 20 at a time, keeping the filters in the links', async () => {
      const key = await register(t.app, 'pager');
      for (let i = 0; i < 23; i++) await contributeUnit(t.app, key, { title: `Paging unit ${i}`, domain: 'paging' });
      const first = await call(t.app, 'GET', '/search?kind=knowledge&domain=paging');
      assert.equal(resultIds(first, 'knowledge').length, 20);
      assert.match(first.body, /23 results: 1 to 20 shown/);
      assert.match(first.body, /<a href="\/search\?kind=knowledge&amp;domain=paging&amp;page=2" rel="next">/);
      const second = await call(t.app, 'GET', '/search?kind=knowledge&domain=paging&page=2');
      assert.equal(resultIds(second, 'knowledge').length, 3);
      assert.match(second.body, /<ol class="items" start="21">/);
      assert.match(second.body, /rel="prev"/);
      assert.doesNotMatch(second.body, /rel="next"/);
    });

    it('never shows a private skill to a visitor: no page, no result, no agent entry', async () => {
      const unknown = await call(t.app, 'GET', '/skills/sk_doesnotexist');
      const hidden = await call(t.app, 'GET', `/skills/${s.privateSkill}`);
      assert.equal(hidden.statusCode, 404);
      assertPageHeaders(hidden);
      assert.equal(hidden.body, unknown.body, 'the same page as an id that never existed');
      assert.equal((await call(t.app, 'GET', `/skills/${s.privateSkill}`, { key: s.bobKey })).statusCode, 404);
      const owner = await call(t.app, 'GET', `/skills/${s.privateSkill}`, { key: s.aliceKey });
      assert.equal(owner.statusCode, 200);
      assert.match(owner.body, /<span class="badge warn">private<\/span>/);
      const results = await call(t.app, 'GET', `/search?q=${s.privateWord}`);
      assert.equal(resultIds(results, 'skills').length, 0);
      assert.match(results.body, /No results/);
      assert.equal(
        resultIds(await call(t.app, 'GET', `/search?q=${s.privateWord}`, { key: s.aliceKey }), 'skills').length,
        1,
      );
      const agent = await call(t.app, 'GET', '/agents/alice');
      assert.ok(!agent.body.includes(s.privateSkill), 'neither listed nor in the history');
      assert.match(agent.body, /Skills \(1\)/);
    });

    it('shows a skill: names, publisher, versions with the yanked one marked, body, files, warnings, install lines', async () => {
      const res = await call(t.app, 'GET', `/skills/${s.pdfSkill}`);
      assert.equal(res.statusCode, 200);
      assertPageHeaders(res);
      assert.match(res.body, /<title>pdf-tables · Knowledge Registry<\/title>/);
      assert.match(res.body, /<h1>pdf-tables<\/h1>/);
      assert.match(res.body, /by <a href="\/agents\/alice">alice<\/a>/);
      assert.match(res.body, /version 1\.0\.1/);
      assert.match(
        res.body,
        /<a href="\/skills\/[^"]+\?version=1\.1\.0">1\.1\.0<\/a> <span class="badge bad">yanked<\/span>/,
      );
      assert.match(res.body, /<h2>Usage<\/h2>/, 'the body as HTML, its headings under the page title');
      assert.match(res.body, /<td>page<\/td>/);
      const file = `/v1/skills/${s.pdfSkill}/versions/1.0.1/files/scripts/extract.py`;
      assert.ok(res.body.includes(`<a href="${file}">scripts/extract.py</a>`));
      assert.ok(
        res.body.includes(`<a href="${file}" rel="nofollow noopener ugc">the script</a>`),
        'relative links lead to the bundle file',
      );
      assert.match(res.body, /sha256:[0-9a-f]{64}/);
      assert.equal((await call(t.app, 'GET', file)).statusCode, 200, 'the file link works');
      assert.ok(res.body.includes(`kreg --url http://localhost:80 install ${s.pdfSkill}`));
      assert.ok(res.body.includes('skill://alice/pdf-tables/SKILL.md'));
      assert.match(res.body, /&quot;url&quot;: &quot;http:\/\/localhost:80\/mcp&quot;/);

      const yanked = await call(t.app, 'GET', `/skills/${s.pdfSkill}?version=1.1.0`);
      assert.equal(yanked.statusCode, 200);
      assert.match(yanked.body, /Version 1\.1\.0 was yanked by its publisher/);
      assert.equal((await call(t.app, 'GET', `/skills/${s.pdfSkill}?version=9.9.9`)).statusCode, 404);

      const hostile = await call(t.app, 'GET', `/skills/${s.hostileSkill}`);
      assert.match(hostile.body, /Given name: Hostile &lt;svg onload=alert\(30\)&gt; Markup/);
      assert.match(hostile.body, /<span class="badge warn">non-conformant<\/span>/);
      assert.match(
        hostile.body,
        /unknown frontmatter field &quot;x-unknown-&lt;script&gt;alert\(32\)&lt;\/script&gt;&quot;/,
      );
    });

    it('shows a unit: type, domain, tags, description, examples as code, source, confidence, verdicts, contributor', async () => {
      const res = await call(t.app, 'GET', `/knowledge/${s.retryUnit}`);
      assert.equal(res.statusCode, 200);
      assertPageHeaders(res);
      assert.match(res.body, /<h1>Retry idempotent requests with exponential backoff<\/h1>/);
      assert.match(
        res.body,
        /<dt>Type<\/dt><dd><a href="\/search\?kind=knowledge&amp;types=pattern">Pattern<\/a><\/dd>/,
      );
      assert.match(
        res.body,
        /<pre aria-label="Example 1"><code>await retry\(fetchUser, \{ attempts: 5, base: 100 \}\)<\/code><\/pre>/,
      );
      assert.match(
        res.body,
        /<a href="https:\/\/example.org\/backoff" rel="nofollow noopener ugc">https:\/\/example.org\/backoff<\/a>/,
      );
      assert.match(res.body, /<dt>Confidence<\/dt><dd>0\.80/);
      assert.match(res.body, /<dt>Verdicts<\/dt><dd>1 valid, 0 invalid<\/dd>/);
      assert.match(res.body, /<dt>Contributor<\/dt><dd><a href="\/agents\/alice">alice<\/a><\/dd>/);
      assert.match(res.body, /<a class="tag" href="\/search\?kind=knowledge&amp;tags=resilience">resilience<\/a>/);
    });

    it('shows an agent: reputation, counts, skills, units and recent history', async () => {
      const res = await call(t.app, 'GET', '/agents/alice');
      assert.equal(res.statusCode, 200);
      assertPageHeaders(res);
      assert.match(res.body, /<h1>alice<\/h1>/);
      const profile = (await call(t.app, 'GET', '/v1/reputation/alice')).json().data;
      assert.ok(res.body.includes(`<strong>${profile.score}</strong> reputation`));
      assert.ok(res.body.includes(`<strong>${profile.contributions}</strong> contributions`));
      assert.ok(res.body.includes(`/skills/${s.pdfSkill}`));
      assert.ok(res.body.includes(`/knowledge/${s.retryUnit}`));
      assert.match(res.body, /contributed a knowledge unit/);
      assert.match(res.body, /published a skill/);
      const bob = await call(t.app, 'GET', '/agents/bob');
      assert.match(bob.body, /validated a knowledge unit/);
    });

    it("writes strangers' text as text: no markup of theirs reaches a page", async () => {
      for (const path of [
        `/skills/${s.hostileSkill}`,
        `/knowledge/${s.hostileUnit}`,
        '/',
        '/search?kind=knowledge',
        '/search?q=hostile',
        '/agents/bob',
      ]) {
        const res = await call(t.app, 'GET', path);
        assert.equal(res.statusCode, 200, path);
        const tags = [
          ...res.body.matchAll(/<(script|iframe|img|svg|object|embed|meta|base|style|details|math|form)\b[^>]*>/gi),
        ].map((m) => m[0]);
        const own = tags.filter(
          (tag) =>
            !/^<script type="module" src="\/assets\/copy\.[0-9a-f]{16}\.js">$|^<meta charset="utf-8">$|^<meta name="viewport"|^<form role="search" action="\/search" method="get">$/.test(
              tag,
            ),
        );
        assert.deepEqual(own, [], `${path}: only the page's own tags`);
        // Real tags only: their text, escaped, may say anything.
        assert.doesNotMatch(res.body, /<[a-z][^>]*\son[a-z]+\s*=[^>]*>/i, `${path}: no event handler attribute`);
        assert.doesNotMatch(
          res.body,
          /<[a-z][^>]*\s(href|src|action|data)="\s*(javascript|data|vbscript):[^>]*>/i,
          `${path}: no script URL`,
        );
        assert.doesNotMatch(res.body, /<[a-z][^>]*\ssrcdoc=[^>]*>/i, path);
        for (const m of res.body.matchAll(/<a [^>]*href="(https?:)?\/\/[^"]*"[^>]*>/g)) {
          assert.match(m[0], /rel="nofollow noopener ugc"/, `${path}: links out carry rel: ${m[0]}`);
        }
      }
      const unit = await call(t.app, 'GET', `/knowledge/${s.hostileUnit}`);
      assert.match(
        unit.body,
        /<h1>&lt;script&gt;alert\(40\)&lt;\/script&gt;&lt;img src=x onerror=alert\(41\)&gt; hostile unit<\/h1>/,
      );
      assert.match(
        unit.body,
        /<dt>Source<\/dt><dd>javascript:alert\(45\)<\/dd>/,
        'a source that is no http(s) URL is text',
      );
      assert.match(unit.body, /<title>&lt;script&gt;alert\(40\)/);
    });

    it('answers unknown ids, agents and pages with an HTML 404, and the API with its JSON envelope', async () => {
      for (const path of [
        '/skills/sk_nope',
        '/knowledge/ku_nope',
        '/agents/nobody',
        `/skills/${'x'.repeat(500)}`,
        '/skills',
        '/skills/a/b',
      ]) {
        const res = await call(t.app, 'GET', path, { headers: html });
        assert.equal(res.statusCode, 404, path);
        assertPageHeaders(res);
        assert.match(res.body, /<h1>Not found<\/h1>/, path);
      }
      assert.equal(errorCode(await call(t.app, 'GET', '/v1/nothing', { headers: html })), 'NOT_FOUND');
      assert.equal(
        errorCode(await call(t.app, 'GET', '/nothing')),
        'NOT_FOUND',
        'a client that does not ask for HTML gets JSON',
      );
      const wrongMethod = await call(t.app, 'POST', '/search', { headers: html });
      assert.equal(errorCode(wrongMethod), 'METHOD_NOT_ALLOWED');
    });

    it('answers parameters it cannot read with an HTML 400 naming them', async () => {
      const cases: [string, RegExp][] = [
        ['/search?min_quality=2', /min_quality must be a number from 0 to 1/],
        ['/search?min_quality=abc', /min_quality must be a number from 0 to 1/],
        ['/search?kind=knowledge&types=pattern,bogus', /unknown values \(bogus\)/],
        ['/search?kind=agents', /kind/],
        ['/search?page=0', /page/],
      ];
      for (const [path, message] of cases) {
        const res = await call(t.app, 'GET', path);
        assert.equal(res.statusCode, 400, path);
        assertPageHeaders(res);
        assert.match(res.body, message, path);
      }
    });

    it('is hidden from the OpenAPI document and listed as public reads in the route table', async () => {
      const doc = (await call(t.app, 'GET', '/v1/openapi.json')).json();
      for (const path of ['/', '/search', '/skills/{id}', '/knowledge/{id}', '/agents/{agent_id}', '/assets/{file}'])
        assert.equal(doc.paths[path], undefined, path);
      const pages = t.app.routeCatalogue.routes.filter((r) =>
        ['/', '/search', '/skills/:id', '/knowledge/:id', '/agents/:agent_id', '/assets/:file'].includes(r.url),
      );
      assert.deepEqual(pages.map((r) => `${r.method} ${r.url} ${r.access}`).sort(), [
        'GET / public',
        'GET /agents/:agent_id public',
        'GET /assets/:file public',
        'GET /knowledge/:id public',
        'GET /search public',
        'GET /skills/:id public',
      ]);
    });
  });
