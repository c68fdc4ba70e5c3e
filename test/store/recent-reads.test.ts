// The newest skills and units (the web pages' "newest" shelves and an agent's units), on every backend:
// newest first by first publication, one entry per listed skill, private ones only for their viewer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import { call, contributeSkill, contributeUnit, register, testApp, type TestApp } from '../helpers/app.js';

for (const backend of backends())
  describe(`recent skills and units [${backend.name}]`, () => {
    let t: TestApp;
    const ids: Record<string, string> = {};
    before(async () => {
      t = await testApp(await backend.open());
      const alice = await register(t.app, 'alice');
      const bob = await register(t.app, 'bob');
      ids.first = (await contributeSkill(t.app, alice, { name: 'first-skill' })).id;
      ids.secret = (await contributeSkill(t.app, alice, { name: 'secret-skill' }, 'private')).id;
      ids.bobs = (await contributeSkill(t.app, bob, { name: 'bobs-skill' })).id;
      ids.yanked = (await contributeSkill(t.app, bob, { name: 'yanked-skill' })).id;
      await call(t.app, 'POST', `/v1/skills/${ids.yanked}/versions/1.0.0/yank`, { key: bob });
      // A new version of the first skill does not make it newer: skills are ordered by first publication.
      await contributeSkill(t.app, alice, { name: 'first-skill', metadata: '{version: "1.1.0"}' });
      ids.u1 = (await contributeUnit(t.app, alice)).id;
      ids.u2 = (await contributeUnit(t.app, bob)).id;
      ids.u3 = (await contributeUnit(t.app, alice, { content: { description: 'x'.repeat(2_000), examples: [] } })).id;
    });
    after(async () => t.close());

    const visitor = { agentId: null, everything: false };

    it('lists the newest listed skills a viewer may see, newest first', async () => {
      const seen = (await t.store.recentSkills({ viewer: visitor, limit: 10 })).map((s) => s.id);
      assert.deepEqual(seen, [ids.bobs, ids.first]);
      const owner = (await t.store.recentSkills({ viewer: { agentId: 'alice', everything: false }, limit: 10 })).map(
        (s) => s.id,
      );
      assert.deepEqual(owner, [ids.bobs, ids.secret, ids.first]);
      const admin = (await t.store.recentSkills({ viewer: { agentId: 'ops', everything: true }, limit: 1 })).map(
        (s) => s.id,
      );
      assert.deepEqual(admin, [ids.bobs]);
      const alices = await t.store.recentSkills({ viewer: visitor, agentId: 'alice', limit: 10 });
      assert.deepEqual(
        alices.map((s) => [s.id, s.version]),
        [[ids.first, '1.1.0']],
      );
      assert.equal('skill_md_content' in alices[0]!, false, 'summaries');
    });

    it('lists the newest units, of everyone or of one contributor, as summaries', async () => {
      assert.deepEqual(
        (await t.store.recentUnits({ limit: 2 })).map((u) => u.id),
        [ids.u3, ids.u2],
      );
      const alices = await t.store.recentUnits({ agentId: 'alice', limit: 10 });
      assert.deepEqual(
        alices.map((u) => u.id),
        [ids.u3, ids.u1],
      );
      assert.equal(alices[0]!.truncated, true);
      assert.equal(alices[0]!.content.description.length, 500);
      assert.deepEqual(await t.store.recentUnits({ agentId: 'nobody', limit: 10 }), []);
    });
  });
