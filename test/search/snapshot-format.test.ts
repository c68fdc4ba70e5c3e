// A snapshot of an older layout is refused (the index is then built from the store), never misread.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createProvider } from '../../src/search/embeddings/factory.js';
import { KindIndex } from '../../src/search/registry-index.js';
import { UNBOUNDED_TERMS } from '../../src/search/lexical.js';
import { loadIndexSnapshot, SNAPSHOT_FORMAT, snapshotFingerprint } from '../../src/search/snapshot.js';
import { SnapshotWriter } from '../../src/search/snapshot-file.js';

const dir = mkdtempSync(join(tmpdir(), 'kreg-snapshot-format-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const fresh = () => {
  const provider = createProvider({ kind: 'none' });
  const bounds = { limits: UNBOUNDED_TERMS, memoryFull: () => false };
  return { skill: new KindIndex('skill', provider, bounds), unit: new KindIndex('unit', provider, bounds) };
};

test('a snapshot of the layout before term ids and attribute columns is not loaded', async () => {
  assert.ok(SNAPSHOT_FORMAT >= 2);
  const path = join(dir, 'old.snap');
  const out = await SnapshotWriter.create(path);
  // The first layout: attributes saved as objects.
  const fingerprint = snapshotFingerprint('shape');
  await out.json({ format: 1, fingerprint, lastChange: 3, items: 1 });
  await out.json({ end: true });
  await out.commit();
  const indexes = fresh();
  await assert.rejects(
    loadIndexSnapshot(path, indexes, fingerprint, () => undefined),
    /another version or configuration/,
  );
  assert.equal(indexes.unit.engine.size + indexes.skill.engine.size, 0);
});
