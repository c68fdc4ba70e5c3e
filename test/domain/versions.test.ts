// Version rules: the sort key a store orders versions by is semver precedence, checked against the semver
// library on generated versions; the bounds every version route can address; what a publication decides.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import semver from 'semver';
import {
  decideVersion,
  isRelease,
  latestAfter,
  latestVersion,
  MAX_VERSION_NUMBER,
  readVersion,
  versionProblem,
  versionSortKey,
} from '../../src/domain/versions.js';

const numberPart = fc.oneof(
  fc.integer({ min: 0, max: 12 }),
  fc.integer({ min: 0, max: 2_000_000 }),
  fc.constantFrom(9, 10, 99, 100, 999, 1000),
);
const identifier = fc.oneof(
  numberPart.map(String),
  fc.stringMatching(/^[0-9A-Za-z-]{1,6}$/).filter((id) => !/^\d+$/.test(id)),
  fc.constantFrom('alpha', 'beta', 'rc', 'alpha-1', 'x'),
);
const version = fc
  .tuple(numberPart, numberPart, numberPart, fc.array(identifier, { maxLength: 4 }))
  .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre.length > 0 ? `-${pre.join('.')}` : ''}`)
  .filter((v) => semver.valid(v) === v);
const sign = (n: number) => (n > 0 ? 1 : n < 0 ? -1 : 0);

describe('version rules', () => {
  it('order versions by their sort key exactly as semver precedence does', () => {
    fc.assert(
      fc.property(version, version, (a, b) => {
        const byKey = versionSortKey(a) < versionSortKey(b) ? -1 : versionSortKey(a) > versionSortKey(b) ? 1 : 0;
        assert.equal(byKey, sign(semver.compare(a, b)), `${a} vs ${b}: ${versionSortKey(a)} vs ${versionSortKey(b)}`);
      }),
      { numRuns: 3_000 },
    );
    assert.ok(versionSortKey('1.0.0-alpha') < versionSortKey('1.0.0-alpha.1'));
    assert.ok(versionSortKey('1.0.0-alpha.beta') < versionSortKey('1.0.0-beta'));
    assert.ok(versionSortKey('1.0.0-rc.1') < versionSortKey('1.0.0'));
    assert.ok(versionSortKey('9.0.0') < versionSortKey('10.0.0'));
  });

  it('pick the highest release that is not yanked, as latestAfter does one version at a time', () => {
    fc.assert(
      fc.property(fc.array(version, { minLength: 1, maxLength: 8 }), (versions) => {
        let current: string | null = null;
        for (const v of versions) current = latestAfter(current, v);
        assert.equal(current, latestVersion(versions.map((v) => ({ version: v, yanked: false }))));
        const releases = versions.filter(isRelease);
        if (releases.length > 0) assert.equal(isRelease(current!), true);
      }),
      { numRuns: 500 },
    );
  });

  it('bound the versions a publication may ask for, so that every route can address them', () => {
    assert.equal(versionProblem('1.2.3'), null);
    assert.match(versionProblem(`1.0.0-${'a'.repeat(206)}`)!, /at most 64 characters/);
    assert.match(versionProblem(`${MAX_VERSION_NUMBER + 1}.0.0`)!, /at most/);
    assert.match(readVersion(`1.0.0-${'a'.repeat(206)}`).problem!, /at most 64 characters/);
    assert.deepEqual(readVersion('1.2'), { version: '1.2.0', note: 'version "1.2" is not semver; published as 1.2.0' });
  });

  it('decide a publication from the facts the store finds, refusing to go past the largest version', () => {
    const none = { same: null, taken: false, highest: null };
    assert.deepEqual(decideVersion(none, null), { kind: 'new', version: '1.0.0' });
    assert.deepEqual(decideVersion({ ...none, same: '1.1.0' }, '2.0.0'), { kind: 'same', version: '1.1.0' });
    assert.deepEqual(decideVersion({ ...none, taken: true, highest: '2.0.0' }, '2.0.0'), {
      kind: 'taken',
      version: '2.0.0',
    });
    assert.deepEqual(decideVersion({ ...none, highest: '1.1.0-beta.1' }, null), { kind: 'new', version: '1.1.0' });
    assert.deepEqual(decideVersion({ ...none, highest: '1.1.0' }, null), { kind: 'new', version: '1.1.1' });
    const top = `${MAX_VERSION_NUMBER}.${MAX_VERSION_NUMBER}.${MAX_VERSION_NUMBER}`;
    assert.deepEqual(decideVersion({ ...none, highest: top }, null), { kind: 'exhausted', version: top });
  });
});
