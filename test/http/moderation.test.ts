// Reports, holds, appeals and the log, through REST on every backend: what a held skill, version or unit
// is for each caller (404 for all but its owner and admins, absent from lists, totals and search, never
// the default version), and every abuse of the process refused with the envelope and nothing changed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import {
  call,
  contributeSkill,
  contributeUnit,
  errorCode,
  register,
  testApp,
  testConfig,
  type TestApp,
} from '../helpers/app.js';

for (const backend of backends()) {
  describe(`moderation [${backend.name}]`, () => {
    let t: TestApp;
    let carol: string; // publishes
    let dave: string; // reports
    let root: string; // admin
    const admin = (body: Record<string, unknown>) =>
      call(t.app, 'POST', '/v1/moderation/decisions', { key: root, body });
    const report = (key: string, body: Record<string, unknown>) => call(t.app, 'POST', '/v1/reports', { key, body });

    before(async () => {
      t = await testApp(await backend.open(), {
        config: testConfig({
          openAdminRegistration: true,
          reportsPerDay: { free: 3, pro: 100, enterprise: 500 },
        }),
      });
      carol = await register(t.app, 'carol');
      dave = await register(t.app, 'dave');
      root = await register(t.app, 'root', ['read', 'write', 'admin']);
    });
    after(() => t.close());

    it('reports what the reporter can see, once, never its own, within the quota', async () => {
      const skill = await contributeSkill(t.app, carol, { name: 'report-me', description: 'Reported tools.' });
      const secret = await contributeSkill(t.app, carol, { name: 'secret-me', description: 'Private.' }, 'private');
      const filed = await report(dave, { target: skill.id, reason: 'spam', details: 'looks like spam' });
      assert.equal(filed.statusCode, 201, filed.body);
      const data = filed.json().data;
      assert.deepEqual([data.target, data.version, data.reason, data.status], [skill.id, null, 'spam', 'open']);
      assert.match(data.id, /^rp_/);
      const twice = await report(dave, { target: skill.id, reason: 'malware' });
      assert.deepEqual([twice.statusCode, errorCode(twice)], [409, 'CONFLICT']);
      const own = await report(carol, { target: skill.id, reason: 'spam' });
      assert.deepEqual([own.statusCode, errorCode(own)], [403, 'FORBIDDEN']);
      // A private skill and an unknown id are the same 404: a report learns nothing.
      const hidden = await report(dave, { target: secret.id, reason: 'spam' });
      const unknown = await report(dave, { target: 'sk_nothing', reason: 'spam' });
      assert.deepEqual([hidden.statusCode, unknown.statusCode], [404, 404]);
      assert.equal(hidden.json().error.message, unknown.json().error.message);
      const badVersion = await report(dave, { target: skill.id, version: '9.9.9', reason: 'spam' });
      assert.equal(badVersion.statusCode, 404);
      assert.equal((await report(dave, { target: skill.id, reason: 'nonsense' })).statusCode, 400);
      assert.equal(
        (await call(t.app, 'POST', '/v1/reports', { body: { target: skill.id, reason: 'spam' } })).statusCode,
        401,
      );
      // The quota (3 a day here): the first report counted, two more pass, the fourth is refused.
      const units = await Promise.all([1, 2, 3].map((i) => contributeUnit(t.app, carol, { title: `Unit ${i}` })));
      assert.equal((await report(dave, { target: units[0]!.id, reason: 'spam' })).statusCode, 201);
      assert.equal((await report(dave, { target: units[1]!.id, reason: 'spam' })).statusCode, 201);
      const over = await report(dave, { target: units[2]!.id, reason: 'spam' });
      assert.deepEqual([over.statusCode, errorCode(over)], [429, 'RATE_LIMITED']);
      assert.ok(Number(over.headers['retry-after']) > 0);
    });

    it('queues reports for admins only, the reporters with standing first', async () => {
      assert.equal((await call(t.app, 'GET', '/v1/moderation/reports', { key: dave })).statusCode, 403);
      assert.equal((await call(t.app, 'GET', '/v1/moderation/reports')).statusCode, 401);
      // An agent with standing (contributions) reports after a newcomer, and is listed first.
      const erin = await register(t.app, 'erin');
      for (let i = 0; i < 10; i++) await contributeUnit(t.app, erin, { title: `Erin's unit ${i}` });
      const target = await contributeSkill(t.app, carol, { name: 'queued', description: 'Queued tools.' });
      const newcomer = await register(t.app, 'fresh');
      assert.equal((await report(newcomer, { target: target.id, reason: 'spam' })).statusCode, 201);
      assert.equal((await report(erin, { target: target.id, reason: 'malware' })).statusCode, 201);
      const queue = await call(t.app, 'GET', '/v1/moderation/reports?status=open&limit=100', { key: root });
      assert.equal(queue.statusCode, 200);
      const mine = queue.json().data.filter((r: { target: string }) => r.target === target.id);
      assert.deepEqual(
        mine.map((r: { reporter: string }) => r.reporter),
        ['erin', 'fresh'],
      );
      assert.equal(mine[0].target_state.exists, true);
    });

    it('holds a skill: gone for everyone but its owner and admins, everywhere a REST caller looks; released, back', async () => {
      const skill = await contributeSkill(t.app, carol, { name: 'holdable', description: 'Holdable walrus tools.' });
      const filed = (await report(await register(t.app, 'gale'), { target: skill.id, reason: 'malware' })).json().data;
      const held = await admin({
        target: skill.id,
        action: 'hold',
        reason: 'malware',
        note: 'internal',
        report_ids: [filed.id],
      });
      assert.equal(held.statusCode, 201, held.body);
      assert.deepEqual(
        [held.json().data.action, held.json().data.by, held.json().data.reason],
        ['hold', 'moderator', 'malware'],
      );
      for (const key of [undefined, dave]) {
        assert.equal((await call(t.app, 'GET', `/v1/skills/${skill.id}`, { key })).statusCode, 404);
        assert.equal((await call(t.app, 'GET', `/v1/skills/${skill.id}/versions`, { key })).statusCode, 404);
        assert.equal(
          (await call(t.app, 'GET', `/v1/skills/${skill.id}/versions/1.0.0/archive.zip`, { key })).statusCode,
          404,
        );
        assert.equal((await call(t.app, 'GET', `/v1/skills/${skill.id}/files/SKILL.md`, { key })).statusCode, 404);
        const listed = await call(t.app, 'GET', '/v1/skills?publisher=carol&name=holdable', { key });
        assert.deepEqual([listed.json().total, listed.json().data], [0, []]);
        assert.equal((await call(t.app, 'GET', '/v1/skills?q=walrus', { key })).json().total, 0);
      }
      const index = await call(t.app, 'GET', '/.well-known/agent-skills/index.json');
      assert.ok(!index.body.includes(skill.id), 'not in the discovery index');
      // Its owner and admins see it, held, with the reason.
      for (const key of [carol, root]) {
        const read = await call(t.app, 'GET', `/v1/skills/${skill.id}`, { key });
        assert.equal(read.statusCode, 200);
        assert.deepEqual([read.json().data.held.reason, read.json().data.held.by], ['malware', 'moderator']);
        assert.equal((await call(t.app, 'GET', '/v1/skills?q=walrus', { key })).json().total, 1);
      }
      // The report it names is closed; the log shows the decision without reporter or note.
      const closed = await call(t.app, 'GET', '/v1/moderation/reports?status=closed&limit=100', { key: root });
      assert.ok(closed.json().data.some((r: { id: string }) => r.id === filed.id));
      const log = await call(t.app, 'GET', '/v1/moderation/log');
      const entry = log.json().data.find((d: { target: string }) => d.target === skill.id);
      assert.deepEqual(Object.keys(entry).sort(), ['action', 'at', 'by', 'id', 'reason', 'target', 'version']);
      assert.ok(!log.body.includes('internal') && !log.body.includes('gale'));
      // Held twice: 409; released: back for everyone.
      assert.equal((await admin({ target: skill.id, action: 'hold', reason: 'malware' })).statusCode, 409);
      assert.equal((await admin({ target: skill.id, action: 'release', reason: 'false-positive' })).statusCode, 201);
      assert.equal((await call(t.app, 'GET', `/v1/skills/${skill.id}`)).statusCode, 200);
      assert.equal((await call(t.app, 'GET', '/v1/skills?q=walrus')).json().total, 1);
      assert.equal((await admin({ target: skill.id, action: 'release', reason: 'false-positive' })).statusCode, 409);
    });

    it('holds one version: never the default, 404 by its number for others, absent from their version list', async () => {
      const first = await contributeSkill(t.app, carol, { name: 'two-versions', description: 'Version one.' });
      await contributeSkill(t.app, carol, {
        name: 'two-versions',
        description: 'Version two.',
        metadata: '{version: "1.1.0"}',
      });
      assert.equal((await call(t.app, 'GET', `/v1/skills/${first.id}`)).json().data.version, '1.1.0');
      assert.equal(
        (await admin({ target: first.id, version: '1.1.0', action: 'hold', reason: 'malware' })).statusCode,
        201,
      );
      const read = (await call(t.app, 'GET', `/v1/skills/${first.id}`)).json().data;
      assert.deepEqual([read.version, read.latest_version], ['1.0.0', '1.0.0']);
      assert.equal((await call(t.app, 'GET', `/v1/skills/${first.id}/versions/1.1.0`)).statusCode, 404);
      assert.equal(
        (await call(t.app, 'GET', `/v1/skills/${first.id}/versions/1.1.0/archive.zip`, { key: dave })).statusCode,
        404,
      );
      const versions = (await call(t.app, 'GET', `/v1/skills/${first.id}/versions`)).json();
      assert.deepEqual(
        versions.data.map((v: { version: string }) => v.version),
        ['1.0.0'],
      );
      assert.equal(versions.total, 1);
      const own = (await call(t.app, 'GET', `/v1/skills/${first.id}/versions`, { key: carol })).json();
      assert.deepEqual(
        own.data.map((v: { version: string; held?: unknown }) => [v.version, v.held !== undefined]),
        [
          ['1.1.0', true],
          ['1.0.0', false],
        ],
      );
      assert.equal((await call(t.app, 'GET', `/v1/skills/${first.id}/versions/1.1.0`, { key: carol })).statusCode, 200);
    });

    it('holds a unit: 404 for others (read, validate), out of lists and totals; its owner appeals', async () => {
      const unit = await contributeUnit(t.app, carol, { title: 'Held narwhal unit', domain: 'held-domain' });
      const before = (await call(t.app, 'GET', '/v1/knowledge?domain=held-domain')).json().total;
      assert.equal(
        (await call(t.app, 'POST', '/v1/moderation/appeals', { key: carol, body: { target: unit.id, message: 'why' } }))
          .statusCode,
        409,
        'nothing to appeal before a hold',
      );
      assert.equal((await admin({ target: unit.id, action: 'hold', reason: 'spam' })).statusCode, 201);
      assert.equal((await call(t.app, 'GET', `/v1/knowledge/${unit.id}`)).statusCode, 404);
      assert.equal(
        (await call(t.app, 'POST', `/v1/knowledge/${unit.id}/validate`, { key: dave, body: { valid: true } }))
          .statusCode,
        404,
      );
      assert.equal((await call(t.app, 'GET', '/v1/knowledge?domain=held-domain')).json().total, before - 1);
      assert.equal((await call(t.app, 'GET', '/v1/knowledge?q=narwhal')).json().total, 0);
      assert.equal((await call(t.app, 'GET', '/v1/knowledge?domain=held-domain', { key: carol })).json().total, before);
      const own = (await call(t.app, 'GET', `/v1/knowledge/${unit.id}`, { key: carol })).json().data;
      assert.equal(own.held.by, 'moderator');
      // Only its owner appeals, once; the appeal is in the queue as reason "appeal".
      const body = { target: unit.id, message: 'It is a real finding.' };
      assert.equal((await call(t.app, 'POST', '/v1/moderation/appeals', { key: dave, body })).statusCode, 404);
      const appeal = await call(t.app, 'POST', '/v1/moderation/appeals', { key: carol, body });
      assert.equal(appeal.statusCode, 201, appeal.body);
      assert.equal(appeal.json().data.reason, 'appeal');
      assert.equal((await call(t.app, 'POST', '/v1/moderation/appeals', { key: carol, body })).statusCode, 409);
      const queue = (await call(t.app, 'GET', '/v1/moderation/reports?limit=100', { key: root })).json().data;
      assert.ok(
        queue.some((r: { id: string; reason: string }) => r.id === appeal.json().data.id && r.reason === 'appeal'),
      );
      // Released on appeal: back, and the appeal closed.
      const released = await admin({
        target: unit.id,
        action: 'release',
        reason: 'appeal-upheld',
        report_ids: [appeal.json().data.id],
      });
      assert.equal(released.statusCode, 201);
      assert.equal((await call(t.app, 'GET', `/v1/knowledge/${unit.id}`)).statusCode, 200);
    });

    it('refuses decisions by non-admins and bad decisions, changing nothing', async () => {
      const unit = await contributeUnit(t.app, carol, { title: 'Untouched unit' });
      const body = { target: unit.id, action: 'hold', reason: 'malware' };
      for (const key of [carol, dave]) {
        const refused = await call(t.app, 'POST', '/v1/moderation/decisions', { key, body });
        assert.deepEqual([refused.statusCode, errorCode(refused)], [403, 'FORBIDDEN']);
      }
      assert.equal((await admin({ ...body, action: 'ban' })).statusCode, 400);
      assert.equal((await admin({ ...body, reason: 'Not A Code' })).statusCode, 400);
      assert.equal((await admin({ ...body, target: 'ku_nothing' })).statusCode, 404);
      assert.equal((await admin({ ...body, version: '1.0.0' })).statusCode, 404, 'a unit has no versions');
      assert.equal((await call(t.app, 'GET', `/v1/knowledge/${unit.id}`)).statusCode, 200);
      const log = (await call(t.app, 'GET', '/v1/moderation/log?limit=100')).json().data;
      assert.ok(!log.some((d: { target: string }) => d.target === unit.id));
    });

    it('keeps decisions about private skills out of the public log', async () => {
      const secret = await contributeSkill(t.app, carol, { name: 'log-secret', description: 'Private.' }, 'private');
      assert.equal((await admin({ target: secret.id, action: 'hold', reason: 'malware' })).statusCode, 201);
      const log = await call(t.app, 'GET', '/v1/moderation/log?limit=100');
      assert.ok(!log.body.includes(secret.id));
    });
  });
}
