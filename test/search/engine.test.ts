import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SearchEngine } from '../../src/search/engine.js';
import type { SearchDocument } from '../../src/search/document.js';
import { BUILTIN_ID } from '../../src/search/embeddings/builtin.js';
import type { SearchConfig } from '../../src/search/hybrid.js';

const skills: SearchDocument[] = [
  {
    key: 1,
    name: 'pdf-extract',
    description: 'Extract text and tables from PDF files.',
    tags: ['pdf'],
    body: 'Use pdfplumber to read pages.',
  },
  {
    key: 2,
    name: 'pdf',
    description: 'Read, merge and split PDF documents.',
    tags: [],
    body: 'Merging pdf files with qpdf.',
  },
  {
    key: 3,
    name: 'docker-compose',
    description: 'Write docker compose files for local stacks.',
    tags: ['containers'],
    body: 'Services, volumes, networks.',
  },
  {
    key: 4,
    name: 'kubernetes-debug',
    description: 'Debug failing pods, crash loops and pending deployments.',
    tags: [],
    body: 'kubectl describe, logs, events.',
  },
  {
    key: 5,
    name: 'release-notes',
    description: 'Draft release notes from merged pull requests.',
    tags: [],
    body: 'Group changes by type. Mentions pdf once.',
  },
];

function engine(vectors?: Map<number, Float32Array>) {
  const e = new SearchEngine(vectors ? { semanticWeight: 0.5, semanticWeightLong: 0.5 } : {}, {
    dimensions: vectors ? 3 : 0,
  });
  for (const s of skills) e.upsert(s, vectors?.get(s.key));
  return e;
}

test('stop words are dropped: a question finds what its content words find', () => {
  const e = engine();
  const a = e.search('How do I debug my failing pods?', { limit: 5 }).hits.map((h) => h.key);
  const b = e.search('debug failing pods', { limit: 5 }).hits.map((h) => h.key);
  assert.deepEqual(a, b);
  assert.equal(a[0], 4);
});

test('OR semantics: any remaining word may match', () => {
  const keys = engine()
    .search('compose pods', { limit: 5 })
    .hits.map((h) => h.key);
  assert.deepEqual(new Set(keys), new Set([3, 4]));
});

test('an exact name match ranks first', () => {
  const hits = engine().search('PDF', { limit: 5 }).hits;
  assert.equal(hits[0]!.key, 2);
  assert.equal(hits[0]!.exactName, true);
  assert.equal(engine().search('pdf extract', { limit: 5 }).hits[0]!.key, 1);
});

test('name outranks description outranks body', () => {
  const keys = engine()
    .search('pdf', { limit: 5 })
    .hits.map((h) => h.key);
  assert.ok(keys.includes(1) && keys.includes(5), `${keys}`);
  assert.ok(keys.indexOf(1) < keys.indexOf(5));
});

test('a query about nothing in the registry finds nothing', () => {
  assert.equal(engine().search('quantum chromodynamics lattice', { limit: 5 }).hits.length, 0);
  assert.equal(engine().search('???', { limit: 5 }).hits.length, 0);
});

test('semantic evidence: an item sharing no word appears only above the similarity floor', () => {
  const v = (x: number, y: number, z: number) => {
    const n = Math.hypot(x, y, z);
    return Float32Array.from([x / n, y / n, z / n]);
  };
  const vectors = new Map<number, Float32Array>([
    [1, v(1, 0, 0)],
    [2, v(1, 0.1, 0)],
    [3, v(0, 1, 0)],
    [4, v(0, 0, 1)],
    [5, v(0, 1, -1)],
  ]);
  const e = engine(vectors);
  // "cluster orchestration" shares no word with any item; its vector is close to kubernetes-debug only.
  const near = e.search('cluster orchestration', { limit: 5, queryVector: v(0.05, 0.1, 1) }).hits;
  assert.deepEqual(
    near.map((h) => h.key),
    [4],
  );
  assert.equal(near[0]!.lexical, 0);
  // Far from everything: nothing.
  assert.equal(e.search('cluster orchestration', { limit: 5, queryVector: v(-1, -1, -1) }).hits.length, 0);
});

test('remove() makes an item disappear; upsert replaces', () => {
  const e = engine();
  assert.ok(e.search('compose', { limit: 5 }).hits.some((h) => h.key === 3));
  e.remove(3);
  assert.equal(e.search('compose', { limit: 5 }).hits.length, 0);
  e.upsert({ ...skills[3]!, name: 'k8s-debug' });
  assert.equal(e.search('kubernetes-debug', { limit: 5 }).hits.filter((h) => h.exactName).length, 0);
  assert.equal(e.search('k8s-debug', { limit: 5 }).hits[0]!.key, 4);
});

