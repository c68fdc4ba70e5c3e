// HTTP conventions: large JSON answers compressed (exact bytes and streams unharmed), CORS off unless
// configured, ETag and If-None-Match (304) on reads, and how caches may keep a skill's bytes.
import assert from 'node:assert/strict';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, contributeSkill, contributeUnit, register, testApp, testConfig, type TestApp } from '../helpers/app.js';

const gzip = { 'accept-encoding': 'gzip' };

describe('HTTP conventions', () => {
  let t: TestApp;
  let key: string;
  let publicSkill: string;
  let privateSkill: string;
  let unit: string;
  before(async () => {
    t = await testApp(openSqliteStore('sqlite::memory:'));
    key = await register(t.app, 'conventions');
    publicSkill = (
      await contributeSkill(
        t.app,
        key,
        { name: 'open-tool' },
        'public',
        `# Usage\n\n${'Long enough to compress. '.repeat(80)}\n`,
      )
    ).id;
    privateSkill = (await contributeSkill(t.app, key, { name: 'closed-tool' }, 'private')).id;
    unit = (await contributeUnit(t.app, key)).id;
    for (let i = 0; i < 12; i++)
      await contributeUnit(t.app, key, { title: `Unit number ${i} about retries and backoff` });
  });
  after(async () => t.close());

  it('compresses a large JSON answer for a client that accepts it, and not a small one', async () => {
    const large = await t.app.inject({ method: 'GET', url: '/v1/knowledge?limit=50', headers: gzip });
    assert.equal(large.statusCode, 200);
    assert.equal(large.headers['content-encoding'], 'gzip');
    assert.match(String(large.headers.vary), /accept-encoding/i);
    assert.equal(JSON.parse(gunzipSync(large.rawPayload).toString('utf8')).data.length, 13);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/v1/knowledge?limit=50' })).headers['content-encoding'],
      undefined,
      'identity when not asked',
    );
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/healthz', headers: gzip })).headers['content-encoding'],
      undefined,
      'small answers as they are',
    );
  });

  it('never inflates a request body: a compressed one is refused and changes nothing', async () => {
    const body = gzipSync(JSON.stringify({ agent_id: 'inflated', scopes: ['read'], tier: 'free' }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/register',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: body,
    });
    assert.equal(res.statusCode, 400);
    assert.equal((await call(t.app, 'GET', '/v1/reputation/inflated')).statusCode, 404);
  });

  it('streams the export compressed, whole', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/export/conventions',
      headers: { ...gzip, authorization: `Bearer ${key}` },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(JSON.parse(gunzipSync(res.rawPayload).toString('utf8')).data.knowledge_units.length, 13);
  });

  it("serves a skill's files and archives as their exact bytes, never re-encoded", async () => {
    for (const url of [
      `/v1/skills/${publicSkill}/files/SKILL.md`,
      `/v1/skills/${publicSkill}/versions/1.0.0/files/SKILL.md`,
      `/v1/skills/${publicSkill}/versions/1.0.0/archive.zip`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: gzip });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['content-encoding'], undefined, url);
    }
  });

  it('tags reads of skills, units and files, and answers 304 without a body when the tag matches', async () => {
    for (const url of [
      `/v1/skills/${publicSkill}`,
      `/v1/skills/${publicSkill}/versions/1.0.0`,
      `/v1/knowledge/${unit}`,
      `/v1/skills/${publicSkill}/versions/1.0.0/files/SKILL.md`,
      `/v1/skills/${publicSkill}/versions/1.0.0/archive.zip`,
    ]) {
      const first = await call(t.app, 'GET', url);
      const etag = first.headers.etag as string;
      assert.ok(etag, url);
      const again = await call(t.app, 'GET', url, { headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.body, '', url);
      assert.equal(again.headers.etag, etag, url);
      const listed = await call(t.app, 'GET', url, { headers: { 'if-none-match': `"other", ${etag}` } });
      assert.equal(listed.statusCode, 304, `${url}: one of several tags`);
      assert.equal(
        (await call(t.app, 'GET', url, { headers: { 'if-none-match': '"stale"' } })).statusCode,
        200,
        `${url}: another tag`,
      );
    }
  });

  it('changes the tag when the content changes', async () => {
    const before = (await call(t.app, 'GET', `/v1/skills/${publicSkill}`)).headers.etag;
    await contributeSkill(t.app, key, { name: 'open-tool' }, 'public', '# Usage\n\nA second version.\n');
    const after = await call(t.app, 'GET', `/v1/skills/${publicSkill}`, {
      headers: { 'if-none-match': String(before) },
    });
    assert.equal(after.statusCode, 200);
    assert.notEqual(after.headers.etag, before);
  });

  it('lets shared caches keep public version files and archives for minutes, revalidated, and keeps private ones out of them', async () => {
    const minutes = 'public, max-age=300, must-revalidate';
    for (const url of [
      `/v1/skills/${publicSkill}/versions/1.0.0/files/SKILL.md`,
      `/v1/skills/${publicSkill}/versions/1.0.0/archive.zip`,
    ]) {
      const res = await call(t.app, 'GET', url);
      assert.equal(res.headers['cache-control'], minutes, url);
      const again = await call(t.app, 'GET', url, { headers: { 'if-none-match': String(res.headers.etag) } });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.headers['cache-control'], minutes, `${url}: a revalidation renews the same lifetime`);
    }
    assert.equal(
      (await call(t.app, 'GET', `/v1/skills/${publicSkill}/files/SKILL.md`)).headers['cache-control'],
      'no-cache',
      'the latest version changes',
    );
    for (const url of [
      `/v1/skills/${privateSkill}/versions/1.0.0/files/SKILL.md`,
      `/v1/skills/${privateSkill}/versions/1.0.0/archive.zip`,
      `/v1/skills/${privateSkill}/files/SKILL.md`,
    ]) {
      const res = await call(t.app, 'GET', url, { key });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['cache-control'], 'private, no-cache', url);
    }
  });

  it('answers a cache revalidating a version of a skill made private, or deleted, with 404, not 304', async () => {
    for (const [name, takeDown] of [
      [
        'made-private',
        (id: string) => call(t.app, 'POST', `/v1/skills/${id}/visibility`, { key, body: { visibility: 'private' } }),
      ],
      ['deleted', (id: string) => call(t.app, 'DELETE', `/v1/skills/${id}`, { key })],
    ] as const) {
      const id = (await contributeSkill(t.app, key, { name: `soon-${name}` })).id;
      const urls = [`/v1/skills/${id}/versions/1.0.0/files/SKILL.md`, `/v1/skills/${id}/versions/1.0.0/archive.zip`];
      const etags: string[] = [];
      for (const url of urls) {
        const res = await call(t.app, 'GET', url);
        const maxAge = Number(/max-age=(\d+)/.exec(String(res.headers['cache-control']))?.[1]);
        assert.ok(maxAge <= 300 && !String(res.headers['cache-control']).includes('immutable'), url);
        etags.push(String(res.headers.etag));
      }
      assert.equal((await takeDown(id)).statusCode, 200, name);
      for (const [i, url] of urls.entries()) {
        const res = await call(t.app, 'GET', url, { headers: { 'if-none-match': etags[i]! } });
        assert.equal(res.statusCode, 404, `${name}: ${url}`);
      }
    }
  });

  it('answers no CORS headers by default', async () => {
    const res = await call(t.app, 'GET', '/v1/knowledge', { headers: { origin: 'https://app.example.org' } });
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    const preflight = await call(t.app, 'OPTIONS', '/v1/knowledge', {
      headers: { origin: 'https://app.example.org', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
  });
});

describe('CORS when configured', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp(openSqliteStore('sqlite::memory:'), {
      config: testConfig({ corsOrigins: ['https://app.example.org'] }),
    });
  });
  after(async () => t.close());

  it('allows the configured origins, with the headers the API needs, and no other origin', async () => {
    const origin = 'https://app.example.org';
    const preflight = await call(t.app, 'OPTIONS', '/v1/knowledge', {
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], origin);
    assert.match(String(preflight.headers['access-control-allow-headers']), /authorization/);
    const read = await call(t.app, 'GET', '/v1/knowledge', { headers: { origin } });
    assert.equal(read.headers['access-control-allow-origin'], origin);
    assert.match(String(read.headers['access-control-expose-headers']), /etag/);
    const other = await call(t.app, 'GET', '/v1/knowledge', { headers: { origin: 'https://evil.example' } });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });
});
