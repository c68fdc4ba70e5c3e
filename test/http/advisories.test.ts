// Advisories through REST on every backend: admins publish them as OSV records against a range of a
// skill's versions, anyone reads them (never about a skill that is private now), and one query audits a
// whole lock file: per locked version its advisories, yank, hold and verdict, in the order asked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import { call, contributeSkill, errorCode, register, testApp, testConfig, type TestApp } from '../helpers/app.js';

for (const backend of backends()) {
  describe(`advisories [${backend.name}]`, () => {
    let t: TestApp;
    let carol: string;
    let dave: string;
    let root: string;
    let skillId: string;
    const publish = (key: string, body: Record<string, unknown>) =>
      call(t.app, 'POST', '/v1/advisories', { key, body });
    const audit = (skills: unknown, key?: string) =>
      call(t.app, 'POST', '/v1/advisories/query', { ...(key ? { key } : {}), body: { skills } });

    before(async () => {
      t = await testApp(await backend.open(), { config: testConfig({ openAdminRegistration: true }) });
      carol = await register(t.app, 'carol');
      dave = await register(t.app, 'dave');
      root = await register(t.app, 'root', ['read', 'write', 'admin']);
      for (const version of ['1.0.0', '1.1.0', '1.2.0', '2.0.0']) {
        const skill = await contributeSkill(t.app, carol, {
          name: 'csv-clean',
          description: `Cleans CSV files, ${version}.`,
          metadata: `{version: "${version}"}`,
        });
        skillId = skill.id;
      }
    });
    after(() => t.close());

    it('publishes an OSV record for admins only, its range as SEMVER events and the versions it covers', async () => {
      const body = {
        skill_id: skillId,
        versions: '>=1.1.0 <2.0.0',
        severity: 'high',
        summary: 'Sends ~/.ssh to a webhook',
        details: 'scripts/setup.sh posts the private keys.',
      };
      assert.equal((await call(t.app, 'POST', '/v1/advisories', { body })).statusCode, 401);
      const refused = await publish(dave, body);
      assert.deepEqual([refused.statusCode, errorCode(refused)], [403, 'FORBIDDEN']);
      const created = await publish(root, body);
      assert.equal(created.statusCode, 201, created.body);
      const record = created.json().data;
      assert.match(record.id, /^KREG-[0-9a-f]{20}$/);
      assert.equal(record.schema_version, '1.6.0');
      assert.equal(record.published, record.modified);
      assert.deepEqual(record.affected, [
        {
          package: { ecosystem: 'Knowledge-Registry', name: 'carol/csv-clean' },
          ranges: [{ type: 'SEMVER', events: [{ introduced: '1.1.0' }, { fixed: '2.0.0' }] }],
          versions: ['1.2.0', '1.1.0'],
          database_specific: { skill_id: skillId, severity: 'high', range: '>=1.1.0 <2.0.0' },
        },
      ]);
      const read = await call(t.app, 'GET', `/v1/advisories/${record.id}`);
      assert.deepEqual(read.json().data, record, 'anyone reads it, without a key');
    });

    it('refuses a bad advisory with the field named, and changes nothing', async () => {
      const before = (await call(t.app, 'GET', '/v1/advisories')).json().total;
      const base = { skill_id: skillId, versions: '<1.0.0', severity: 'low', summary: 's', details: 'd' };
      const range = await publish(root, { ...base, versions: 'not a range' });
      assert.deepEqual([range.statusCode, errorCode(range)], [400, 'VALIDATION_ERROR']);
      assert.match(range.json().error.message, /versions/);
      const severity = await publish(root, { ...base, severity: 'apocalyptic' });
      assert.equal(severity.statusCode, 400);
      assert.match(severity.json().error.message, /severity/);
      assert.equal((await publish(root, { ...base, extra: 1 })).statusCode, 400);
      const unknown = await publish(root, { ...base, skill_id: 'sk_nothing' });
      assert.deepEqual([unknown.statusCode, errorCode(unknown)], [404, 'NOT_FOUND']);
      assert.equal((await call(t.app, 'GET', '/v1/advisories')).json().total, before);
      assert.equal((await call(t.app, 'GET', '/v1/advisories/KREG-0000')).statusCode, 404);
    });

    it('lists advisories newest first, by skill and by modification time', async () => {
      const other = await contributeSkill(t.app, carol, { name: 'other-tool', description: 'Another tool.' });
      const second = await publish(root, {
        skill_id: other.id,
        versions: '*',
        severity: 'critical',
        summary: 'Malware',
        details: 'A dropper.',
      });
      assert.equal(second.statusCode, 201);
      const all = (await call(t.app, 'GET', '/v1/advisories')).json();
      assert.equal(all.total, 2);
      assert.equal(all.data[0].id, second.json().data.id);
      assert.deepEqual(second.json().data.affected[0].ranges, [{ type: 'SEMVER', events: [{ introduced: '0' }] }]);
      const bySkill = (await call(t.app, 'GET', `/v1/advisories?skill_id=${skillId}`)).json();
      assert.deepEqual(
        bySkill.data.map(
          (a: { affected: { database_specific: { skill_id: string } }[] }) => a.affected[0]!.database_specific.skill_id,
        ),
        [skillId],
      );
      const later = (await call(t.app, 'GET', '/v1/advisories?modified_since=2999-01-01T00:00:00Z')).json();
      assert.equal(later.total, 0);
      assert.equal((await call(t.app, 'GET', '/v1/advisories?modified_since=yesterday')).statusCode, 400);
      assert.equal((await call(t.app, 'GET', '/v1/advisories?limit=0')).statusCode, 400);
    });

    it('audits a lock file in one request: advisories, yanks, holds and verdicts, in the order asked', async () => {
      assert.equal(
        (await call(t.app, 'POST', `/v1/skills/${skillId}/versions/1.0.0/yank`, { key: carol })).statusCode,
        200,
      );
      const held = await call(t.app, 'POST', '/v1/moderation/decisions', {
        key: root,
        body: { target: skillId, version: '1.2.0', action: 'hold', reason: 'malware' },
      });
      assert.equal(held.statusCode, 201, held.body);
      const secret = await contributeSkill(t.app, carol, { name: 'secret-tool', description: 'Private.' }, 'private');
      const answer = await audit([
        { id: skillId, version: '1.2.0' },
        { id: skillId, version: '1.0.0' },
        { id: skillId, version: '2.0.0' },
        { id: secret.id, version: '1.0.0' },
        { id: 'sk_nothing', version: '1.0.0' },
      ]);
      assert.equal(answer.statusCode, 200, answer.body);
      const data = answer.json().data;
      assert.deepEqual(
        data.map((e: { id: string; version: string; found: boolean; yanked: boolean; held: boolean }) => [
          e.version,
          e.found,
          e.yanked,
          e.held,
        ]),
        [
          ['1.2.0', true, false, true],
          ['1.0.0', true, true, false],
          ['2.0.0', true, false, false],
          ['1.0.0', false, false, false],
          ['1.0.0', false, false, false],
        ],
      );
      assert.deepEqual(
        data.map((e: { advisories: unknown[] }) => e.advisories.length),
        [1, 0, 0, 0, 0],
      );
      assert.equal(data[0].advisories[0].summary, 'Sends ~/.ssh to a webhook');
      // The publisher sees its own private skill in its audit.
      const own = (await audit([{ id: secret.id, version: '1.0.0' }], carol)).json().data;
      assert.equal(own[0].found, true);
    });

    it('bounds the audit: 1 to 1,000 entries, each well formed', async () => {
      assert.equal((await audit([])).statusCode, 400);
      const many = Array.from({ length: 1_001 }, () => ({ id: skillId, version: '1.0.0' }));
      const over = await audit(many);
      assert.deepEqual([over.statusCode, errorCode(over)], [400, 'VALIDATION_ERROR']);
      assert.equal((await audit(many.slice(0, 1_000))).json().data.length, 1_000);
      assert.equal((await audit([{ id: skillId }])).statusCode, 400);
      assert.equal((await audit([{ id: skillId, version: '1.0.0', extra: true }])).statusCode, 400);
    });

    it('never shows an advisory about a skill that is private now', async () => {
      const listed = (await call(t.app, 'GET', `/v1/advisories?skill_id=${skillId}`)).json().data[0];
      const flipped = await call(t.app, 'POST', `/v1/skills/${skillId}/visibility`, {
        key: carol,
        body: { visibility: 'private' },
      });
      assert.equal(flipped.statusCode, 200, flipped.body);
      assert.equal((await call(t.app, 'GET', `/v1/advisories/${listed.id}`)).statusCode, 404);
      assert.equal((await call(t.app, 'GET', `/v1/advisories?skill_id=${skillId}`)).json().total, 0);
      await call(t.app, 'POST', `/v1/skills/${skillId}/visibility`, { key: carol, body: { visibility: 'public' } });
      assert.equal((await call(t.app, 'GET', `/v1/advisories/${listed.id}`)).statusCode, 200);
    });
  });
}