test('filter and offset page through the ranking', () => {
  const e = engine();
  const all = e.search('pdf', { limit: 10 }).hits.map((h) => h.key);
  const page2 = e.search('pdf', { limit: 1, offset: 1 }).hits.map((h) => h.key);
  assert.deepEqual(page2, all.slice(1, 2));
  assert.ok(e.search('pdf', { limit: 10, filter: (k) => k !== 2 }).hits.every((h) => h.key !== 2));
});

test('pruned and exhaustive searches agree through the engine', () => {
  const e = engine();
  for (const q of ['pdf files', 'debug', 'release notes pull requests', 'docker pods pdf']) {
    assert.deepEqual(
      e.search(q, { limit: 3, exhaustive: false }).hits,
      e.search(q, { limit: 3, exhaustive: true }).hits,
    );
  }
});

test('near-duplicates (same name, near-identical description) rank after every distinct item', () => {
  const make = (collapseDuplicates: 'description' | 'off') => {
    const e = new SearchEngine({ collapseDuplicates });
    e.upsert({
      key: 1,
      name: 'git-helper',
      description: 'Commit, branch and rebase with git.',
      tags: [],
      body: 'git git',
    });
    e.upsert({ key: 2, name: 'git-helper', description: 'Commit, branch and rebase with git!', tags: [], body: 'git' });
    e.upsert({ key: 3, name: 'git-helper', description: 'Audit git history for leaked secrets.', tags: [], body: '' });
    return e;
  };
  const keys = make('description')
    .search('git helper', { limit: 10 })
    .hits.map((h) => h.key);
  assert.equal(keys.length, 3, 'every match is listed');
  assert.deepEqual(new Set(keys.slice(0, 2)), new Set([keys[0], 3]));
  assert.ok([1, 2].includes(keys[0]!) && [1, 2].includes(keys[2]!), 'the copy comes last');
  assert.equal(make('off').search('git helper', { limit: 10 }).hits.length, 3);
});

test('countMatches counts items sharing a word with the query, up to a cap', () => {
  const e = engine();
  assert.equal(e.countMatches('pdf'), 3);
  assert.equal(e.countMatches('pdf', 2), 2);
  assert.equal(
    e.countMatches('pdf', Infinity, (k) => k !== 1),
    2,
  );
  assert.equal(e.countMatches('nothing here whatsoever'), 0);
});

test('with the built-in provider, short queries use the query vector and sentence queries skip it', () => {
  const e = new SearchEngine({}, { providerId: BUILTIN_ID, dimensions: 3 });
  e.upsert(skills[0]!, Float32Array.from([1, 0, 0]));
  assert.equal(e.needsQueryVector('pdf tables'), true);
  assert.equal(
    e.needsQueryVector('How can I pull the tables out of these scanned PDF invoices into a spreadsheet?'),
    false,
  );
  assert.equal(new SearchEngine({}, {}).needsQueryVector('pdf tables'), false);
});

test('items sharing a name: exact-name matches follow additions and removals in insertion order', () => {
  const e = new SearchEngine({ collapseDuplicates: 'off' }, { itemTerms: 'needed' });
  for (const key of [7, 3, 9])
    e.upsert({ key, name: 'lint-fix', description: `Fix lint errors, variant ${key}.`, tags: [], body: '' });
  const exact = () =>
    e
      .search('lint fix', { limit: 10 })
      .hits.filter((h) => h.exactName)
      .map((h) => h.key);
  assert.deepEqual(new Set(exact()), new Set([7, 3, 9]));
  e.remove(3);
  assert.deepEqual(new Set(exact()), new Set([7, 9]));
  e.remove(7);
  assert.deepEqual(exact(), [9]);
  e.upsert({ key: 9, name: 'other-name', description: 'Renamed.', tags: [], body: '' });
  assert.deepEqual(exact(), []);
  e.upsert({ key: 3, name: 'lint-fix', description: 'Back again.', tags: [], body: '' });
  assert.deepEqual(exact(), [3]);
});

test('an engine made to keep only the item terms its config needs keeps just those', () => {
  const item = { key: 1, name: 'pdf-tables', description: 'Extract tables from PDF files.', tags: [], body: '' };
  const kept = (config: Partial<SearchConfig>, itemTerms?: 'needed') => {
    const e = new SearchEngine(config, itemTerms ? { itemTerms } : {});
    e.upsert(item);
    const info = e.item(1)!;
    assert.equal(info.nameKey, 'pdftables');
    return [info.nameTerms.length > 0, info.descSet.length > 0];
  };
  assert.deepEqual(kept({ collapseDuplicates: 'off' }, 'needed'), [false, false]);
  assert.deepEqual(kept({ collapseDuplicates: 'description' }, 'needed'), [false, true]);
  assert.deepEqual(kept({ collapseDuplicates: 'off', namePhrase: 0.1 }, 'needed'), [true, false]);
  assert.deepEqual(kept({ collapseDuplicates: 'off' }), [true, true], 'all of them by default');
});
