// The search index saved beside the database and loaded at the next start: the loaded index answers as
// one built from the database (including what was written after the snapshot, through the change log);
// a damaged file or one made under another configuration is not used, and the index is built instead.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { RegistrySearchOptions } from '../../src/search/registry-options.js';
import { RegistrySearch } from '../../src/search/registry-search.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, contributeUnit, register, testApp } from '../helpers/app.js';

const dir = mkdtempSync(join(tmpdir(), 'kreg-snapshot-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const QUERIES = ['backoff', 'retry http', 'kubernetes operators', 'pattern number 7', 'zebra', 'written after'];

async function open(
  store: ConstructorParameters<typeof RegistrySearch>[0],
  options: Partial<RegistrySearchOptions> = {},
) {
  const logs: string[] = [];
  const log = { info: (_: object, m: string) => logs.push(m), warn: (_: object, m: string) => logs.push(`warn: ${m}`) };
  const search = new RegistrySearch(store, { embeddings: { kind: 'none' }, log, ...options });
  search.start();
  await search.ready;
  const answers = async () => {
    const out: unknown[] = [];
    for (const q of QUERIES) out.push(await search.search('unit', q, null, 50, 0));
    return { answers: out, vocabulary: search.vocabulary() };
  };
  return { search, logs, answers };
}

describe('the search index snapshot', () => {
  it('is saved, loaded at the next start, caught up from the change log, and answers as a fresh build', async () => {
    const file = join(dir, 'registry.db');
    const snapshotDir = `${file}.search`;
    const t = await testApp(openSqliteStore(`sqlite:${file}`));
    try {
      const key = await register(t.app, 'alice');
      const ids: string[] = [];
      for (let i = 0; i < 40; i++)
        ids.push(
          (await contributeUnit(t.app, key, { title: `Backoff pattern number ${i}`, tags: [`tag${i % 5}`] })).id,
        );
      await contributeUnit(t.app, key, { title: 'Kubernetes operators reconcile state' });

      const first = await open(t.store, { snapshotDir });
      await first.search.close();
      assert.ok(first.logs.includes('search index snapshot saved'), first.logs.join('\n'));

      // Written after the snapshot: the next start applies it from the change log.
      await contributeUnit(t.app, key, { title: 'Written after the snapshot, zebra' });
      assert.equal((await call(t.app, 'DELETE', `/v1/knowledge/${ids[7]}`, { key })).statusCode, 200);

      // A process stopped while writing left its temporary file: the next start removes it.
      const leftover = join(snapshotDir, 'index.snapshot.12345.tmp');
      writeFileSync(leftover, 'partial');
      const loaded = await open(t.store, { snapshotDir });
      assert.equal(existsSync(leftover), false, 'the unfinished file is removed');
      const fresh = await open(t.store);
      try {
        assert.ok(loaded.logs.includes('search index loaded from its snapshot'), loaded.logs.join('\n'));
        // The deleted unit's own words left the vocabulary too.
        assert.deepEqual(await loaded.answers(), await fresh.answers());
        assert.equal((await loaded.search.search('unit', 'zebra', null, 10, 0))!.total, 1);
      } finally {
        await loaded.search.close();
      }

      // Damaged: one byte changed. Not used; built from the database, and saved again.
      const path = join(snapshotDir, 'index.snapshot');
      const bytes = readFileSync(path);
      bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
      writeFileSync(path, bytes);
      const damaged = await open(t.store, { snapshotDir });
      try {
        assert.ok(
          damaged.logs.includes('warn: the search index snapshot cannot be used; building the index from the database'),
          damaged.logs.join('\n'),
        );
        assert.deepEqual(await damaged.answers(), await fresh.answers());
      } finally {
        await damaged.search.close();
      }

      // Made under other vocabulary bounds: not used either.
      const other = await open(t.store, { snapshotDir, vocabulary: { total: 5_000, perAgent: 1_000 } });
      try {
        assert.ok(
          other.logs.some((m) => m.startsWith('warn: the search index snapshot cannot be used')),
          other.logs.join('\n'),
        );
        assert.deepEqual((await other.answers()).answers, (await fresh.answers()).answers);
      } finally {
        await other.search.close();
        await fresh.search.close();
      }
    } finally {
      await t.close();
    }
  });
});
