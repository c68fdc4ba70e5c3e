// The migration that recomputes agents' skeletons with today's look-alike rule, on a database whose
// skeletons the earlier rule wrote, including two agents that only today's rule finds confusable.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrations as postgresMigrations } from '../../src/store/postgres/migrations/index.js';
import { migrations as sqliteMigrations } from '../../src/store/sqlite/migrations/index.js';
import { AgentConfusableError, type Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { agentKey } from '../helpers/keys.js';

const at = (n: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, n)).toISOString();

for (const backend of backends()) {
  describe(`look-alike skeletons of existing agents [${backend.name}]`, () => {
    const shipped = backend.name === 'postgres' ? postgresMigrations : sqliteMigrations;
    const recompute = shipped.find((m) => m.name === 'look-alike ids: one skeleton, case folded on the look');

    it('recomputes them: two existing look-alikes both keep their ids, and a third is refused', async () => {
      assert.ok(recompute, 'the migration exists');
      const db = await backend.shared();
      let store: Store | undefined = await db.start();
      try {
        await store.createAgentWithKey(agentKey('alice', at(1)));
        await store.createAgentWithKey(agentKey('bob-', at(2)));
        // `AIice` registered while only the earlier rule held: its skeletons were `Alice` and `aiice`.
        await db.exec(`DELETE FROM agent_skeletons WHERE agent_id = 'alice'`);
        await store.createAgentWithKey(agentKey('AIice', at(3)));
        await store.close();
        store = undefined;
        await db.exec(
          `DELETE FROM agent_skeletons;
           INSERT INTO agent_skeletons (skeleton, agent_id) VALUES ('s:alice', 'alice'), ('c:alice', 'alice'),
             ('s:Alice', 'AIice'), ('c:aiice', 'AIice'), ('s:bob-', 'bob-'), ('c:bob-', 'bob-');
           DELETE FROM schema_migrations WHERE version = ${recompute.version};`,
        );

        store = await db.start();
        assert.deepEqual(
          await db.appliedMigrations(),
          shipped.map((m) => m.version),
        );
        for (const agentId of ['alice', 'AIice', 'bob-']) {
          assert.equal(await store.agentExists(agentId), true, agentId);
          assert.equal((await store.findKeyByHash(agentKey(agentId, at(0)).keyHash))?.agentId, agentId);
        }
        for (const lookalike of ['ALlCE', 'a1ice', 'Alice', 'aIice', 'B0B-', 'bob-'.toUpperCase()]) {
          await assert.rejects(store.createAgentWithKey(agentKey(lookalike, at(9))), AgentConfusableError, lookalike);
        }
        await store.createAgentWithKey(agentKey('carol', at(10)));
        assert.equal(await store.agentExists('carol'), true, 'ids that look like nobody else are taken');
      } finally {
        await store?.close();
        await db.drop();
      }
    });
  });
}
