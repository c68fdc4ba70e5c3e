// The moderation pages on every backend: the public log (no reporter, no note, nothing private), the admins'
// queue behind a key typed into a form (401 for a bad key, 403 without admin, 403 for a post from another
// site, nothing changed), a decision taken there as through the API; and a skill's page with its advisories
// and, for its owner, its hold.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import { call, contributeSkill, register, testApp, testConfig, type TestApp } from '../helpers/app.js';

const FORM = 'application/x-www-form-urlencoded';

for (const backend of backends()) {
  describe(`the moderation pages [${backend.name}]`, () => {
    let t: TestApp;
    let carol: string;
    let dave: string;
    let root: string;
    const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': FORM, ...headers },
        payload: new URLSearchParams(fields).toString(),
      });

    before(async () => {
      t = await testApp(await backend.open(), { config: testConfig({ openAdminRegistration: true }) });
      carol = await register(t.app, 'carol');
      dave = await register(t.app, 'dave');
      root = await register(t.app, 'root', ['read', 'write', 'admin']);
    });
    after(() => t.close());

    it('asks for the key in a form, and opens the queue only for an admin key', async () => {
      const form = await call(t.app, 'GET', '/admin');
      assert.equal(form.statusCode, 200);
      assert.match(form.body, /<input type="password" id="admin-key" name="key"/);
      assert.equal(form.headers['cache-control'], 'no-store');
      assert.equal((await post('/admin/queue', { key: 'reg_nonsense' })).statusCode, 401);
      assert.equal((await post('/admin/queue', { key: dave })).statusCode, 403);
      assert.equal((await post('/admin/queue', {})).statusCode, 400);
      const queue = await post('/admin/queue', { key: root });
      assert.equal(queue.statusCode, 200, queue.body);
      assert.equal(queue.headers['cache-control'], 'no-store');
      assert.match(queue.body, /Moderation queue/);
      // The API stays JSON: a form sent to it is a 415.
      const api = await post('/v1/reports', { target: 'x', reason: 'spam' }, { authorization: `Bearer ${dave}` });
      assert.equal(api.statusCode, 415);
    });

    it('decides from the queue as the API does, and refuses a post from another site with nothing changed', async () => {
      const skill = await contributeSkill(t.app, carol, { name: 'page-held', description: 'Held from a page.' });
      const filed = await call(t.app, 'POST', '/v1/reports', {
        key: dave,
        body: { target: skill.id, reason: 'malware', details: '<script>alert(1)</script>' },
      });
      assert.equal(filed.statusCode, 201);
      const queue = await post('/admin/queue', { key: root });
      assert.ok(queue.body.includes(skill.id));
      assert.ok(queue.body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'details are escaped');
      assert.ok(!queue.body.includes('<script>alert'), 'never raw');
      const decision = {
        key: root,
        target: skill.id,
        action: 'hold',
        reason: 'malware',
        report_ids: filed.json().data.id,
      };
      for (const headers of <Record<string, string>[]>[
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        { origin: 'https://evil.example' },
        { origin: 'null' },
      ]) {
        const refused = await post('/admin/decisions', decision, headers);
        assert.equal(refused.statusCode, 403, JSON.stringify(headers));
      }
      assert.equal((await call(t.app, 'GET', `/v1/skills/${skill.id}`)).statusCode, 200, 'nothing changed');
      const badReason = await post('/admin/decisions', { ...decision, reason: 'Not A Code' });
      assert.equal(badReason.statusCode, 400);
      assert.equal((await post('/admin/decisions', { ...decision, key: dave })).statusCode, 403);
      const done = await post('/admin/decisions', decision, {
        'sec-fetch-site': 'same-origin',
        origin: 'null',
      });
      assert.equal(done.statusCode, 200, done.body);
      assert.match(done.body, new RegExp(`Recorded: hold of ${skill.id} \\(malware\\)`));
      assert.equal((await call(t.app, 'GET', `/v1/skills/${skill.id}`)).statusCode, 404);
      assert.equal((await call(t.app, 'GET', `/skills/${skill.id}`)).statusCode, 404, 'its page too');
      const log = await call(t.app, 'GET', '/moderation');
      assert.equal(log.statusCode, 200);
      assert.ok(log.body.includes(skill.id));
      assert.ok(!log.body.includes('dave'), 'no reporter');
      // Its owner, with its key, sees its page with the hold and its reason.
      const own = await call(t.app, 'GET', `/skills/${skill.id}`, { key: carol });
      assert.equal(own.statusCode, 200);
      assert.match(own.body, /Held by the moderators \(malware\)/);
    });

    it('keeps decisions about private skills off the log page', async () => {
      const secret = await contributeSkill(t.app, carol, { name: 'page-secret', description: 'Private.' }, 'private');
      const held = await call(t.app, 'POST', '/v1/moderation/decisions', {
        key: root,
        body: { target: secret.id, action: 'hold', reason: 'spam' },
      });
      assert.equal(held.statusCode, 201);
      assert.ok(!(await call(t.app, 'GET', '/moderation')).body.includes(secret.id));
      assert.equal((await call(t.app, 'GET', '/moderation?page=0')).statusCode, 400);
    });

    it("shows a skill's advisories on its page, those affecting the version shown first", async () => {
      const skill = await contributeSkill(t.app, carol, { name: 'advised', description: 'Has advisories.' });
      await contributeSkill(t.app, carol, {
        name: 'advised',
        description: 'Fixed.',
        metadata: '{version: "2.0.0"}',
      });
      const advisory = await call(t.app, 'POST', '/v1/advisories', {
        key: root,
        body: { skill_id: skill.id, versions: '<2.0.0', severity: 'high', summary: 'Leaks <tokens>', details: 'd' },
      });
      assert.equal(advisory.statusCode, 201);
      const id = advisory.json().data.id;
      const latest = await call(t.app, 'GET', `/skills/${skill.id}`);
      assert.match(latest.body, new RegExp(`${id}</a>: Leaks &lt;tokens&gt;`));
      assert.match(latest.body, /not this one/);
      assert.doesNotMatch(latest.body, /is affected by/);
      const old = await call(t.app, 'GET', `/skills/${skill.id}?version=1.0.0`);
      assert.match(old.body, /Version 1\.0\.0 is affected by an advisory/);
      assert.match(old.body, /including this one/);
    });
  });
}
