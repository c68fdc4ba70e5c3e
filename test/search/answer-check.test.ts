// Defence in depth: a search's page of skills is checked against the store before it is answered, so a
// skill the index (or the summaries kept beside it) still holds as public is not shown once it is private,
// even if the index never heard of the change.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import { call, contributeSkill, register, testApp } from '../helpers/app.js';

for (const backend of backends()) {
  describe(`search answers are checked against the store [${backend.name}]`, () => {
    it('leaves out a skill made private behind the index’s back, for everyone but its publisher', async () => {
      const shared = await backend.shared();
      const t = await testApp(await shared.start());
      try {
        const carol = await register(t.app, 'carol');
        await contributeSkill(t.app, carol, { name: 'echidna-tools', description: 'Echidna spine counting.' });
        const first = await call(t.app, 'GET', '/v1/skills?q=echidna');
        assert.deepEqual(
          first.json().data.map((s: { name: string }) => s.name),
          ['echidna-tools'],
        );
        // Made private, and the change the index would have followed is lost.
        await shared.exec(
          `UPDATE skills SET visibility = 'private' WHERE name = 'echidna-tools';
           DELETE FROM search_changes WHERE seq = (SELECT max(seq) FROM search_changes);`,
        );
        const anonymous = await call(t.app, 'GET', '/v1/skills?q=echidna');
        assert.deepEqual(anonymous.json().data, [], 'not shown to the anonymous caller');
        const stranger = await call(t.app, 'GET', '/v1/skills?q=echidna', { key: await register(t.app, 'eve') });
        assert.deepEqual(stranger.json().data, [], 'nor to another agent');
        const own = await call(t.app, 'GET', '/v1/skills?q=echidna', { key: carol });
        assert.deepEqual(
          own.json().data.map((s: { name: string }) => s.name),
          ['echidna-tools'],
          'its publisher still finds it',
        );
      } finally {
        await t.close();
        await shared.drop();
      }
    });
  });
}
