// A snapshot is written while the index keeps changing: what it saves is the state when it began, with
// the items changed meanwhile marked so that replaying the changes since then (as the next start does
// from the change log) gives exactly the live index.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { noEmbeddings } from '../../src/search/embeddings/provider.js';
import type { SearchItem } from '../../src/search/feed.js';
import { KindIndex } from '../../src/search/registry-index.js';
import { loadIndexSnapshot, snapshotFingerprint, writeIndexSnapshot } from '../../src/search/snapshot.js';
import { UNBOUNDED_TERMS } from '../../src/search/lexical.js';

const dir = mkdtempSync(join(tmpdir(), 'kreg-snapshot-consistency-'));
const MARK = { database: 'test', position: { tx: 0, seq: 5 }, last: { tx: 0, seq: 5 } };
after(() => rmSync(dir, { recursive: true, force: true }));

const bounds = { limits: UNBOUNDED_TERMS, memoryFull: () => false };
const indexes = () => ({
  skill: new KindIndex('skill', noEmbeddings, bounds),
  unit: new KindIndex('unit', noEmbeddings, bounds),
});
const unit = (seq: number, title: string, quality = 0.5): SearchItem => ({
  kind: 'unit',
  held: false,
  seq,
  id: `ku_${seq}`,
  agentId: `agent${seq % 3}`,
  name: title,
  description: `About ${title}.`,
  tags: ['t'],
  domain: 'd',
  body: '',
  qualityScore: quality,
  createdAt: `2026-01-01T00:00:0${seq % 10}.000Z`,
  type: 'pattern',
});
const QUERIES = ['kubernetes', 'postgres', 'retry', 'about', 'zebra', 'operators reconcile'];
const answers = (ix: ReturnType<typeof indexes>) =>
  QUERIES.map((q) =>
    ix.unit.engine
      .search(q, { limit: 20, filter: ix.unit.admit({ and: [] }), tieBreak: ix.unit.tieBreak })
      .hits.map((h) => h.key),
  );

test('changes made while a snapshot is written are replayed on top of it, giving the live index', async () => {
  const live = indexes();
  const titles = [
    'Kubernetes operators reconcile',
    'Postgres vacuum',
    'Retry with backoff',
    'Kubernetes probes',
    'Postgres replicas',
  ];
  titles.forEach((t, i) => live.unit.put(unit(i + 1, t)));
  const path = join(dir, 'index.snapshot');
  const fingerprint = snapshotFingerprint('test');
  const writing = writeIndexSnapshot(path, live, MARK, fingerprint);
  // While it is written: a changed text, a deletion, a new item, a changed quality only.
  const changed = [
    unit(3, 'Zebra crossing retries'),
    unit(6, 'Kubernetes zebra operators'),
    unit(2, 'Postgres vacuum', 0.9),
  ];
  for (const item of changed) live.unit.put(item);
  live.unit.drop(4);
  assert.equal(await writing, 5);

  const loaded = indexes();
  assert.deepEqual(await loadIndexSnapshot(path, loaded, fingerprint, () => {}), MARK);
  // The catch-up: every change since the snapshot began, as the change log gives them.
  for (const item of changed) loaded.unit.put(item);
  loaded.unit.drop(4);
  assert.deepEqual(answers(loaded), answers(live));
  assert.deepEqual([...loaded.unit.attributes.keys()].sort(), [...live.unit.attributes.keys()].sort());
  assert.equal(loaded.unit.engine.size, live.unit.engine.size);
});
